// Volumes, centroids and inertia tensors against closed forms.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

constexpr double kTol = 1e-12;

TEST(MassProperties, BoxMatchesClosedForm) {
  const double a = 1, b = 2, c = 3;
  const MassProperties m = polytope_mass_properties(make_box(a, b, c));
  const double V = a * b * c;
  EXPECT_NEAR(m.volume, V, kTol);
  EXPECT_NEAR(m.centroid.norm(), 0.0, kTol);
  const Mat3 expected = (V / 12.0 * Vec3(b * b + c * c, a * a + c * c, a * a + b * b)).asDiagonal();
  EXPECT_TRUE(m.inertia.isApprox(expected, kTol)) << m.inertia;
}

TEST(MassProperties, OffsetBoxHasShiftedCentroidAndSameCentralInertia) {
  Polytope p = make_cube(1.0);
  translate(p, Vec3(-3, 4, -5));  // vertices move by +(3, -4, 5)
  const MassProperties m = polytope_mass_properties(p);
  EXPECT_TRUE(m.centroid.isApprox(Vec3(3, -4, 5), kTol));
  EXPECT_TRUE(m.inertia.isApprox(Mat3::Identity() / 6.0, 1e-10)) << m.inertia;
}

// Regular n-gon prism of circumradius R, height h: area (n/2) R^2 sin(2 pi/n); polar moment
// per unit area (R^2/6)(1 + 2 cos^2(pi/n)); in-plane moments are isotropic.
TEST(MassProperties, CylinderPrismMatchesClosedForm) {
  const double R = 0.4, h = 1.3;
  for (int n : {3, 5, 12}) {
    const MassProperties m = polytope_mass_properties(make_cylinder(n, R, h));
    const double V = 0.5 * n * R * R * std::sin(2 * std::numbers::pi / n) * h;
    const double j = R * R / 6.0 * (1 + 2 * std::pow(std::cos(std::numbers::pi / n), 2));
    EXPECT_NEAR(m.volume, V, kTol);
    EXPECT_NEAR(m.inertia(2, 2), V * j, kTol);
    EXPECT_NEAR(m.inertia(0, 0), V * (j / 2 + h * h / 12), kTol);
    EXPECT_NEAR(m.inertia(1, 1), V * (j / 2 + h * h / 12), kTol);
    EXPECT_NEAR(m.inertia(0, 1), 0.0, kTol);
  }
}

// Platonic solids of circumradius r (edge a): volumes, isotropic inertia, and the classical
// I = m a^2/20 (tetrahedron), m a^2/10 (octahedron), m a^2/6 (cube).
TEST(MassProperties, PlatonicSolids) {
  const double r = 0.8, s5 = std::sqrt(5.0);
  const double a_tet = r * std::sqrt(8.0 / 3.0), a_oct = r * std::sqrt(2.0),
               a_hex = 2 * r / std::sqrt(3.0), a_ico = 4 * r / std::sqrt(10 + 2 * s5),
               a_dod = 4 * r / (std::sqrt(3.0) * (1 + s5));
  const struct {
    Polytope p;
    double volume, inertia_per_mass;
  } solids[] = {
      {make_tetrahedron(r), a_tet * a_tet * a_tet / (6 * std::sqrt(2.0)), a_tet * a_tet / 20},
      {make_octahedron(r), std::sqrt(2.0) / 3 * a_oct * a_oct * a_oct, a_oct * a_oct / 10},
      {make_hexahedron(r), a_hex * a_hex * a_hex, a_hex * a_hex / 6},
      {make_icosahedron(r), 5 * (3 + s5) / 12 * a_ico * a_ico * a_ico, -1},
      {make_dodecahedron(r), (15 + 7 * s5) / 4 * a_dod * a_dod * a_dod, -1}};
  for (const auto& s : solids) {
    const MassProperties m = polytope_mass_properties(s.p);
    EXPECT_NEAR(m.volume, s.volume, kTol);
    EXPECT_NEAR(m.centroid.norm(), 0.0, kTol);
    const double I = m.inertia(0, 0);
    EXPECT_TRUE(m.inertia.isApprox(I * Mat3::Identity(), 1e-12)) << m.inertia;
    if (s.inertia_per_mass > 0) {
      EXPECT_NEAR(I / m.volume, s.inertia_per_mass, kTol);
    }
  }
}

TEST(MassProperties, Sphere) {
  const MassProperties m = sphere_mass_properties(0.5);
  EXPECT_NEAR(m.volume, 4.0 / 3.0 * std::numbers::pi / 8, kTol);
  EXPECT_NEAR(m.inertia(1, 1), 0.4 * m.volume * 0.25, kTol);
}

}  // namespace
}  // namespace pegsim
