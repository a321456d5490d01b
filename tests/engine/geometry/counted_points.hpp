// Volume, centroid and inertia of a region counted by random points: an estimate independent
// of the clipping, cap and slice formulas the geometry tests check.
#pragma once

#include <functional>

#include "engine/geometry/intersection_properties.hpp"
#include "engine/geometry/random_points.hpp"

namespace pegsim {

// Volume, centroid and inertia of {x in box : in(x)} by counting random points of the box
// (centre, half extents): an estimate independent of the clipping and the cap formulas.
inline IntersectionProperties count(const std::function<bool(const Vec3&)>& in, const Vec3& centre,
                                    const Vec3& half, int n) {
  const std::vector<Vec3> unit = random_points_3d(7, n, 1.0);
  const double cell = 8.0 * half.prod() / n;
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (const Vec3& u : unit) {
    const Vec3 x = centre + half.cwiseProduct(u);
    if (!in(x)) continue;
    const Vec3 r = x - centre;
    volume += cell;
    first += cell * r;
    second += cell * r * r.transpose();
  }
  IntersectionProperties out;
  out.volume = volume;
  const Vec3 c = first / volume;
  out.centroid = centre + c;
  const Mat3 spread = second - volume * c * c.transpose();
  out.inertia = spread.trace() * Mat3::Identity() - spread;
  return out;
}

}  // namespace pegsim
