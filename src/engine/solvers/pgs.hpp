// Projected Gauss–Seidel, block-wise (Cottle, Pang & Stone §5.2; one block per contact as in
// Erleben's "Numerical methods for linear complementarity problems in physics-based animation").
#pragma once

#include <vector>

#include "engine/solvers/lemke.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

// The projected splitting methods of thesis (2.46)/(2.47), block-wise. Each sweep solves every
// block's LCP exactly (a 1x1 block in closed form, a larger one by Lemke) with the other
// blocks held fixed, and moves the block by `relaxation` times that change, projected on z >= 0:
//   Gauss–Seidel: blocks in order, each using the others' newest values (pgs: relaxation 1;
//                 psor: over-relaxation);
//   Jacobi:       every block from the values at the start of the sweep (projected Jacobi;
//                 thesis §2.4: relaxation about 0.5 converges where 1 does not).
class PgsSolver final : public Solver {
 public:
  enum class Sweep { GaussSeidel, Jacobi };
  explicit PgsSolver(Sweep sweep = Sweep::GaussSeidel, double relaxation = 1.0)
      : sweep_(sweep), relaxation_(relaxation) {}
  std::string_view name() const override {
    if (sweep_ == Sweep::Jacobi) return "projected-jacobi";
    return relaxation_ == 1.0 ? "pgs" : "psor";
  }
  // The residual history has one entry per sweep.
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  // The exact solution of block [s, s + m) with the others fixed, as a change dz of z_b.
  bool solve_block(const Lcp& lcp, const VecX& z, const VecX& w, int s, int m,
                   SolverOptions& options, VecX& dz, std::string& why);

  Sweep sweep_;
  double relaxation_;
  LemkeSolver block_solver_;
  Lcp block_;
  VecX block_z_, w_, change_;
  std::vector<int> bounds_;
};

}  // namespace pegsim
