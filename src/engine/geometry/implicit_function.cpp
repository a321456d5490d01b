#include "engine/geometry/implicit_function.hpp"

#include <limits>

namespace pegsim {

const char* implicit_function_defect(const ImplicitFunction& f) {
  if (!f.center.allFinite()) return "the centre is not finite";
  switch (f.kind) {
    case ImplicitFunction::Kind::Sphere:
      if (!(f.radii.x() > 0.0) || !std::isfinite(f.radii.x())) return "the radius must be > 0";
      return nullptr;
    case ImplicitFunction::Kind::Ellipsoid:
    case ImplicitFunction::Kind::Superquadric:
      if (!(f.radii.minCoeff() > 0.0) || !f.radii.allFinite()) return "the semi-axes must be > 0";
      if (f.turned &&
          !(f.axes.allFinite() && (f.axes.transpose() * f.axes - Mat3::Identity()).norm() < 1e-9 &&
            f.axes.determinant() > 0.0))
        return "the axes must be a rotation";
      if (f.kind == ImplicitFunction::Kind::Superquadric &&
          !(f.exponent >= 2.0 && std::isfinite(f.exponent)))
        return "the exponent must be >= 2 (below 2 the function is not C^2 and convex)";
      return nullptr;
    case ImplicitFunction::Kind::HalfSpace:
      if (!f.normal.allFinite() || std::abs(f.normal.norm() - 1.0) > 1e-9)
        return "the normal must be a unit vector";
      return nullptr;
  }
  return "unknown kind";
}

double implicit_support(const ImplicitFunction& f, const Vec3& direction) {
  const double centre = f.center.dot(direction);
  const Vec3 n = f.turned ? Vec3(f.axes.transpose() * direction) : direction;
  switch (f.kind) {
    case ImplicitFunction::Kind::Sphere:
      return centre + f.radii.x();
    case ImplicitFunction::Kind::Ellipsoid:
      return centre + f.radii.cwiseProduct(n).norm();
    case ImplicitFunction::Kind::Superquadric: {
      const double q = f.exponent / (f.exponent - 1.0);
      double sum = 0.0;
      for (int i = 0; i < 3; ++i) sum += std::pow(std::abs(f.radii(i) * n(i)), q);
      return centre + std::pow(sum, 1.0 / q);
    }
    case ImplicitFunction::Kind::HalfSpace:
      return n.dot(f.normal) >= 1.0 - 1e-12 ? centre : std::numeric_limits<double>::infinity();
  }
  return std::numeric_limits<double>::infinity();
}

Vec3 implicit_surface_point(const ImplicitFunction& f, const Vec3& direction) {
  const Vec3 dir = f.turned ? Vec3(f.axes.transpose() * direction) : direction;
  auto body_frame = [&](const Vec3& v) { return f.turned ? Vec3(f.axes * v) : v; };
  switch (f.kind) {
    case ImplicitFunction::Kind::Sphere:
      return f.center + f.radii.x() * dir.normalized();
    case ImplicitFunction::Kind::Ellipsoid:
    case ImplicitFunction::Kind::Superquadric: {
      // c + s dir with sum |s dir_i / a_i|^p = 1.
      const double p = f.kind == ImplicitFunction::Kind::Ellipsoid ? 2.0 : f.exponent;
      double sum = 0.0;
      for (int i = 0; i < 3; ++i) sum += std::pow(std::abs(dir(i) / f.radii(i)), p);
      return sum > 0.0 ? Vec3(f.center + body_frame(dir) * std::pow(sum, -1.0 / p)) : f.center;
    }
    case ImplicitFunction::Kind::HalfSpace:
      return dir - (dir - f.center).dot(f.normal) * f.normal;
  }
  return f.center;
}

}  // namespace pegsim
