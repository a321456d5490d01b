#include "cli/complementarity_metrics.hpp"

#include <algorithm>
#include <cmath>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim::cli {

double cck(double a, double b, double lambda) {
  return lambda * (std::hypot(a, b) - a - b) + (1.0 - lambda) * std::max(a, 0.0) * std::max(b, 0.0);
}

CckMetrics cck_metrics(const Lcp& lcp, const VecX& z, int free_rows, double lambda) {
  VecX w;
  multiply_m(lcp, z, w);
  w += lcp.q;
  double plain = 0.0, scaled = 0.0;
  for (int i = 0; i < lcp.size(); ++i) {
    // z is an impulse and w a velocity: w / M_ii is the impulse that would cancel w, so the
    // scaled pair has one unit. Rows without a positive diagonal (slip rows) stay unscaled.
    const double m_ii = m_entry(lcp, i, i);
    const double d = m_ii > 0.0 ? m_ii : 1.0;
    const double p = i < free_rows ? std::abs(w[i]) : cck(z[i], w[i], lambda);
    const double s = i < free_rows ? std::abs(w[i] / d) : cck(z[i], w[i] / d, lambda);
    plain += p * p;
    scaled += s * s;
  }
  return {std::sqrt(plain), 0.5 * plain, std::sqrt(scaled), 0.5 * scaled};
}

}  // namespace pegsim::cli
