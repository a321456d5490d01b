// The four error metrics of the RPIsim solver comparison (user guide §8, Script 8), as
// defined in docs/solver-comparison.md: CCK and scaled ("m") CCK, as a norm and a square.
#pragma once

#include "engine/solvers/lcp.hpp"

namespace pegsim::cli {

// lambda of the Chen-Chen-Kanzow function: its weight on Fischer-Burmeister.
inline constexpr double kCckLambda = 0.8;

struct CckMetrics {
  double norm_cck = 0.0;    // ||phi(z, w)||_2
  double square_cck = 0.0;  // 1/2 ||phi(z, w)||_2^2
  double norm_mcck = 0.0;   // the same with w_i scaled by 1 / M_ii (impulse units)
  double square_mcck = 0.0;
};

// phi_lambda(a, b) = lambda (sqrt(a^2 + b^2) - a - b) + (1 - lambda) max(a, 0) max(b, 0):
// zero exactly when a >= 0, b >= 0, a b = 0.
double cck(double a, double b, double lambda = kCckLambda);

// Metrics of z for the LCP with w = M z + q; the first `free_rows` rows are equalities and
// contribute |w_i| (or |w_i| / M_ii) instead of phi.
CckMetrics cck_metrics(const Lcp& lcp, const VecX& z, int free_rows = 0,
                       double lambda = kCckLambda);

}  // namespace pegsim::cli
