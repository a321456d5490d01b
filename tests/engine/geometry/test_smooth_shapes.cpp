// Superquadrics and superellipses: mass properties against the ellipsoid's, the ellipse's and
// the box's closed forms and against their own fine tessellations; the support function and
// the sagitta against sampled surface points.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/geometry/smooth_shapes.hpp"

namespace pegsim {
namespace {

constexpr double kPi = std::numbers::pi;

// Points of the surface sum |x_i / a_i|^p = 1 along random directions (3D, or in the x-y
// plane).
std::vector<Vec3> surface_points(const SmoothShape& s, int count, bool planar) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> g;
  std::vector<Vec3> out;
  for (int k = 0; k < count; ++k) {
    Vec3 d(g(rng), g(rng), planar ? 0.0 : g(rng));
    double sum = 0.0;
    for (int i = 0; i < 3; ++i) sum += std::pow(std::abs(d(i) / s.semi_axes(i)), s.exponent);
    out.push_back(d / std::pow(sum, 1.0 / s.exponent));
  }
  return out;
}

TEST(SmoothShapes, AnEllipsoidsMassPropertiesAreTheClosedForm) {
  const Vec3 a(0.5, 1.0, 2.0);
  const MassProperties m = superquadric_mass_properties(a, 2.0);
  const double V = 4.0 / 3.0 * kPi * a.prod();
  EXPECT_NEAR(m.volume, V, 1e-12 * V);
  const Vec3 I = V / 5.0 * Vec3(1.0 + 4.0, 0.25 + 4.0, 0.25 + 1.0);
  EXPECT_TRUE(m.inertia.isApprox(Mat3(I.asDiagonal()), 1e-12)) << m.inertia;
  EXPECT_NEAR(m.centroid.norm(), 0.0, 0.0);
}

TEST(SmoothShapes, AnEllipsesMassPropertiesAreTheClosedForm) {
  const MassProperties m = superellipse_mass_properties(Vec2(2.0, 0.5), 2.0);
  const double A = kPi * 2.0 * 0.5;
  EXPECT_NEAR(m.volume, A, 1e-12 * A);
  // int x^2 = pi a^3 b / 4, int y^2 = pi a b^3 / 4.
  EXPECT_NEAR(m.inertia(0, 0), kPi * 2.0 * 0.125 / 4.0, 1e-12);
  EXPECT_NEAR(m.inertia(1, 1), kPi * 8.0 * 0.5 / 4.0, 1e-12);
  EXPECT_NEAR(m.inertia(2, 2), m.inertia(0, 0) + m.inertia(1, 1), 1e-12);
}

TEST(SmoothShapes, ALargeExponentApproachesTheBox) {
  const Vec3 a(1.0, 2.0, 3.0);
  const MassProperties m = superquadric_mass_properties(a, 400.0);
  const double V = 8.0 * a.prod();
  EXPECT_NEAR(m.volume, V, 0.01 * V);
  const Vec3 box = V / 3.0 * Vec3(4.0 + 9.0, 1.0 + 9.0, 1.0 + 4.0);  // (2a)^2 / 12 = a^2 / 3
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m.inertia(i, i), box(i), 0.02 * box(i)) << i;
}

TEST(SmoothShapes, AFineTessellationHasTheSurfacesMassProperties) {
  for (const double p : {2.0, 3.0, 8.0}) {
    const Vec3 a(0.4, 0.7, 1.1);
    const MassProperties exact = superquadric_mass_properties(a, p);
    const MassProperties tess = polytope_mass_properties(make_superquadric(a, p, 160));
    EXPECT_NEAR(tess.volume, exact.volume, 2e-3 * exact.volume) << p;
    EXPECT_NEAR(tess.centroid.norm(), 0.0, 1e-9) << p;
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(tess.inertia(i, i), exact.inertia(i, i), 4e-3 * exact.inertia(i, i)) << p;

    const MassProperties exact2 = superellipse_mass_properties(a.head<2>(), p);
    const MassProperties tess2 = polygon_mass_properties(make_superellipse(a.head<2>(), p, 2000));
    EXPECT_NEAR(tess2.volume, exact2.volume, 1e-4 * exact2.volume) << p;
    EXPECT_NEAR(tess2.inertia(2, 2), exact2.inertia(2, 2), 1e-4 * exact2.inertia(2, 2)) << p;
  }
}

