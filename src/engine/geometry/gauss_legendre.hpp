// Gauss-Legendre nodes and weights on [0, 1], for integrands that are smooth once their
// square-root ends are mapped away (circular segments, slices of a ball).
#pragma once

#include <array>
#include <cmath>
#include <numbers>

namespace pegsim {

// The n-point rule (Newton on P_n from the Chebyshev guesses); exact for polynomials of degree
// 2n - 1.
template <int N>
struct GaussLegendre {
  static constexpr int n = N;
  std::array<double, N> nodes{}, weights{};
  GaussLegendre() {
    for (int i = 0; i < n; ++i) {
      double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5)), dp = 0.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double p0 = 1.0, p1 = x;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        dp = n * (x * p1 - p0) / (x * x - 1.0);
        const double dx = p1 / dp;
        x -= dx;
        if (std::abs(dx) < 1e-16) break;
      }
      nodes[std::size_t(i)] = 0.5 * (1.0 - x);
      weights[std::size_t(i)] = 1.0 / ((1.0 - x * x) * dp * dp);
    }
  }
};

}  // namespace pegsim
