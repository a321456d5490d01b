#include "engine/solvers/nonsmooth_cg.hpp"

namespace pegsim {

bool NonsmoothCg::momentum(const VecX& before, const VecX& after, VecX& step) {
  const double current = (after - before).squaredNorm();  // ||r_k||^2
  const bool restart = !have_previous_ || direction_.size() != after.size() ||
                       !(current <= previous_);  // beta > 1 (or a 0/0 ratio)
  have_previous_ = true;
  if (restart) {  // p_k = 0 (Alg. 3); the next ratio is taken against ||r_k||^2
    direction_.setZero(after.size());
    previous_ = current;
    return false;
  }
  const double beta = previous_ > 0.0 ? current / previous_ : 0.0;
  previous_ = current;
  step = beta * direction_;
  direction_ = step + (after - before);  // p_k = beta p_{k-1} + r_k
  return beta > 0.0;
}

}  // namespace pegsim
