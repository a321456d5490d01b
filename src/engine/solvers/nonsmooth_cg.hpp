// The nonsmooth nonlinear conjugate gradient acceleration of projected Gauss–Seidel (Silcowitz,
// Niebe & Erleben, "A nonsmooth nonlinear conjugate gradient method for interactive contact
// force problems", The Visual Computer 26, 2010, Alg. 3): with r_k = PGS(x_k) - x_k (the
// negative "gradient" of the paper) and the Fletcher–Reeves ratio
//   beta_k = ||r_k||^2 / ||r_{k-1}||^2,
// the iterate after the sweep moves on along the previous direction,
//   x_{k+1} = PGS(x_k) + beta_k p_{k-1},   p_k = beta_k p_{k-1} + r_k,
// and the method restarts (p_k = 0, plain PGS) when beta_k > 1.
#pragma once

#include "engine/core/math.hpp"

namespace pegsim {

class NonsmoothCg {
 public:
  // Forget the direction: the next sweep is plain PGS.
  void restart() {
    have_previous_ = false;
    direction_.resize(0);
  }
  // After a sweep that took the iterate from `before` to `after`: writes beta p to `step`
  // (to be added to `after`) and returns false on a restart, when `step` stays unused.
  bool momentum(const VecX& before, const VecX& after, VecX& step);

 private:
  VecX direction_;         // p_{k-1}
  double previous_ = 0.0;  // ||r_{k-1}||^2
  bool have_previous_ = false;
};

}  // namespace pegsim
