// Exact overlap area and volume (the overlap error metric of thesis §5.2.3-5.2.4 and §5.3),
// against closed-form answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/polytope_overlap.hpp"
#include "engine/geometry/sphere_overlap.hpp"
#include "posed.hpp"

namespace pegsim {
namespace {

std::vector<Vec2> square(double half, double angle, const Vec2& centre = Vec2::Zero()) {
  std::vector<Vec2> out;
  const Eigen::Rotation2Dd r(angle);
  for (const Vec2& c : {Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)})
    out.push_back(centre + r * (half * c));
  return out;
}

TEST(PolygonOverlap, OffsetSquaresOverlapInARectangle) {
  EXPECT_NEAR(polygon_overlap_area(square(0.5, 0), square(0.5, 0, Vec2(0.3, -0.2))), 0.7 * 0.8,
              1e-15);
}

// A unit square and the same square turned by 45 degrees about its centre meet in a regular
// octagon of inradius 1/2: area 8 r^2 tan(pi / 8) = 2 (sqrt 2 - 1).
TEST(PolygonOverlap, RotatedSquaresOverlapInARegularOctagon) {
  EXPECT_NEAR(polygon_overlap_area(square(0.5, 0), square(0.5, M_PI / 4)),
              2.0 * (std::sqrt(2.0) - 1.0), 1e-14);
  // Any turn theta: the square minus four corner triangles (legs from the intersections).
  const double t = 0.3;
  const double s = std::sin(t), c = std::cos(t);
  // Each corner cut is a right triangle with legs a, b along the side, its hypotenuse as long
  // as the octagon's other edges (the turn maps one square onto the other), so
  // a + b + sqrt(a^2 + b^2) = 1 with b / a = tan t: a = 1 / (1 + tan t + sec t).
  const double a = 1.0 / (1.0 + s / c + 1.0 / c), b = a * s / c;
  EXPECT_NEAR(polygon_overlap_area(square(0.5, 0), square(0.5, t)), 1.0 - 4 * 0.5 * a * b, 1e-14);
}

TEST(PolygonOverlap, DisjointTouchingAndIdentical) {
  EXPECT_EQ(polygon_overlap_area(square(0.5, 0), square(0.5, 0, Vec2(3, 0))), 0.0);
  EXPECT_NEAR(polygon_overlap_area(square(0.5, 0), square(0.5, 0, Vec2(1, 0))), 0.0, 1e-15);
  EXPECT_NEAR(polygon_overlap_area(square(0.5, 0.2), square(0.5, 0.2)), 1.0, 1e-14);
}

// Two unit cubes offset by (a, b, c) overlap in a box of volume (1 - a)(1 - b)(1 - c).
TEST(PolytopeOverlap, OffsetUnitCubes) {
  const Polytope cube = make_cube(1.0);
  for (const Vec3& off :
       {Vec3(0.1, 0.2, 0.3), Vec3(-0.5, 0.25, 0.0), Vec3(0.9, -0.9, 0.9), Vec3(0, 0, 0)}) {
    const Vec3 base(3.0, -2.0, 7.0);  // away from the origin
    const double expected =
        (1 - std::abs(off.x())) * (1 - std::abs(off.y())) * (1 - std::abs(off.z()));
    EXPECT_NEAR(polytope_overlap_volume(cube, pose(base), cube, pose(base + off)), expected, 1e-13)
        << off.transpose();
  }
}

TEST(PolytopeOverlap, DisjointTouchingAndIdenticalPolytopes) {
  const Polytope ico = make_icosahedron(0.7);
  const Quat q(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  EXPECT_EQ(polytope_overlap_volume(ico, pose(Vec3::Zero()), ico, pose(Vec3(2, 0, 0), q)), 0.0);
  // Identical: the body's own volume (icosahedron of circumradius R: edge a = R / sin(2 pi / 5),
  // V = 5 (3 + sqrt 5) a^3 / 12).
  const double a = 0.7 / std::sin(2 * M_PI / 5);
  EXPECT_NEAR(polytope_overlap_volume(ico, pose(Vec3(1, 1, 1), q), ico, pose(Vec3(1, 1, 1), q)),
              5.0 * (3.0 + std::sqrt(5.0)) * a * a * a / 12.0, 1e-13);
  // Face to face: two stacked unit cubes touch with no volume.
  const Polytope cube = make_cube(1.0);
  EXPECT_NEAR(polytope_overlap_volume(cube, pose(Vec3::Zero()), cube, pose(Vec3(0.3, 0.2, 1.0))),
              0.0, 1e-15);
}

// A unit cube and the same cube turned by 45 degrees about z: a regular octagonal prism,
// 2 (sqrt 2 - 1) x 1 (the 2D octagon above, extruded).
TEST(PolytopeOverlap, TurnedCubesOverlapInAnOctagonalPrism) {
  const Polytope cube = make_cube(1.0);
  const Quat q(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitZ()));
  EXPECT_NEAR(polytope_overlap_volume(cube, pose(Vec3::Zero()), cube, pose(Vec3::Zero(), q)),
              2.0 * (std::sqrt(2.0) - 1.0), 1e-14);
}

// The intersection does not depend on which polytope is clipped by the other, and lies within
// both: an icosahedron against a turned cube, in general position.
TEST(PolytopeOverlap, ClippingEitherWayGivesOneVolume) {
  const Polytope ico = make_icosahedron(0.7), cube = make_cube(1.0);
  const BodyState pi =
      pose(Vec3(0.4, 0.3, -0.2), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())));
  const BodyState pc =
      pose(Vec3::Zero(), Quat(Eigen::AngleAxisd(1.1, Vec3(-2, 1, 1).normalized())));
  const double v1 = polytope_overlap_volume(ico, pi, cube, pc);
  const double v2 = polytope_overlap_volume(cube, pc, ico, pi);
  EXPECT_GT(v1, 0.1);
  EXPECT_LT(v1, 1.0);
  EXPECT_NEAR(v1, v2, 1e-14);
}

