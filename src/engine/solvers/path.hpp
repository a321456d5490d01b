// A PATH-style solver for the MCP l <= z <= u  _|_  w = M z + q (lcp.hpp), the pure LCP included.
// It is not PATH (Dirkse & Ferris' path search on the normal map); it borrows PATH's robustness
// devices around a semismooth Newton method (Billups' thesis, 1995; Ferris, Kanzow & Munson,
// "Feasible descent algorithms for mixed complementarity problems", 1999):
//  - the bounded Fischer–Burmeister reformulation Phi(z) = 0, row by row
//      [l, inf):  phi(z - l, w)        (-inf, u]: -phi(u - z, -w)
//      [l, u]:    phi(z - l, -phi(u - z, -w))      free: -w
//    with phi(a, b) = a + b - sqrt(a^2 + b^2), zero exactly when a, b >= 0 and a b = 0;
//  - Newton steps J dz = -Phi on an element J = D_a + D_b M of the generalized Jacobian,
//    factorized by a sparse LU (M of a contact problem is mostly zeros);
//  - a non-monotone line search on the merit psi = |Phi|^2 / 2 (Grippo, Lampariello & Lucidi:
//    a step is accepted against the largest psi of the last kMemory iterates), with a watchdog
//    that returns to the best iterate when the best merit has not halved in kWatchdog steps;
//  - a regularized Newton step (J + delta I) when J is singular, and the gradient step -J^T Phi
//    when neither gives a descent direction;
//  - once the merit stalls, the active set of the best iterate is solved exactly (crossover);
//    on a pure LCP also, once, as soon as a step near the answer fails to halve the merit, the
//    crossover and then the pivoting below (degenerate contact problems: Newton crawls there);
//  - at a local minimum of the merit that is no solution (possible where M is not a P0-matrix,
//    e.g. lcp_tobenna), what PATH's pivoting path search does for a linear problem: complementary
//    pivoting (Lemke) on the problem, reduced by the Schur complement of its free rows when it
//    has any; where Lemke ends on a secondary ray too, the Newton phase once more from the point
//    of up to 200 interior-point steps on that problem (the central path avoids the merit's
//    local minima). Rows with finite bounds other than [0, inf) have neither fallback.
// It also takes the NCP with the quadratic cone (path_ncp.cpp): Fischer–Newton with restarts,
// then from Lemke's answers on polygonal cones in four rotations a crossover, Fischer–Newton and
// the proximal Newton on Alart–Curnier's equations with a crossover on its end, then fixed-point
// sweeps on the exact cone alternating with Newton steps (and a last crossover).
#pragma once

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <deque>

#include "engine/solvers/fixed_point.hpp"
#include "engine/solvers/interior_point.hpp"
#include "engine/solvers/lemke.hpp"
#include "engine/solvers/ncp_crossover.hpp"
#include "engine/solvers/ncp_linearized.hpp"
#include "engine/solvers/newton.hpp"
#include "engine/solvers/proximal_newton.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

class PathSolver final : public Solver {
 public:
  std::string_view name() const override { return "path"; }
  bool supports_bounds() const override { return true; }
  // Iterations are Newton (or gradient) steps; the history is the natural residual per step.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;
  bool supports_ncp() const override { return true; }
  SolveReport solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) override;

 private:
  using SparseMat = Eigen::SparseMatrix<double>;
  void evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& Phi) const;
  void jacobian_diagonals(const Lcp& lcp, const VecX& z, const VecX& w);
  bool newton_direction(double regularization);
  bool solved_at(const Lcp& lcp, const VecX& x, const VecX& w, double tolerance) const;
  bool polish_into(const Lcp& lcp, const VecX& x, double tolerance, VecX& z);
  double descent_direction(const Lcp& lcp, const VecX& z, double regularization);
  bool line_search(const Lcp& lcp, const VecX& z, double slope, double& trial_psi);
  // Lemke on the problem (its free rows eliminated); true with z solved within `tolerance`.
  bool pivot(const Lcp& lcp, VecX& z, const SolverOptions& options, SolveReport& report,
             double tolerance);
  // The semismooth Newton iteration with its line search and watchdog, from z, for at most
  // `budget` steps: Solved (z solves it), Stalled (a local minimum of the merit; `stall` says
  // which test found it) or Limit. best_ holds its best iterate.
  enum class Phase { Solved, Stalled, Limit };
  Phase newton_phase(const Lcp& lcp, VecX& z, const SolverOptions& options, int budget,
                     double tolerance, SolveReport& report, std::string& stall);
  // At most `steps` interior-point steps from a cold start on the problem (its free rows
  // eliminated); false when they give no finite point, else z is that point.
  bool interior_start(const Lcp& lcp, VecX& z, int steps, SolveReport& report);

  SparseMat M_, J_;
  Eigen::SparseLU<SparseMat, Eigen::COLAMDOrdering<int>> lu_;
  bool pattern_ready_ = false;
  VecX da_, db_;  // J = diag(da) + diag(db) M
  VecX w_, Phi_, dz_, grad_, trial_, w_trial_, Phi_trial_, best_, polished_;
  VecX start_;                 // the NCP's start, for the proximal Newton
  std::deque<double> merits_;  // psi of the last kMemory iterates
  LemkeSolver lemke_;
  InteriorPointSolver interior_;  // the restart after a failed pivot
  LinearizedNcp linearized_;      // the NCP's polygonal LCP (path_ncp.cpp)
  FreeRowReduction reduction_;
  NewtonSolver newton_{NewtonSolver::Map::FischerBurmeister};  // the NCP's
  ProximalNewton proximal_newton_;                             // the NCP's
  FixedPointSolver fixed_point_;                               // the NCP's
  NcpCrossover crossover_;                                     // the NCP's
};

}  // namespace pegsim
