// The projected fixed-point (projected gradient) iteration z <- max(0, z - alpha (M z + q))
// (Cottle, Pang & Stone §5.3). Its fixed points are exactly the LCP's solutions; for symmetric
// positive definite M it converges for 0 < alpha < 2 / lambda_max(M). The step alpha is
// 1 / (max absolute row sum of M), a bound on lambda_max that needs no eigenvalue.
#pragma once

#include "engine/solvers/solver.hpp"

namespace pegsim {

class FixedPointSolver final : public Solver {
 public:
  std::string_view name() const override { return "fixed-point"; }
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;

 private:
  VecX w_;
};

}  // namespace pegsim
