// Natural-map residual of the LCP (the measure every solver reports).
#include "engine/solvers/lcp.hpp"

#include <cmath>

namespace pegsim {

double natural_residual(const Lcp& lcp, const VecX& z) {
  const Eigen::Index n = lcp.q.size();
  if (z.size() != n || lcp.M.rows() != n || lcp.M.cols() != n) return INFINITY;
  if (z.size() == 0) return 0.0;
  // min(z, w) vanishes exactly when z >= 0, w >= 0 and z_i w_i = 0 for every i.
  const VecX w = lcp.M * z + lcp.q;
  return z.cwiseMin(w).cwiseAbs().maxCoeff();
}

}  // namespace pegsim
