#include "engine/geometry/smooth_shapes.hpp"

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

// sign(t) |t|^e: Barr's signed power.
double signed_power(double t, double e) {
  return std::copysign(std::pow(std::abs(t), e), t);
}

void check(double min_axis, double exponent, int segments) {
  if (!(min_axis > 0.0)) throw GeometryError("a superquadric needs positive semi-axes");
  if (!(exponent >= 2.0) || !std::isfinite(exponent))
    throw GeometryError("a superquadric needs a finite exponent p >= 2 (C^2 and convex)");
  if (segments < 8) throw GeometryError("a superquadric needs at least 8 segments");
}

}  // namespace

Polytope make_superquadric(const Vec3& semi_axes, double exponent, int segments) {
  check(semi_axes.minCoeff(), exponent, segments);
  const double e = 2.0 / exponent;
  const int parallels = segments / 2;
  std::vector<Vec3> points{Vec3(0, 0, semi_axes.z()), Vec3(0, 0, -semi_axes.z())};
  for (int i = 1; i < parallels; ++i) {
    const double eta = std::numbers::pi * (double(i) / parallels - 0.5);
    const double ce = signed_power(std::cos(eta), e), se = signed_power(std::sin(eta), e);
    for (int j = 0; j < segments; ++j) {
      const double omega = 2.0 * std::numbers::pi * j / segments;
      points.emplace_back(semi_axes.x() * ce * signed_power(std::cos(omega), e),
                          semi_axes.y() * ce * signed_power(std::sin(omega), e),
                          semi_axes.z() * se);
    }
  }
  return make_convex_hull(points);
}

Polygon make_superellipse(const Vec2& semi_axes, double exponent, int segments) {
  check(semi_axes.minCoeff(), exponent, segments);
  const double e = 2.0 / exponent;
  std::vector<Vec2> points;
  for (int j = 0; j < segments; ++j) {
    const double omega = 2.0 * std::numbers::pi * j / segments;
    points.emplace_back(semi_axes.x() * signed_power(std::cos(omega), e),
                        semi_axes.y() * signed_power(std::sin(omega), e));
  }
  return make_convex_hull_2d(points);
}

Shape make_smooth_shape(const Vec3& semi_axes, double exponent, int segments, bool planar) {
  auto surface = std::make_shared<SmoothShape>(SmoothShape{semi_axes, exponent, 0.0});
  Shape out;
  if (planar) {
    surface->semi_axes.z() = semi_axes.head<2>().minCoeff();
    Polygon polygon = make_superellipse(semi_axes.head<2>(), exponent, segments);
    surface->sagitta = sagitta(*surface, polygon);
    out = Shape::convex_polygon(std::make_shared<const Polygon>(std::move(polygon)));
  } else {
    Polytope polytope = make_superquadric(semi_axes, exponent, segments);
    surface->sagitta = sagitta(*surface, polytope);
    out = Shape::convex(std::make_shared<const Polytope>(std::move(polytope)));
  }
  out.smooth = std::move(surface);
  return out;
}

MassProperties smooth_mass_properties(const Shape& shape) {
  const SmoothShape& s = *shape.smooth;
  return shape.planar() ? superellipse_mass_properties(s.semi_axes.head<2>(), s.exponent)
                        : superquadric_mass_properties(s.semi_axes, s.exponent);
}

ImplicitFunction smooth_function(const SmoothShape& s) {
  ImplicitFunction f;
  f.kind =
      s.exponent == 2.0 ? ImplicitFunction::Kind::Ellipsoid : ImplicitFunction::Kind::Superquadric;
  f.radii = s.semi_axes;
  f.exponent = s.exponent;
  return f;
}

double smooth_support(const SmoothShape& s, const Vec3& n) {
  return implicit_support(smooth_function(s), n);
}

double sagitta(const SmoothShape& s, const Polytope& tessellation) {
  double out = 0.0;
  for (const Polytope::Face& f : tessellation.faces)
    out = std::max(out, smooth_support(s, f.normal) - f.offset);
  return out;
}

double sagitta(const SmoothShape& s, const Polygon& tessellation) {
  double out = 0.0;
  for (int e = 0; e < tessellation.size(); ++e) {
    const Vec2& n = tessellation.normals[std::size_t(e)];
    out = std::max(out, smooth_support(s, Vec3(n.x(), n.y(), 0.0)) -
                            n.dot(tessellation.vertices[std::size_t(e)]));
  }
  return out;
}

MassProperties superquadric_mass_properties(const Vec3& semi_axes, double exponent) {
  const double p = exponent, a = semi_axes.x(), b = semi_axes.y(), c = semi_axes.z();
  MassProperties m;
  m.volume = 8.0 * a * b * c * std::pow(std::tgamma(1.0 + 1.0 / p), 3) / std::tgamma(1.0 + 3.0 / p);
  // int x^2 dV = 8 a^3 b c Gamma(3/p) Gamma(1/p)^2 / (p^3 Gamma(1 + 5/p)), likewise y, z.
  const double k = 8.0 * a * b * c * std::tgamma(3.0 / p) * std::pow(std::tgamma(1.0 / p), 2) /
                   (p * p * p * std::tgamma(1.0 + 5.0 / p));
  const Vec3 second = k * semi_axes.cwiseAbs2();
  m.inertia =
      Vec3(second.y() + second.z(), second.x() + second.z(), second.x() + second.y()).asDiagonal();
  return m;
}

MassProperties superellipse_mass_properties(const Vec2& semi_axes, double exponent) {
  const double p = exponent, a = semi_axes.x(), b = semi_axes.y();
  MassProperties m;
  m.volume = 4.0 * a * b * std::pow(std::tgamma(1.0 + 1.0 / p), 2) / std::tgamma(1.0 + 2.0 / p);
  // int x^2 dA = 4 a^3 b Gamma(3/p) Gamma(1/p) / (p^2 Gamma(1 + 4/p)), likewise y.
  const double k = 4.0 * a * b * std::tgamma(3.0 / p) * std::tgamma(1.0 / p) /
                   (p * p * std::tgamma(1.0 + 4.0 / p));
  const double xx = k * a * a, yy = k * b * b;
  m.inertia = Vec3(yy, xx, xx + yy).asDiagonal();  // laminae: I_xx = int y^2, I_yy = int x^2
  return m;
}

}  // namespace pegsim
