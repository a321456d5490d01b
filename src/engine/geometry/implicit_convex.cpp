#include "engine/geometry/implicit_convex.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

ImplicitConvex single_convex(const ImplicitFunction& f) {
  ImplicitConvex c;
  c.functions = {f};
  c.inside = f.center;
  switch (f.kind) {
    case ImplicitFunction::Kind::Sphere:
      c.radius = f.radii.x();
      break;
    case ImplicitFunction::Kind::Ellipsoid:
      c.radius = f.radii.maxCoeff();
      break;
    case ImplicitFunction::Kind::Superquadric:  // |x_i| <= a_i: the corners reach beyond max a_i
      c.radius = f.radii.norm();
      break;
    case ImplicitFunction::Kind::HalfSpace:
      c.inside = f.center - f.normal;
      break;
  }
  return c;
}

const char* implicit_convex_defect(const ImplicitConvex& c) {
  if (c.functions.empty()) return "the body has no function";
  for (const ImplicitFunction& f : c.functions)
    if (const char* defect = implicit_function_defect(f)) return defect;
  if (!c.inside.allFinite()) return "the inside point is not finite";
  if (!(convex_value(c, c.inside) < 0.0)) return "the inside point is not inside every function";
  if (!(c.radius > 0.0)) return "the bounding radius must be > 0";
  return nullptr;
}

double convex_value(const ImplicitConvex& c, const Vec3& x) {
  double v = -std::numeric_limits<double>::infinity();
  for (const ImplicitFunction& f : c.functions) v = std::max(v, implicit_value<double>(f, x));
  return v;
}

int active_function(const ImplicitConvex& c, const Vec3& x) {
  int best = 0;
  double v = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < c.functions.size(); ++i) {
    const double fi = implicit_value<double>(c.functions[i], x);
    if (fi > v) v = fi, best = int(i);
  }
  return best;
}

double convex_support(const ImplicitConvex& c, const Vec3& n) {
  double h = c.inside.dot(n) + c.radius;
  for (const ImplicitFunction& f : c.functions) h = std::min(h, implicit_support(f, n));
  return h;
}

Vec3 convex_surface_point(const ImplicitConvex& c, const Vec3& target) {
  const Vec3 d = target - c.inside;
  const double length = d.norm();
  if (!(length > 0.0)) return c.inside;
  // Bisection on s in [0, S] for max_i f_i(inside + s d) = 0 (negative at s = 0, convex in s).
  double lo = 0.0, hi = std::isfinite(c.radius) ? c.radius / length : 1.0;
  while (convex_value(c, c.inside + hi * d) < 0.0) {
    if (hi * length > 1e6) return c.inside + d;  // unbounded along d
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (convex_value(c, c.inside + mid * d) < 0.0 ? lo : hi) = mid;
  }
  return c.inside + hi * d;
}

}  // namespace pegsim
