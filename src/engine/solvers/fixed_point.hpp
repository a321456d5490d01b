// The projected fixed-point (projected gradient) iteration z <- max(0, z - alpha (M z + q))
// (Cottle, Pang & Stone §5.3). Its fixed points are exactly the LCP's solutions; for symmetric
// positive definite M it converges for 0 < alpha < 2 / lambda_max(M). The step alpha is
// 1 / (max absolute row sum of M), a bound on lambda_max that needs no eigenvalue.
//
// On the NCP with the quadratic cone (ncp.hpp, fixed_point_ncp.cpp) the same step with the
// exact cone as the projection, contact by contact (the proximal fixed point of Coulomb's law,
// Alart & Curnier 1991; Jourdan, Alart & Jean 1998), w = M z + q:
//   p_n <- max(0, p_n - alpha w_n),   p_t <- proj_{|p_t| <= mu p_n}(p_t - alpha u_t),
// and the other rows as above. Its fixed points are the NCP's solutions with sigma = |u_t|:
// p_t inside the disk means u_t = 0 (stick), on its rim p_t = -mu p_n u_t / |u_t| (slide).
// Convergence is not guaranteed (Coulomb's law with the normal impulse in the cone's radius is
// no monotone problem), but it is the method's usual behaviour for moderate mu.
#pragma once

#include "engine/solvers/solver.hpp"

namespace pegsim {

class FixedPointSolver final : public Solver {
 public:
  std::string_view name() const override { return "fixed-point"; }
  SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) override;
  bool supports_ncp() const override { return true; }
  SolveReport solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) override;

 private:
  VecX w_, F_;
};

}  // namespace pegsim
