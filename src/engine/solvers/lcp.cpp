// Natural-map residual of the LCP (the measure every solver reports).
#include "engine/solvers/lcp.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <vector>

namespace pegsim {

const char* lcp_defect(const Lcp& lcp) {
  const Eigen::Index n = lcp.q.size();
  if (lcp.M.rows() != n || lcp.M.cols() != n) return "M is not square of the size of q";
  if (!lcp.M.allFinite() || !lcp.q.allFinite()) return "M or q has a non-finite entry";
  return nullptr;
}

double natural_residual(const Lcp& lcp, const VecX& z) {
  const Eigen::Index n = lcp.q.size();
  if (z.size() != n || lcp.M.rows() != n || lcp.M.cols() != n) return INFINITY;
  if (z.size() == 0) return 0.0;
  // min(z, w) vanishes exactly when z >= 0, w >= 0 and z_i w_i = 0 for every i.
  const VecX w = lcp.M * z + lcp.q;
  return z.cwiseMin(w).cwiseAbs().maxCoeff();
}

bool active_set_solution(const Lcp& lcp, const VecX& z, const VecX& w, double tolerance,
                         VecX& out) {
  std::vector<int> active;
  for (Eigen::Index i = 0; i < z.size(); ++i)
    if (z(i) > w(i)) active.push_back(static_cast<int>(i));
  out.setZero(z.size());
  if (!active.empty()) {
    const int m = static_cast<int>(active.size());
    MatX MAA(m, m);
    VecX qA(m);
    for (int j = 0; j < m; ++j) {
      qA(j) = lcp.q(active[j]);
      for (int i = 0; i < m; ++i) MAA(i, j) = lcp.M(active[i], active[j]);
    }
    // Contact problems make M_AA singular (coplanar contacts, friction directions spanning a
    // plane) but consistent: the minimum-norm solution of the complete orthogonal
    // decomposition is then a solution where LU would divide by a rounding error.
    const VecX zA = -Eigen::CompleteOrthogonalDecomposition<MatX>(MAA).solve(qA);
    if (!zA.allFinite() || zA.minCoeff() < -tolerance) return false;
    for (int j = 0; j < m; ++j) out(active[j]) = std::max(0.0, zA(j));
  }
  return natural_residual(lcp, out) <= tolerance;
}

}  // namespace pegsim
