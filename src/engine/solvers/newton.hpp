// Semismooth Newton methods on a reformulation H(z) = 0 of the LCP (Erleben, "Numerical methods
// for linear complementarity problems in physics-based animation", 2013, §§ 5–6):
//   minmap:  H_i = min(z_i, w_i),                         w = M z + q
//   Fischer: H_i = sqrt(z_i^2 + w_i^2) - z_i - w_i        (Fischer–Burmeister)
// Each iteration solves J dz = -H with a generalized Jacobian J and backtracks on the merit
// psi = |H|^2 / 2 (Armijo); when J is singular or dz is no descent direction, the step falls
// back to the gradient -J^T H. Fast (locally quadratic) where the solution is nondegenerate.
//
// The same maps on the NCP with the quadratic cone (ncp.hpp, newton_ncp.cpp), row by row
// H_i = min(a_i, F_i) or phi(a_i, F_i) on [0, inf) rows and H_i = F_i on free rows, with a_i = z_i
// except on a cone's slip row, where a = sigma - |u_t| (ncp.hpp: complementarity_partners).
#pragma once

#include <Eigen/LU>
#include <Eigen/QR>

#include "engine/solvers/solver.hpp"

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
  void evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& H) const;
  void jacobian(const Lcp& lcp, const VecX& z, const VecX& w);
  // H(z) of the NCP (w = M z + q and F(z) on the way).
  void evaluate(const Ncp& ncp, const VecX& z, VecX& w, VecX& F, VecX& H);
  bool run_ncp(const Ncp& ncp, VecX& z, int max_iterations, double tolerance,
               SolveReport& report);
  // J_ = dH/dz at z, from dF/dz.
  void jacobian(const Ncp& ncp, const VecX& z, const VecX& w, const VecX& F);

  Map map_;
  MatX J_;
  Eigen::PartialPivLU<MatX> lu_;
  Eigen::CompleteOrthogonalDecomposition<MatX> cod_;  // the NCP's singular Jacobians
  VecX w_, H_, dz_, grad_, trial_, w_trial_, H_trial_, F_, F_trial_;
  VecX a_;                        // the NCP's complementarity partners (ncp.hpp)
  std::vector<int> cone_of_row_;  // the NCP's slip rows (ncp.hpp)
  bool slip_partners_ = false;    // pair the slip rows with sigma - |u_t| (else with sigma)
};

}  // namespace pegsim
