// Projected Gauss–Seidel, block-wise (Cottle, Pang & Stone §5.2; one block per contact as in
// Erleben's "Numerical methods for linear complementarity problems in physics-based animation").
#pragma once

#include <vector>

#include "engine/solvers/lemke.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

class PgsSolver final : public Solver {
 public:
  std::string_view name() const override { return "pgs"; }
  // One sweep visits the blocks in order and solves each block's LCP exactly (a 1x1 block in
  // closed form, a larger one by Lemke) with the other blocks held fixed. The residual history
  // has one entry per sweep.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  LemkeSolver block_solver_;
  Lcp block_;
  VecX block_z_, w_;
  std::vector<int> bounds_;
};

}  // namespace pegsim
