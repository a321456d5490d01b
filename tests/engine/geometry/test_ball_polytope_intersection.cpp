// The common volume of a ball and a polytope (volumetric contact, seed 002): against the exact
// cap, the ball's octant, quarter and half at a box's corner, edge and face, counted random
// points, and the volume's gradient (exact from the faces) against differences of the volume
// (integrated by slices): two independent computations.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>

#include "counted_points.hpp"
#include "engine/geometry/builders.hpp"
#include "engine/geometry/intersection_properties.hpp"
#include "engine/geometry/random_points.hpp"
#include "posed.hpp"

namespace pegsim {
namespace {

constexpr double pi = std::numbers::pi;

void expect_same(const IntersectionProperties& got, const IntersectionProperties& want,
                 double relative) {
  EXPECT_NEAR(got.volume, want.volume, relative * want.volume);
  EXPECT_LE((got.centroid - want.centroid).norm(), relative * std::cbrt(want.volume))
      << got.centroid.transpose() << " vs " << want.centroid.transpose();
  EXPECT_LE((got.inertia - want.inertia).norm(), relative * want.inertia.norm())
      << got.inertia << "\nvs\n"
      << want.inertia;
}

TEST(BallPolytopeIntersection, ABallOnAFaceIsTheExactCap) {
  const Polytope box = make_box(4, 3, 2);
  const Quat turn(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
  const BodyState at = pose(Vec3(0.3, -0.1, 0.2), turn);
  const Vec3 up = turn * Vec3::UnitZ(), top = at.position + up;  // the top face's centre
  IntersectionWorkspace w;
  for (double depth : {1e-6, 1e-3, 0.05, 0.3}) {
    const double R = 0.4;
    const Vec3 centre = top + (R - depth) * up + 0.2 * (turn * Vec3::UnitX());
    const IntersectionProperties p = polytope_sphere_intersection_properties(box, at, centre, R, w);
    const IntersectionProperties cap = halfspace_sphere_intersection_properties(top, up, centre, R);
    // The depth, a difference of the centre's height and R, carries their rounding: relative
    // 1e-16 R / depth in every figure of a thin cap.
    const double tolerance = 1e-12 + 1e-15 * R / depth;
    expect_same(p, cap, tolerance);
    EXPECT_LE((p.normal - up).norm(), 1e-14);
    EXPECT_NEAR(p.area, cap.area, tolerance * cap.area);
    EXPECT_NEAR(p.spin_radius, cap.spin_radius, tolerance * cap.spin_radius);
    // The box's layer under the rim disc of radius a: tr P - P, P = pi a^4 / 4 across the
    // normal; the ball's surface none.
    const double a2 = depth * (2.0 * R - depth);
    const Mat3 across = Mat3::Identity() - up * up.transpose();
    EXPECT_LE((p.tilt_a - pi * a2 * a2 / 4.0 * across).norm(), tolerance * pi * a2 * a2);
    EXPECT_EQ(p.tilt_b.norm(), 0.0);
  }
}

// About a corner of a box the ball keeps an octant, about an edge a quarter, about a face a half.
// About the centre, int x_i^2 dV = V R^2 / 5 in every case, int x_i x_j dV (i != j) vanishes
// unless both axes are cut, then (R^5 / 5)(int sin^3 t dt)(int sin f cos f df) over the part:
// R^5 / 15 for the octant, 2 R^5 / 15 for the quarter; the centroid sits 3R/8 inside along each
// cut axis.
TEST(BallPolytopeIntersection, CornersEdgesAndFacesCutTheBallIntoItsOctantQuarterAndHalf) {
  const Polytope box = make_box(2, 2, 2);
  const Quat turn(Eigen::AngleAxisd(0.9, Vec3(2, 1, -1).normalized()));
  const BodyState at = pose(Vec3(0.1, 0.4, -0.3), turn);
  const Mat3 axes = turn.toRotationMatrix();
  const double R = 0.6;
  IntersectionWorkspace w;
  for (int cut = 1; cut <= 3; ++cut) {
    // The corner (+1, +1, +1) with only the first `cut` coordinates on the box's faces.
    Vec3 local = Vec3::Zero();
    for (int i = 0; i < cut; ++i) local(i) = 1.0;
    const Vec3 centre = at.position + axes * local;
    const IntersectionProperties p = polytope_sphere_intersection_properties(box, at, centre, R, w);
    const double V = 4.0 / 3.0 * pi * R * R * R / double(1 << cut);
    EXPECT_NEAR(p.volume, V, 1e-12 * V) << cut;
    Vec3 c = Vec3::Zero();
    for (int i = 0; i < cut; ++i) c -= 3.0 * R / 8.0 * axes.col(i);
    EXPECT_LE((p.centroid - centre - c).norm(), 1e-12 * R) << cut;
    Mat3 local_second = V * R * R / 5.0 * Mat3::Identity();
    const double mixed = std::pow(R, 5) / 15.0 * (cut == 3 ? 1.0 : 2.0);
    for (int i = 0; i < cut; ++i)
      for (int j = 0; j < cut; ++j)
        if (i != j) local_second(i, j) = mixed;
    const Mat3 second = axes * local_second * axes.transpose();
    const Mat3 spread = second - V * c * c.transpose();
    const Mat3 inertia = spread.trace() * Mat3::Identity() - spread;
    EXPECT_LE((p.inertia - inertia).norm(), 1e-12 * inertia.norm()) << cut;
    // The gradient: each cut face's part of the disc through the centre (the whole disc, a
    // half, a quarter) along its normal.
    Vec3 gradient = Vec3::Zero();
    for (int i = 0; i < cut; ++i) gradient += pi * R * R / double(1 << (cut - 1)) * axes.col(i);
    EXPECT_LE((p.area * p.normal - gradient).norm(), 1e-13) << cut;
  }
}

// A ball over a tetrahedron's corner region, in general position (three faces, two edges and a
// vertex inside the ball).
TEST(BallPolytopeIntersection, AGeneralCutAgreesWithCountedPointsAndWithItsGradient) {
  const Polytope solid = make_tetrahedron(1.0);
  const BodyState at =
      pose(Vec3(0.05, -0.1, 0.02), Quat(Eigen::AngleAxisd(0.6, Vec3(1, 3, -1).normalized())));
  const Vec3 vertex = at.position + at.orientation * solid.vertices[0];
  const Vec3 centre = vertex + Vec3(0.13, -0.21, 0.17);
  const double R = 0.45;
  IntersectionWorkspace w;
  const IntersectionProperties p = polytope_sphere_intersection_properties(solid, at, centre, R, w);
  ASSERT_FALSE(p.empty());
  const IntersectionProperties counted = count(
      [&](const Vec3& x) {
        const Vec3 local = at.orientation.conjugate() * (x - at.position);
        for (const Polytope::Face& f : solid.faces)
          if (f.normal.dot(local) > f.offset) return false;
        return (x - centre).norm() <= R;
      },
      centre, Vec3::Constant(R), 2'000'000);
  EXPECT_NEAR(p.volume, counted.volume, 0.01 * counted.volume);
  EXPECT_LE((p.centroid - counted.centroid).norm(), 0.01 * std::cbrt(counted.volume));
  EXPECT_LE((p.inertia - counted.inertia).norm(), 0.02 * counted.inertia.norm());
  const Vec3 m = Eigen::SelfAdjointEigenSolver<Mat3>(p.inertia).eigenvalues();
  EXPECT_GT(m.minCoeff(), 0.0);
  // Moving the ball by d changes V at -area normal . d: the slices' integral differenced against
  // the faces' exact areas.
  for (int i = 0; i < 3; ++i) {
    const double step = 1e-5;
    const Vec3 d = step * Vec3::Unit(i);
    const double rate =
        (polytope_sphere_intersection_properties(solid, at, centre + d, R, w).volume -
         polytope_sphere_intersection_properties(solid, at, centre - d, R, w).volume) /
        (2.0 * step);
    EXPECT_NEAR(rate, -p.area * p.normal(i), 1e-8 * p.area) << i;
  }
  EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat3>(p.tilt_a).eigenvalues().minCoeff(), -1e-15);
}

// Balls of several sizes all round a turned random polyhedron, touching faces, edges and
// vertices, some through and through: each volume within the ball's and the solid's, and its
// differences against the exact gradient (a wrong slice or arc anywhere would show in one).
TEST(BallPolytopeIntersection, EveryPoseRoundASolidDifferencesToItsGradient) {
  const Polytope solid = make_random_polyhedron(17, 12, 0.5);
  const BodyState at =
      pose(Vec3(0.2, 0.1, -0.1), Quat(Eigen::AngleAxisd(2.0, Vec3(1, 1, 1).normalized())));
  const std::vector<Vec3> offsets = random_points_3d(3, 300, 0.7);
  IntersectionWorkspace w;
  int cut = 0;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    const double R = 0.05 + 0.5 * double(k % 7) / 6.0;
    const Vec3 centre = at.position + offsets[k];
    const IntersectionProperties p =
        polytope_sphere_intersection_properties(solid, at, centre, R, w);
    if (p.empty() || !(p.area > 0.0)) continue;
    ++cut;
    EXPECT_LE(p.volume, 4.0 / 3.0 * pi * R * R * R * (1.0 + 1e-12)) << k;
    const Vec3 across = any_perpendicular(p.normal);
    const double step = 1e-6 * R;
    for (const Vec3& e : {p.normal, across}) {
      const double rate =
          (polytope_sphere_intersection_properties(solid, at, centre - step * e, R, w).volume -
           polytope_sphere_intersection_properties(solid, at, centre + step * e, R, w).volume) /
          (2.0 * step);
      EXPECT_NEAR(rate, p.area * p.normal.dot(e), 1e-6 * p.area) << k;
    }
  }
  EXPECT_GT(cut, 100);
}

TEST(BallPolytopeIntersection, InsideOutsideAndApart) {
  const Polytope box = make_cube(1.0);
  IntersectionWorkspace w;
  const BodyState at = pose(Vec3::Zero());
  // The ball inside the box: the whole ball, no face to leave by.
  const IntersectionProperties ball =
      polytope_sphere_intersection_properties(box, at, Vec3(0.1, 0, 0), 0.3, w);
  EXPECT_NEAR(ball.volume, 4.0 / 3.0 * pi * 0.027, 1e-15);
  EXPECT_EQ(ball.area, 0.0);
  // The box inside the ball: the whole box.
  const IntersectionProperties cube =
      polytope_sphere_intersection_properties(box, at, Vec3(0.1, 0, 0), 1.0, w);
  EXPECT_NEAR(cube.volume, 1.0, 1e-14);
  EXPECT_LE(cube.centroid.norm(), 1e-14);
  EXPECT_LE((cube.inertia - Mat3::Identity() / 6.0).norm(), 1e-14);
  // Beyond a face, and beyond the corner though within every face's plane's reach.
  EXPECT_TRUE(polytope_sphere_intersection_properties(box, at, Vec3(0, 0, 0.9), 0.3, w).empty());
  EXPECT_TRUE(
      polytope_sphere_intersection_properties(box, at, Vec3(0.7, 0.7, 0.7), 0.3, w).empty());
}

}  // namespace
}  // namespace pegsim
