#include "engine/geometry/polygon_builders.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/geometry/polygon.hpp"
#include "engine/geometry/random_points.hpp"

namespace pegsim {
namespace {

double cross(const Vec2& o, const Vec2& a, const Vec2& b) {
  return (a - o).x() * (b - o).y() - (a - o).y() * (b - o).x();
}

}  // namespace

Polygon make_regular_polygon(int n, double radius) {
  if (n < 3)
    throw GeometryError("a regular polygon needs at least 3 sides, got " + std::to_string(n));
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw GeometryError("a regular polygon needs a positive finite radius");
  std::vector<Vec2> v(n);
  for (int k = 0; k < n; ++k) {
    // Vertices 0 and 1 at -pi/2 -+ pi/n: edge 0 is horizontal, below the centre.
    const double angle = -M_PI / 2 - M_PI / n + 2.0 * M_PI * k / n;
    v[k] = radius * Vec2(std::cos(angle), std::sin(angle));
  }
  return make_polygon(std::move(v));
}

Polygon make_rectangle(double lx, double ly) {
  if (!(lx > 0.0 && ly > 0.0) || !std::isfinite(lx) || !std::isfinite(ly))
    throw GeometryError("a rectangle needs positive finite sides");
  const double x = lx / 2, y = ly / 2;
  return make_polygon({Vec2(-x, -y), Vec2(x, -y), Vec2(x, y), Vec2(-x, y)});
}

Polygon make_triangle(double side) {
  return make_regular_polygon(3, side / std::sqrt(3.0));
}

Polygon make_convex_hull_2d(const std::vector<Vec2>& points) {
  std::vector<Vec2> p = points;
  for (const Vec2& x : p)
    if (!x.allFinite()) throw GeometryError("a hull point is not finite");
  std::sort(p.begin(), p.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  p.erase(std::unique(p.begin(), p.end()), p.end());
  const int n = static_cast<int>(p.size());
  std::vector<Vec2> hull(2 * std::max(n, 1));
  int k = 0;
  // Lower then upper chain; a turn that is not strictly left drops the middle point.
  for (int i = 0; i < n; ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0.0) --k;
    hull[k++] = p[i];
  }
  for (int i = n - 2, lower = k + 1; i >= 0; --i) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], p[i]) <= 0.0) --k;
    hull[k++] = p[i];
  }
  hull.resize(std::max(k - 1, 0));
  if (hull.size() < 3)
    throw GeometryError("the points span no area (need 3 that are not collinear)");
  return make_polygon(std::move(hull));
}

Polygon make_random_polygon(std::uint64_t seed, int count, double extent) {
  if (count < 3) throw GeometryError("a random polygon needs at least 3 points");
  return make_convex_hull_2d(random_points_2d(seed, count, extent));
}

}  // namespace pegsim