TEST(SmoothShapes, TheSupportFunctionBoundsTheSurfaceAndIsReached) {
  const SmoothShape s{Vec3(0.5, 1.0, 2.0), 4.0, 0.0};
  const std::vector<Vec3> points = surface_points(s, 20000, false);
  for (const Vec3& n : {Vec3(1, 0, 0), Vec3(0.6, 0.8, 0), Vec3(1, 1, 1).normalized()}) {
    double reached = -1e300;
    for (const Vec3& x : points) reached = std::max(reached, n.dot(x));
    const double h = smooth_support(s, n);
    EXPECT_LE(reached, h + 1e-12);
    EXPECT_GT(reached, h - 1e-2) << n.transpose();
  }
  // The ellipsoid's: sqrt(sum a_i^2 n_i^2).
  const SmoothShape e{Vec3(0.5, 1.0, 2.0), 2.0, 0.0};
  const Vec3 n = Vec3(1, 2, 3).normalized();
  EXPECT_NEAR(smooth_support(e, n), e.semi_axes.cwiseProduct(n).norm(), 1e-14);
}

TEST(SmoothShapes, TheTessellationLiesInsideWithinItsSagitta) {
  for (const double p : {2.0, 6.0}) {
    const SmoothShape s{Vec3(0.5, 1.0, 2.0), p, 0.0};
    const Polytope coarse = make_superquadric(s.semi_axes, p, 16);
    const Polytope fine = make_superquadric(s.semi_axes, p, 64);
    const double sag = sagitta(s, coarse);
    EXPECT_GT(sag, 0.0);
    EXPECT_LT(sagitta(s, fine), 0.5 * sag) << "finer is closer";
    // Every vertex is on the surface; no surface point is further than the sagitta outside any
    // face, and some come close to it.
    for (const Vec3& v : coarse.vertices) {
      double sum = 0.0;
      for (int i = 0; i < 3; ++i) sum += std::pow(std::abs(v(i) / s.semi_axes(i)), p);
      EXPECT_NEAR(sum, 1.0, 1e-9);
    }
    double worst = 0.0;
    for (const Vec3& x : surface_points(s, 20000, false)) {
      double outside = -1e300;  // the distance outside the polytope's face planes
      for (const Polytope::Face& f : coarse.faces)
        outside = std::max(outside, f.normal.dot(x) - f.offset);
      worst = std::max(worst, outside);
    }
    EXPECT_LE(worst, sag + 1e-12) << p;
    EXPECT_GT(worst, 0.5 * sag) << p;

    const Polygon polygon = make_superellipse(s.semi_axes.head<2>(), p, 24);
    const double sag2 = sagitta(s, polygon);
    double worst2 = 0.0;
    for (const Vec3& x : surface_points(s, 20000, true)) {
      double outside = -1e300;
      for (int e = 0; e < polygon.size(); ++e)
        outside = std::max(outside, polygon.normals[std::size_t(e)].dot(
                                        x.head<2>() - polygon.vertices[std::size_t(e)]));
      worst2 = std::max(worst2, outside);
    }
    EXPECT_LE(worst2, sag2 + 1e-12) << p;
    EXPECT_GT(worst2, 0.5 * sag2) << p;
  }
}

TEST(SmoothShapes, BadParametersAreRefused) {
  EXPECT_THROW(make_superquadric(Vec3(1, 0, 1), 2.0, 16), GeometryError);
  EXPECT_THROW(make_superquadric(Vec3(1, 1, 1), 1.5, 16), GeometryError);
  EXPECT_THROW(make_superquadric(Vec3(1, 1, 1), 2.0, 4), GeometryError);
  EXPECT_THROW(make_superellipse(Vec2(1, 1), std::nan(""), 16), GeometryError);
}

}  // namespace
}  // namespace pegsim
