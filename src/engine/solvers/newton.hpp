// Semismooth Newton methods on a reformulation H(z) = 0 of the LCP (Erleben, "Numerical methods
// for linear complementarity problems in physics-based animation", 2013, §§ 5–6):
//   minmap:  H_i = min(z_i, w_i),                         w = M z + q
//   Fischer: H_i = sqrt(z_i^2 + w_i^2) - z_i - w_i        (Fischer–Burmeister)
// Each iteration solves J dz = -H with a generalized Jacobian J and backtracks on the merit
// psi = |H|^2 / 2 (Armijo); when J is singular or dz is no descent direction, the step falls
// back to the gradient -J^T H. Fast (locally quadratic) where the solution is nondegenerate.
#pragma once

#include <Eigen/LU>

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

 private:
  void evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& H) const;
  void jacobian(const Lcp& lcp, const VecX& z, const VecX& w);

  Map map_;
  MatX J_;
  Eigen::PartialPivLU<MatX> lu_;
  VecX w_, H_, dz_, grad_, trial_, w_trial_, H_trial_;
};

}  // namespace pegsim