// A tetrahedron clipped by a plane parallel to a face at a fraction t of the height from the
// opposite vertex keeps a similar tetrahedron of volume t^3 V.
TEST(PolytopeOverlap, TetrahedronClippedByAPlane) {
  const Polytope tet = make_tetrahedron(1.0);
  const Polytope::Face& f = tet.faces[0];
  int apex = 0;
  for (int v = 0; v < 4; ++v)
    if (std::find(f.vertices.begin(), f.vertices.end(), v) == f.vertices.end()) apex = v;
  const Vec3 n = f.normal;
  const double height = f.offset - n.dot(tet.vertices[apex]);
  const double full =
      polytope_halfspace_overlap_volume(tet, pose(Vec3::Zero()), Vec3(0, 0, 100), Vec3::UnitZ());
  EXPECT_NEAR(full, 8.0 / (9.0 * std::sqrt(3.0)), 1e-14);  // circumradius 1: V = 8 / (9 sqrt 3)
  for (double t : {0.25, 0.5, 0.9}) {
    // Keep the side of the apex: the half-space n . x <= n . apex + t h.
    const Vec3 point = tet.vertices[apex] + t * height * n;
    EXPECT_NEAR(polytope_halfspace_overlap_volume(tet, pose(Vec3::Zero()), point, n),
                t * t * t * full, 1e-14)
        << t;
  }
}

// Sphere cases: cap V = pi h^2 (3r - h) / 3; lens; containment.
TEST(SphereOverlap, CapAndLens) {
  EXPECT_NEAR(sphere_halfspace_overlap_volume(2.0, 0.0), 0.5 * 4.0 / 3.0 * M_PI * 8.0, 1e-13);
  EXPECT_NEAR(sphere_halfspace_overlap_volume(1.0, 0.5), M_PI * 0.25 * 2.5 / 3.0, 1e-15);
  EXPECT_EQ(sphere_halfspace_overlap_volume(1.0, 1.5), 0.0);
  EXPECT_NEAR(sphere_halfspace_overlap_volume(1.0, -3.0), 4.0 / 3.0 * M_PI, 1e-15);
  // Equal spheres d apart: two caps of depth h = r - d/2.
  const double r = 1.0, d = 1.2, h = r - d / 2;
  EXPECT_NEAR(sphere_sphere_overlap_volume(r, r, d), 2 * M_PI * h * h * (3 * r - h) / 3, 1e-14);
  // Unequal: caps of depths from the radical plane at x = (d^2 + r1^2 - r2^2) / (2d).
  const double r1 = 1.0, r2 = 0.6, dd = 1.1;
  const double x = (dd * dd + r1 * r1 - r2 * r2) / (2 * dd);
  const double h1 = r1 - x, h2 = r2 - (dd - x);
  EXPECT_NEAR(sphere_sphere_overlap_volume(r1, r2, dd),
              M_PI * h1 * h1 * (3 * r1 - h1) / 3 + M_PI * h2 * h2 * (3 * r2 - h2) / 3, 1e-14);
  EXPECT_NEAR(sphere_sphere_overlap_volume(1.0, 0.3, 0.5), 4.0 / 3.0 * M_PI * 0.027, 1e-15);
  EXPECT_EQ(sphere_sphere_overlap_volume(1.0, 0.3, 1.3), 0.0);
}

}  // namespace
}  // namespace pegsim
