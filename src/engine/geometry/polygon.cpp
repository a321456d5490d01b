#include "engine/geometry/polygon.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace pegsim {
namespace {

double cross(const Vec2& a, const Vec2& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// Turns below this fraction of |e1| |e2| count as collinear.
constexpr double kCollinear = 1e-12;

void finish(Polygon& p) {
  const int n = p.size();
  p.normals.resize(n);
  p.bounding_radius = 0.0;
  for (int e = 0; e < n; ++e) {
    const Vec2 d = (p.vertices[p.next(e)] - p.vertices[e]).normalized();
    p.normals[e] = Vec2(d.y(), -d.x());  // [0 1; -1 0] d, thesis §3.5
    p.bounding_radius = std::max(p.bounding_radius, p.vertices[e].norm());
  }
}

}  // namespace

Polygon make_polygon(std::vector<Vec2> vertices) {
  const int n = static_cast<int>(vertices.size());
  if (n < 3) throw GeometryError("a polygon needs at least 3 vertices, got " + std::to_string(n));
  for (int i = 0; i < n; ++i)
    if (!vertices[i].allFinite())
      throw GeometryError("vertex " + std::to_string(i) + " is not finite");
  int left = 0, right = 0;
  double turning = 0.0;
  for (int i = 0; i < n; ++i) {
    const Vec2 e1 = vertices[i] - vertices[(i + n - 1) % n];
    const Vec2 e2 = vertices[(i + 1) % n] - vertices[i];
    if (e1.norm() == 0.0 || e2.norm() == 0.0)
      throw GeometryError("vertex " + std::to_string(i) + " repeats its neighbour");
    const double turn = cross(e1, e2);
    if (std::abs(turn) <= kCollinear * e1.norm() * e2.norm())
      throw GeometryError("vertex " + std::to_string(i) +
                          " is collinear with its neighbours: drop it");
    (turn > 0.0 ? left : right) += 1;
    turning += std::atan2(turn, e1.dot(e2));
  }
  if (right == n) throw GeometryError("the vertices run clockwise: list them counter-clockwise");
  if (right > 0 || std::abs(turning - 2.0 * M_PI) > 1e-6) {
    for (int i = 0; i < n; ++i) {
      const Vec2 e1 = vertices[i] - vertices[(i + n - 1) % n];
      const Vec2 e2 = vertices[(i + 1) % n] - vertices[i];
      if (cross(e1, e2) < 0.0)
        throw GeometryError("the polygon is not convex at vertex " + std::to_string(i));
    }
    throw GeometryError("the polygon winds around more than once (it crosses itself)");
  }
  Polygon p;
  p.vertices = std::move(vertices);
  finish(p);
  return p;
}

void translate(Polygon& p, const Vec2& offset) {
  for (Vec2& v : p.vertices) v -= offset;
  finish(p);
}

}  // namespace pegsim
