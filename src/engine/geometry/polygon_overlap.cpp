#include "engine/geometry/polygon_overlap.hpp"

#include <algorithm>

namespace pegsim {
namespace {

// Twice the signed area of (a, b, x): > 0 when x is left of a -> b.
double side(const Vec2& a, const Vec2& b, const Vec2& x) {
  const Vec2 e = b - a, d = x - a;
  return e.x() * d.y() - e.y() * d.x();
}

}  // namespace

double polygon_area(const std::vector<Vec2>& polygon) {
  const std::size_t n = polygon.size();
  if (n < 3) return 0.0;
  // Relative to the first vertex, so that a polygon far from the origin loses no digits.
  double twice = 0.0;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const Vec2 u = polygon[i] - polygon[0], v = polygon[i + 1] - polygon[0];
    twice += u.x() * v.y() - u.y() * v.x();
  }
  return 0.5 * twice;
}

void clip_polygon_left(const std::vector<Vec2>& polygon, const Vec2& a, const Vec2& b,
                       std::vector<Vec2>& out) {
  out.clear();
  const std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& p = polygon[i];
    const Vec2& q = polygon[(i + 1) % n];
    const double sp = side(a, b, p), sq = side(a, b, q);
    if (sp >= 0.0) out.push_back(p);
    if ((sp > 0.0 && sq < 0.0) || (sp < 0.0 && sq > 0.0))
      out.push_back(p + (sp / (sp - sq)) * (q - p));
  }
}

void polygon_intersection(const std::vector<Vec2>& p, const std::vector<Vec2>& q,
                          std::vector<Vec2>& out, std::vector<Vec2>& scratch) {
  out.assign(p.begin(), p.end());
  const std::size_t m = q.size();
  for (std::size_t j = 0; j < m && out.size() >= 3; ++j) {
    clip_polygon_left(out, q[j], q[(j + 1) % m], scratch);
    out.swap(scratch);
  }
}

double polygon_overlap_area(const std::vector<Vec2>& p, const std::vector<Vec2>& q) {
  std::vector<Vec2> common, scratch;
  polygon_intersection(p, q, common, scratch);
  return std::max(0.0, polygon_area(common));
}

Vec2 polygon_centroid(const std::vector<Vec2>& polygon) {
  // Relative to the first vertex, as polygon_area.
  const Vec2& o = polygon.front();
  double twice = 0.0;
  Vec2 moment = Vec2::Zero();
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
    const Vec2 u = polygon[i] - o, v = polygon[i + 1] - o;
    const double t = u.x() * v.y() - u.y() * v.x();
    twice += t;
    moment += t * (u + v) / 3.0;
  }
  return o + moment / twice;
}

}  // namespace pegsim
