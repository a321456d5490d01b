// A primal-dual interior-point method for the LCP (Wright, "Primal-Dual Interior-Point
// Methods", 1997, Ch. 8 and 10: infeasible path following with Mehrotra's predictor-corrector).
// Polynomial for monotone (positive semidefinite) M and convergent for P*-matrices; contact
// LCPs with friction are neither in general, so it suits frictionless or symmetric problems.
#pragma once

#include <Eigen/SparseLU>
#include <vector>

#include "engine/solvers/jacobian_rows.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

class InteriorPointSolver final : public Solver {
 public:
  std::string_view name() const override { return "interior-point"; }
  // Iterations are Newton steps on (w = M z + q, z o w = sigma mu e); once the complementarity
  // gap is small the active set {z_i > w_i} is solved exactly (a crossover), which ends the
  // method with the accuracy of a pivoting one when the set is right.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  SparseRowsX m_rows_;  // M by rows
  JacobianRows K_;      // Z M + W, on M's pattern and the diagonal
  SparseMatX K_columns_;
  Eigen::SparseLU<SparseMatX, Eigen::COLAMDOrdering<int>> lu_;
  VecX w_, r_, dz_, dw_, rhs_, dz_aff_, dw_aff_, candidate_;
  std::vector<bool> active_, tried_;  // {z_i > w_i} now and at the last failed crossover
};

}  // namespace pegsim
