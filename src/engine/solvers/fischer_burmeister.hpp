// The Fischer-Burmeister function phi(a, b) = a + b - sqrt(a^2 + b^2), zero exactly when
// a >= 0, b >= 0 and a b = 0: the reformulation of complementarity that the PATH-style
// solvers (path.cpp, mcp_newton.cpp) drive to zero by semismooth Newton.
#pragma once

#include <cmath>

namespace pegsim {

// phi(a, b) and its partial derivatives; at a = b = 0 the element (1 - 1/sqrt 2, 1 - 1/sqrt 2)
// of the generalized gradient.
struct Fb {
  double value, da, db;
};

inline Fb fischer(double a, double b) {
  const double r = std::hypot(a, b);
  if (r == 0.0) return {0.0, 1.0 - M_SQRT1_2, 1.0 - M_SQRT1_2};
  // a + b - r computed without cancellation when a, b > 0: (2ab) / (a + b + r).
  const double value = (a > 0.0 && b > 0.0) ? 2.0 * a * b / (a + b + r) : a + b - r;
  return {value, 1.0 - a / r, 1.0 - b / r};
}

}  // namespace pegsim
