// Planar compounds: union mass properties and areas by inclusion-exclusion over convex
// polygon intersections (the method of compound.cpp's 3D union, in the plane).
#include "engine/geometry/compound_2d.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

// Coordinates this much smaller than the parts' size (relative) are rounding noise.
constexpr double kRelativeTolerance = 1e-12;

// Integrals over a lamina of 1, (x, y) and x x^T (about the body origin), unit density.
struct Moments {
  double area = 0.0;
  Vec2 first = Vec2::Zero();
  Eigen::Matrix2d second = Eigen::Matrix2d::Zero();

  void add(const Moments& m, double sign) {
    area += sign * m.area;
    first += sign * m.first;
    second += sign * m.second;
  }
};

// Green's theorem over the triangles (r, v_i, v_i+1), r = vertex 0, then moved to the origin.
Moments outline_moments(const std::vector<Vec2>& p) {
  Moments m;
  if (p.size() < 3) return m;
  const Vec2 r = p.front();
  double sx = 0.0, sy = 0.0, xx = 0.0, yy = 0.0, xy = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 a = p[i] - r, b = p[(i + 1) % p.size()] - r;
    const double c = a.x() * b.y() - a.y() * b.x();
    m.area += c / 2.0;
    sx += c * (a.x() + b.x()) / 6.0;
    sy += c * (a.y() + b.y()) / 6.0;
    xx += c * (a.x() * a.x() + a.x() * b.x() + b.x() * b.x()) / 12.0;
    yy += c * (a.y() * a.y() + a.y() * b.y() + b.y() * b.y()) / 12.0;
    xy += c * (2.0 * a.x() * a.y() + a.x() * b.y() + b.x() * a.y() + 2.0 * b.x() * b.y()) / 24.0;
  }
  const Vec2 first(sx, sy);
  Eigen::Matrix2d second;
  second << xx, xy, xy, yy;
  m.first = first + m.area * r;
  m.second = second + first * r.transpose() + r * first.transpose() + m.area * r * r.transpose();
  return m;
}

double scale_of(const std::vector<std::vector<Vec2>>& polygons) {
  double r = 1.0;
  for (const auto& p : polygons)
    for (const Vec2& v : p) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// Inclusion-exclusion: adds sign * moments(current ∩ polygons[k]) for every k >= start and
// recurses with the opposite sign; an empty intersection ends its branch.
void add_intersections(const std::vector<std::vector<Vec2>>& polygons, std::size_t start,
                       const std::vector<Vec2>& current, double sign, double tolerance,
                       Moments& sum) {
  std::vector<Vec2> common, scratch;
  for (std::size_t k = start; k < polygons.size(); ++k) {
    polygon_intersection(current, polygons[k], common, scratch);
    const Moments m = outline_moments(common);
    if (!(m.area > tolerance * tolerance)) continue;
    sum.add(m, sign);
    add_intersections(polygons, k + 1, common, -sign, tolerance, sum);
  }
}

Moments union_moments(const std::vector<std::vector<Vec2>>& polygons) {
  const double tolerance = kRelativeTolerance * scale_of(polygons);
  Moments sum;
  for (std::size_t k = 0; k < polygons.size(); ++k) {
    sum.add(outline_moments(polygons[k]), 1.0);
    add_intersections(polygons, k + 1, polygons[k], -1.0, tolerance, sum);
  }
  return sum;
}

// Distance from c to a convex polygon given counter-clockwise (0 inside).
double distance_to_outline(const std::vector<Vec2>& p, const Vec2& c) {
  bool inside = true;
  double best = INFINITY;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 a = p[i], d = p[(i + 1) % p.size()] - a;
    if (d.x() * (c - a).y() - d.y() * (c - a).x() >= 0.0) continue;  // c left of the edge
    inside = false;
    const double t = std::clamp((c - a).dot(d) / d.squaredNorm(), 0.0, 1.0);
    best = std::min(best, (c - a - t * d).norm());
  }
  return inside ? 0.0 : best;
}

[[noreturn]] void fail(std::size_t part, const std::string& why) {
  throw GeometryError("part " + std::to_string(part) + ": " + why);
}

}  // namespace

void placed_outline(const Polygon& polygon, const Vec3& position, const Quat& orientation,
                    std::vector<Vec2>& out) {
  const Eigen::Matrix2d R = orientation.toRotationMatrix().topLeftCorner<2, 2>();
  out.clear();
  for (const Vec2& v : polygon.vertices) out.push_back(position.head<2>() + R * v);
}

void check_planar_parts(const std::vector<CompoundPart>& parts) {
  std::vector<Vec2> outline;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const CompoundPart& p = parts[i];
    const ShapeKind k = p.shape.kind;
    if (k == ShapeKind::Polygon ? !p.shape.polygon : k != ShapeKind::Circle)
      fail(i, "expected a polygon or a circle (a 2D compound's parts are planar)");
    if (k == ShapeKind::Circle && !(p.shape.radius > 0.0)) fail(i, "expected a positive radius");
    if (p.position.z() != 0.0) fail(i, "expected a position in the x-y plane (z = 0)");
    if (std::abs(p.orientation.x()) > 1e-12 || std::abs(p.orientation.y()) > 1e-12)
      fail(i, "expected a rotation about z only");
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].shape.kind != ShapeKind::Circle) continue;
    const double r = parts[i].shape.radius;
    const Vec2 c = parts[i].position.head<2>();
    for (std::size_t j = 0; j < parts.size(); ++j) {
      if (j == i) continue;
      const CompoundPart& o = parts[j];
      double gap = 0.0;
      if (o.shape.kind == ShapeKind::Circle) {
        gap = (o.position.head<2>() - c).norm() - o.shape.radius - r;
      } else {
        placed_outline(*o.shape.polygon, o.position, o.orientation, outline);
        gap = distance_to_outline(outline, c) - r;
      }
      if (gap < -kRelativeTolerance * std::max(1.0, c.norm() + r))
        fail(i, "a circle part overlaps part " + std::to_string(j) +
                    " (circles may only touch other parts)");
    }
  }
}

MassProperties planar_compound_mass_properties(const Compound& compound) {
  Moments sum;
  std::vector<std::vector<Vec2>> polygons;
  for (const CompoundPart& p : compound.parts) {
    if (p.shape.kind == ShapeKind::Circle) {
      // A disc of radius r about c: int x x^T = A (r^2 / 4 I + c c^T).
      const double r = p.shape.radius, area = M_PI * r * r;
      const Vec2 c = p.position.head<2>();
      const Eigen::Matrix2d second =
          area * (r * r / 4.0 * Eigen::Matrix2d::Identity() + c * c.transpose());
      sum.add({area, area * c, second}, 1.0);
    } else {
      polygons.emplace_back();
      placed_outline(*p.shape.polygon, p.position, p.orientation, polygons.back());
    }
  }
  sum.add(union_moments(polygons), 1.0);
  const Vec2 c = sum.first / sum.area;
  const Eigen::Matrix2d s = sum.second - sum.area * c * c.transpose();  // about the centroid
  MassProperties out;
  out.volume = sum.area;
  out.centroid = Vec3(c.x(), c.y(), 0.0);
  // As polygon_mass_properties: I_xx = int y^2, I_yy = int x^2, I_xy = -int x y.
  out.inertia << s(1, 1), -s(0, 1), 0.0, -s(0, 1), s(0, 0), 0.0, 0.0, 0.0, s.trace();
  return out;
}

double union_area(const std::vector<std::vector<Vec2>>& polygons) {
  return std::max(0.0, union_moments(polygons).area);
}

}  // namespace pegsim
