#include "engine/geometry/sphere_overlap.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

double sphere_halfspace_overlap_volume(double r, double height) {
  const double h = std::clamp(r - height, 0.0, 2.0 * r);
  return M_PI * h * h * (3.0 * r - h) / 3.0;
}

double sphere_sphere_overlap_volume(double r1, double r2, double d) {
  if (d >= r1 + r2) return 0.0;
  const double small = std::min(r1, r2);
  if (d <= std::abs(r1 - r2)) return 4.0 / 3.0 * M_PI * small * small * small;
  const double s = r1 + r2 - d;
  return M_PI * s * s * (d * d + 2.0 * d * (r1 + r2) - 3.0 * (r1 - r2) * (r1 - r2)) / (12.0 * d);
}

}  // namespace pegsim
