// Semismooth Newton methods on a reformulation H(z) = 0 of the LCP (Erleben, "Numerical methods
// for linear complementarity problems in physics-based animation", 2013, §§ 5–6):
//   minmap:  H_i = min(z_i, w_i),                         w = M z + q
//   Fischer: H_i = sqrt(z_i^2 + w_i^2) - z_i - w_i        (Fischer–Burmeister)
// Each iteration takes a direction from J dz = -H with a generalized Jacobian J and backtracks
// on the merit psi = |Phi|^2 / 2 of the Fischer–Burmeister map Phi (Armijo): the first direction
// of these that decreases psi is taken:
//   1. Newton's, J dz = -H by sparse LU, when J is not singular (sparse_direction.hpp);
//   2. the regularized least-squares step of J dz = -H (sparse_direction.hpp), near the
//      minimum-norm one: contact problems make J singular (coplanar contacts share their load in
//      any proportion, friction directions span a plane, frictionless contacts leave their slip
//      rows' columns empty), and LU then returns a step of 1e14 that no line search can use;
//   3. minmap only: the Fischer–Burmeister Newton step (as 1, else 2, on Phi's Jacobian);
//   4. steepest descent -grad psi.
// minmap-Newton measures its steps on Fischer's merit, as Siconos' lcp_newton_minFB (min
// directions, Fischer–Burmeister line search) does: |min(z, w)|^2 is not differentiable where
// z_i = w_i and has local minima that are no solutions (measured at §5.1's frictionless corner
// under PEG: friction impulses z_f < 0 balanced against their slip row -sum z_f >= 0, the
// merit's gradient 1e-14 at |H|^2 = 1.3e-4), while psi is continuously differentiable and its
// stationary points solve the LCP when M is P0 (De Luca, Facchinei & Kanzow, Math. Prog. 75,
// 1996). Near a
// nondegenerate solution the min step solves the local linear piece, so the full step is
// taken and the method keeps its one-step finish once the active set is right.
//
// The same maps on the NCP with the quadratic cone (ncp.hpp, newton_ncp.cpp), row by row
// H_i = min(a_i, F_i) or phi(a_i, F_i) on [0, inf) rows and H_i = F_i on free rows, with a_i = z_i
// except on a cone's slip row, where a = sigma - |u_t| (ncp.hpp: complementarity_partners).
#pragma once

#include <functional>

#include "engine/solvers/jacobian_rows.hpp"
#include "engine/solvers/solver.hpp"
#include "engine/solvers/sparse_direction.hpp"

namespace pegsim {

class NewtonSolver final : public Solver {
 public:
  enum class Map { MinMap, FischerBurmeister };
  explicit NewtonSolver(Map map) : map_(map) {}
  std::string_view name() const override {
    return map_ == Map::MinMap ? "minmap-newton" : "fischer-newton";
  }
  // Iterations are Newton steps; the residual history is the natural residual per step.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;
  bool supports_ncp() const override { return true; }
  SolveReport solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) override;

 private:
  // H (of map_) and Phi (Fischer's, the merit's) at z, with w = M z + q.
  void evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& H, VecX& Phi) const;
  // J_ = dH/dz and JF_ = dPhi/dz (for minmap; Fischer's merit uses J_) at z.
  void jacobian(const VecX& z, const VecX& w);
  // The same for the NCP (w = M z + q and F(z) on the way).
  void evaluate(const Ncp& ncp, const VecX& z, VecX& w, VecX& F, VecX& H, VecX& Phi);
  // Newton steps on the NCP until solved (true), stalled, max_iterations or options' deadline.
  bool run_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options, double tolerance,
               SolveReport& report);
  void jacobian(const Ncp& ncp, const VecX& z, const VecX& w, const VecX& F);
  // The merit's Jacobian: JF_ for minmap, J_ for Fischer.
  const JacobianRows& merit_jacobian() const { return map_ == Map::MinMap ? JF_ : J_; }
  // The directions of the header comment in turn from z (psi its merit, grad_ its gradient)
  // until one decreases psi by Armijo's rule along it; true with the accepted point in trial_.
  // merit_at(trial_) evaluates a trial point (the caller's trial workspaces) and returns psi.
  bool descend(const VecX& z, double psi, const std::function<double()>& merit_at);

  // Steps without a 0.1 % gain of the best merit after which a run counts as stalled.
  static constexpr int kStall = 20;

  Map map_;
  SparseRowsX m_rows_;   // M by rows, for the Jacobians' rows
  JacobianRows J_, JF_;  // pattern set per solve
  SparseDirection direction_;
  VecX w_, H_, Phi_, dz_, rhs_, grad_, trial_, w_trial_, H_trial_, Phi_trial_, F_, F_trial_;
  VecX a_;                        // the NCP's complementarity partners (ncp.hpp)
  std::vector<int> cone_of_row_;  // the NCP's slip rows (ncp.hpp)
  bool slip_partners_ = false;    // pair the slip rows with sigma - |u_t| (else with sigma)
};

}  // namespace pegsim
