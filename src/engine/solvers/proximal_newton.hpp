// Newton's method on Alart–Curnier's equations (alart_curnier.hpp) of the NCP with the quadratic
// cone (thesis (2.18)-(2.20)), regularized as a proximal point method (Rockafellar, "Monotone
// operators and the proximal point algorithm", SIAM J. Control Optim. 14, 1976): subproblem k is
// the same NCP with the linear part
//   w = M z + q + eps D (z - z_k),      D = diag M,
// solved by Newton steps from z_k; its answer is the next centre z_{k+1}. A fixed point z_k is a
// solution of the NCP itself, so the tolerance is checked on the NCP's own natural residual.
// Why: on a pile (pour20) M = J W J^T is singular (four corners of a face on a face give 12 rows
// for 6 degrees of freedom) and Newton's step on the plain equations is 1e11 long or
// inconsistent; M + eps D is positive definite. eps starts at 1e-2, shrinks tenfold per solved
// subproblem (the proximal steps grow until Newton's local convergence takes over) and grows
// tenfold, from the last centre, when a subproblem stalls; a stalled eps is tried again only
// after ten subproblems in a row are solved (else eps oscillates, measured on pour20's step 41).
#pragma once

#include "engine/solvers/alart_curnier.hpp"
#include "engine/solvers/solver.hpp"
#include "engine/solvers/sparse_direction.hpp"

namespace pegsim {

class ProximalNewton {
 public:
  // Solves `ncp` as Solver::solve_ncp does; iterations are Newton steps, the history the NCP's
  // natural residual after each.
  SolveReport solve(const Ncp& ncp, VecX& z, const SolverOptions& options);

 private:
  // Newton steps on the subproblem proximal_ from z until its natural residual is
  // <= inner_tolerance or the NCP's is <= tolerance (true), the line search fails or `steps`
  // steps are spent (false).
  bool newton(const Ncp& ncp, VecX& z, double tolerance, double inner_tolerance, int steps,
              SolveReport& report);
  // The direction of J dz = -G: LU, or the regularized least-squares step where J is singular
  // (sparse_direction.hpp).
  void direction();
  // Subproblem k's M + eps D into proximal_ and m_rows_ (their diagonals).
  void set_diagonal(double eps);

  Ncp proximal_;        // M held by its nonzeros
  SparseRowsX m_rows_;  // proximal_'s M by rows
  AlartCurnier equations_;
  JacobianRows J_;
  SparseDirection direction_;
  VecX diagonal_, centre_, w_, F_, G_, dz_, rhs_, trial_, w_trial_, G_trial_, w_ncp_, F_ncp_;
};

}  // namespace pegsim
