// Smooth convex bodies as one C^2 convex inequality f(x) <= 0 in the body's frame (seed 001,
// §3-4: f < 0 inside, f = 0 on the surface, f > 0 outside): sphere, ellipsoid, superquadric
// (Barr's superellipsoid) and half-space. In planar mode the same functions are read in the
// x-y plane (a sphere is a disc, a superquadric a superellipse, a half-space a half-plane).
// Each is scaled so that |grad f| = 1 on the surface of a sphere or a half-space (and about 1 on
// the others): near the surface f is then close to a signed distance, which keeps the multipliers
// of the closest-point conditions, seed (15)-(18), of order one.
// Templated on the scalar so that the step's Jacobian comes from automatic differentiation.
#pragma once

#include <cmath>

#include "engine/core/math.hpp"

namespace pegsim {

struct ImplicitFunction {
  enum class Kind { Sphere, Ellipsoid, Superquadric, HalfSpace };
  Kind kind = Kind::Sphere;
  Vec3 center = Vec3::Zero();   // body frame; on a half-space, a point of its plane
  Vec3 radii = Vec3::Ones();    // sphere: radii.x(); ellipsoid, superquadric: semi-axes
  double exponent = 2.0;        // superquadric: p >= 2 (2: the ellipsoid; large: a box)
  Vec3 normal = Vec3::UnitZ();  // half-space: unit outward normal; inside n.(x - c) <= 0
  // Ellipsoid, superquadric: the directions of its semi-axes in the body frame (the columns; a
  // rotation), for a turned part of a compound; `turned` false: the body's own axes.
  Mat3 axes = Mat3::Identity();
  bool turned = false;
};

// Why `f` is no C^2 convex function of this family (a radius <= 0, an exponent below 2, a
// normal not of unit length), or nullptr.
const char* implicit_function_defect(const ImplicitFunction& f);

// The constant v as a scalar of the kind of `like`: under automatic differentiation a value
// with an all-zero derivative vector of like's size (Eigen's AutoDiffScalar cannot combine an
// empty derivative vector with a full one inside an expression).
template <typename S>
S constant_like(double v, const S& like) {
  S out = like;
  out.value() = v;
  out.derivatives().setZero();
  return out;
}
inline double constant_like(double v, double) {
  return v;
}

// The vector v as scalars of the kind of `like` (see constant_like).
template <typename S>
Eigen::Matrix<S, 3, 1> constant_like(const Vec3& v, const S& like) {
  Eigen::Matrix<S, 3, 1> out;
  for (int i = 0; i < 3; ++i) out(i) = constant_like(v(i), like);
  return out;
}

// M v with M constant, written out (scalars of a kind only multiply doubles here).
template <typename S>
Eigen::Matrix<S, 3, 1> turn(const Mat3& M, const Eigen::Matrix<S, 3, 1>& v) {
  Eigen::Matrix<S, 3, 1> out;
  for (int i = 0; i < 3; ++i) out(i) = M(i, 0) * v(0) + M(i, 1) * v(1) + M(i, 2) * v(2);
  return out;
}

// f(x), x in the body frame.
template <typename S>
S implicit_value(const ImplicitFunction& f, const Eigen::Matrix<S, 3, 1>& x) {
  using std::abs;
  using std::pow;
  Eigen::Matrix<S, 3, 1> d = x - constant_like(f.center, x(0));
  if (f.turned) d = turn<S>(f.axes.transpose(), d);
  switch (f.kind) {
    case ImplicitFunction::Kind::Sphere: {
      const double r = f.radii.x();
      return (d.squaredNorm() - r * r) / (2.0 * r);
    }
    case ImplicitFunction::Kind::Ellipsoid: {
      S sum = constant_like(0.0, x(0));
      for (int i = 0; i < 3; ++i) sum += d(i) * d(i) / (f.radii(i) * f.radii(i));
      return 0.5 * f.radii.minCoeff() * (sum - 1.0);
    }
    case ImplicitFunction::Kind::Superquadric: {
      const double p = f.exponent;
      S sum = constant_like(0.0, x(0));
      for (int i = 0; i < 3; ++i) {
        const S u = d(i) / f.radii(i);
        // |u|^p, written so that its derivatives are defined at u = 0 (p >= 2).
        sum += u * u * pow(abs(u) + 1e-300, p - 2.0);
      }
      return f.radii.minCoeff() / p * (sum - 1.0);
    }
    case ImplicitFunction::Kind::HalfSpace:
      return d.dot(constant_like(f.normal, x(0)));
  }
  return constant_like(0.0, x(0));
}

// grad f(x), x in the body frame (the derivative of implicit_value).
template <typename S>
Eigen::Matrix<S, 3, 1> implicit_gradient(const ImplicitFunction& f,
                                         const Eigen::Matrix<S, 3, 1>& x) {
  using std::abs;
  using std::pow;
  Eigen::Matrix<S, 3, 1> d = x - constant_like(f.center, x(0));
  if (f.turned) d = turn<S>(f.axes.transpose(), d);
  Eigen::Matrix<S, 3, 1> g;
  // The gradient in the function's axes, turned back into the body frame.
  auto body_frame = [&](const Eigen::Matrix<S, 3, 1>& v) {
    return f.turned ? turn<S>(f.axes, v) : v;
  };
  switch (f.kind) {
    case ImplicitFunction::Kind::Sphere:
      return d / f.radii.x();
    case ImplicitFunction::Kind::Ellipsoid:
      for (int i = 0; i < 3; ++i) g(i) = f.radii.minCoeff() * d(i) / (f.radii(i) * f.radii(i));
      return body_frame(g);
    case ImplicitFunction::Kind::Superquadric: {
      const double p = f.exponent;
      for (int i = 0; i < 3; ++i) {
        const S u = d(i) / f.radii(i);
        g(i) = f.radii.minCoeff() / f.radii(i) * u * pow(abs(u) + 1e-300, p - 2.0);
      }
      return body_frame(g);
    }
    case ImplicitFunction::Kind::HalfSpace:
      return constant_like(f.normal, x(0));
  }
  return constant_like(Vec3(Vec3::Zero()), x(0));
}

// h(n) = max of n . x over the body {f <= 0} (body frame; n a unit vector): c . n plus r, the
// ellipsoid's |diag(a) n|, or the superquadric's (sum |a_i n_i|^q)^(1/q), q = p / (p - 1);
// a half-space's is c . n along its normal and +infinity along any other direction.
double implicit_support(const ImplicitFunction& f, const Vec3& n);

// The point where the ray from the function's centre in direction `dir` (body frame) leaves
// the body; for a half-space, `dir` is taken as a point and projected onto the plane. A start
// for the closest points of a new contact pair.
Vec3 implicit_surface_point(const ImplicitFunction& f, const Vec3& dir);

}  // namespace pegsim
