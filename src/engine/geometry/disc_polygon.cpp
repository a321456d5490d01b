#include "engine/geometry/disc_polygon.hpp"

#include <cmath>
#include <numbers>

namespace pegsim {
namespace {

double cross(const Vec2& a, const Vec2& b) {
  return a.x() * b.y() - a.y() * b.x();
}

// The triangle (0, a, b), signed by its turn: int x x^T = A/12 (a a^T + b b^T + (a+b)(a+b)^T).
void add_triangle(const Vec2& a, const Vec2& b, DiscRegion& r) {
  const double area = 0.5 * cross(a, b);
  const Vec2 sum = a + b;
  r.area += area;
  r.first += area / 3.0 * sum;
  r.second += area / 12.0 * (a * a.transpose() + b * b.transpose() + sum * sum.transpose());
}

// The sector of radius rho from angle t0 through `sweep` (counter-clockwise): in polar
// coordinates int x dA = rho^3 / 3 int (cos t, sin t) dt and int x x^T dA = rho^4 / 4 int
// (cos^2, sin cos; sin cos, sin^2) dt.
void add_sector(double rho, double t0, double sweep, DiscRegion& r) {
  const double t1 = t0 + sweep;
  const double s0 = std::sin(t0), c0 = std::cos(t0), s1 = std::sin(t1), c1 = std::cos(t1);
  const double r2 = rho * rho, r3 = r2 * rho, r4 = r2 * r2;
  r.area += 0.5 * r2 * sweep;
  r.first += r3 / 3.0 * Vec2(s1 - s0, c0 - c1);
  const double half_sin_2t = s1 * c1 - s0 * c0;  // (sin 2 t1 - sin 2 t0) / 2
  const double xx = r4 / 4.0 * (0.5 * sweep + 0.5 * half_sin_2t);
  const double yy = r4 / 4.0 * (0.5 * sweep - 0.5 * half_sin_2t);
  const double xy = r4 / 8.0 * (s1 * s1 - s0 * s0);
  r.second += (Mat2() << xx, xy, xy, yy).finished();
}

bool inside(const std::vector<Vec2>& polygon, const Vec2& x) {
  for (std::size_t i = 0; i < polygon.size(); ++i)
    if (cross(polygon[(i + 1) % polygon.size()] - polygon[i], x - polygon[i]) < 0.0) return false;
  return true;
}

}  // namespace

DiscRegion disc_polygon_region(const std::vector<Vec2>& polygon, double radius,
                               std::vector<EdgePiece>& pieces) {
  DiscRegion r;
  pieces.clear();
  const std::size_t n = polygon.size();
  if (n < 3 || !(radius > 0.0)) return r;
  const double r2 = radius * radius;
  // Each edge's part inside the disc, s in [s0, s1] along p + s (q - p).
  bool crosses = false;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& p = polygon[i];
    const Vec2 d = polygon[(i + 1) % n] - p;
    const double a = d.squaredNorm();
    if (!(a > 0.0)) continue;
    const double b = p.dot(d), c = p.squaredNorm() - r2;
    const double discriminant = b * b - a * c;
    if (!(discriminant > 0.0)) continue;
    const double root = std::sqrt(discriminant);
    // The two roots without cancellation: s0 s1 = c / a.
    const double far = b > 0.0 ? (-b - root) / a : (-b + root) / a;
    const double near = far != 0.0 ? c / (a * far) : 0.0;
    const double s0 = std::max(std::min(far, near), 0.0), s1 = std::min(std::max(far, near), 1.0);
    if (!(s1 > s0)) continue;
    pieces.push_back({int(i), s0 > 0.0 ? Vec2(p + s0 * d) : p,
                      s1 < 1.0 ? Vec2(p + s1 * d) : Vec2(polygon[(i + 1) % n])});
    crosses |= s0 > 0.0 || s1 < 1.0;
  }
  if (pieces.empty()) {  // the disc wholly inside the polygon, or apart from it
    if (inside(polygon, Vec2::Zero())) add_sector(radius, 0.0, 2.0 * std::numbers::pi, r);
    return r;
  }
  for (const EdgePiece& e : pieces) add_triangle(e.from, e.to, r);
  if (!crosses) return r;  // the polygon wholly inside the disc
  // The arcs: from where a piece leaves the circle to where the next piece enters it,
  // counter-clockwise along the circle (inside the convex polygon).
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    const Vec2& leave = pieces[k].to;
    const Vec2& enter = pieces[(k + 1) % pieces.size()].from;
    const bool leaves =
        leave.squaredNorm() > 0.0 && std::abs(leave.norm() - radius) <= 1e-9 * radius;
    if (!leaves) continue;  // the piece ends at a vertex inside the disc: the next begins there
    const double t0 = std::atan2(leave.y(), leave.x());
    double sweep = std::atan2(enter.y(), enter.x()) - t0;
    if (sweep < 0.0) sweep += 2.0 * std::numbers::pi;
    // Rounding at a vertex on the circle can turn an empty arc into a full turn: an arc over
    // half the circle must have its middle inside the polygon.
    if (sweep > std::numbers::pi) {
      const double mid = t0 + 0.5 * sweep;
      if (!inside(polygon, radius * (1.0 - 1e-12) * Vec2(std::cos(mid), std::sin(mid))))
        sweep -= 2.0 * std::numbers::pi;
    }
    add_sector(radius, t0, sweep, r);
  }
  return r;
}

}  // namespace pegsim
