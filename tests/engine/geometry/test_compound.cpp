// Compound shapes (thesis §4.5, Fig. 4.11): the mass properties of the union of overlapping
// convex parts against analytic values, the checks on parts, and buried points.
#include <gtest/gtest.h>

#include <memory>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

// An axis-aligned box part spanning [lo, hi] in the compound frame.
CompoundPart box_part(const Vec3& lo, const Vec3& hi) {
  const Vec3 size = hi - lo;
  return {Shape::convex(std::make_shared<const Polytope>(make_box(size.x(), size.y(), size.z()))),
          0.5 * (lo + hi), Quat::Identity()};
}

// Analytic second moments: a solid box of volume V and edges (a, b, c) about its centre has
// inertia V/12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2) (unit density); moved to a point at
// offset d from its centre by the parallel-axis theorem, + V (|d|^2 I - d d^T).
Mat3 box_inertia(const Vec3& lo, const Vec3& hi, const Vec3& about) {
  const Vec3 e = hi - lo;
  const double v = e.prod();
  const Vec3 d = 0.5 * (lo + hi) - about;
  const Mat3 centre = Vec3(e.y() * e.y() + e.z() * e.z(), e.x() * e.x() + e.z() * e.z(),
                           e.x() * e.x() + e.y() * e.y())
                          .asDiagonal() *
                      (v / 12.0);
  return centre + v * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
}

// An L of two boxes: [0,2]x[0,1]x[0,1] and [0,1]x[0,2]x[0,1], overlapping in the unit cube.
// The union is the disjoint [0,2]x[0,1]x[0,1] + [0,1]x[1,2]x[0,1]: volume 3, centroid
// (5/6, 5/6, 1/2).
TEST(CompoundMass, OverlappingLShapeIsTheUnionNotTheSum) {
  const Compound c =
      make_compound({box_part({0, 0, 0}, {2, 1, 1}), box_part({0, 0, 0}, {1, 2, 1})}, false);
  const MassProperties m = compound_mass_properties(c);
  const Vec3 centroid(5.0 / 6.0, 5.0 / 6.0, 0.5);
  EXPECT_NEAR(m.volume, 3.0, 1e-12);  // the sum of the parts would be 4
  EXPECT_LT((m.centroid - centroid).norm(), 1e-12);
  const Mat3 expected =
      box_inertia({0, 0, 0}, {2, 1, 1}, centroid) + box_inertia({0, 1, 0}, {1, 2, 1}, centroid);
  EXPECT_LT((m.inertia - expected).norm(), 1e-12) << m.inertia << "\n\n" << expected;
}

// Re-centring puts the union's centroid at the body origin, keeping the parts' relative poses.
TEST(CompoundMass, RecentredOnTheUnionsCentroid) {
  const Compound c =
      make_compound({box_part({0, 0, 0}, {2, 1, 1}), box_part({0, 0, 0}, {1, 2, 1})});
  const MassProperties m = compound_mass_properties(c);
  EXPECT_LT(m.centroid.norm(), 1e-12);
  EXPECT_LT((c.parts[0].position - Vec3(1.0 - 5.0 / 6.0, 0.5 - 5.0 / 6.0, 0.0)).norm(), 1e-12);
  EXPECT_NEAR(c.bounding_radius, (Vec3(2, 0, 1) - Vec3(5.0 / 6.0, 5.0 / 6.0, 0.5)).norm(), 1e-12);
}

// A U container (open box) of five boxes overlapping at every seam: a floor [-1,1]^2 x [0,0.2]
// and walls 0.1 thick up to z = 1, each wall reaching 0.1 into the floor and the long walls
// overlapping the short ones at the corners. The union is the block [-1,1]^2 x [0,1] minus the
// cavity [-0.9,0.9]^2 x [0.2,1]: volume 4 - 2.592 = 1.408.
TEST(CompoundMass, UContainerOfFiveOverlappingBoxes) {
  const Compound c =
      make_compound({box_part({-1, -1, 0}, {1, 1, 0.2}), box_part({-1, -1, 0.1}, {-0.9, 1, 1}),
                     box_part({0.9, -1, 0.1}, {1, 1, 1}), box_part({-1, -1, 0.1}, {1, -0.9, 1}),
                     box_part({-1, 0.9, 0.1}, {1, 1, 1})},
                    false);
  const MassProperties m = compound_mass_properties(c);
  const double v_block = 4.0, v_cavity = 1.8 * 1.8 * 0.8;
  EXPECT_NEAR(m.volume, v_block - v_cavity, 1e-12);
  const double z = (v_block * 0.5 - v_cavity * 0.6) / (v_block - v_cavity);
  const Vec3 centroid(0, 0, z);
  EXPECT_LT((m.centroid - centroid).norm(), 1e-12) << m.centroid.transpose();
  const Mat3 expected = box_inertia({-1, -1, 0}, {1, 1, 1}, centroid) -
                        box_inertia({-0.9, -0.9, 0.2}, {0.9, 0.9, 1}, centroid);
  EXPECT_LT((m.inertia - expected).norm(), 1e-12) << m.inertia << "\n\n" << expected;
}

// A rotated part: a cube turned 45 degrees about z has the inertia of the cube (isotropic).
// Two such cubes side by side, touching along no volume, sum exactly; a sphere part that only
// touches adds its own volume and moments (V r^2 / 5 about its centre, shifted).
TEST(CompoundMass, RotatedPartsAndATouchingSphere) {
  const auto cube = Shape::convex(std::make_shared<const Polytope>(make_cube(1.0)));
  const Quat turn(Eigen::AngleAxisd(0.25 * M_PI, Vec3::UnitZ()));
  const Compound c = make_compound(
      {{cube, Vec3(0, 0, 0), turn}, {Shape::sphere(0.5), Vec3(0, 0, 1.0), Quat::Identity()}},
      false);
  const MassProperties m = compound_mass_properties(c);
  const double vs = 4.0 / 3.0 * M_PI * 0.125;
  EXPECT_NEAR(m.volume, 1.0 + vs, 1e-12);
  const Vec3 centroid(0, 0, vs / (1.0 + vs));
  EXPECT_LT((m.centroid - centroid).norm(), 1e-12);
  const Mat3 cube_i = box_inertia({-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, centroid);
  const Vec3 d = Vec3(0, 0, 1.0) - centroid;
  const Mat3 ball_i = 0.4 * vs * 0.25 * Mat3::Identity() +
                      vs * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  EXPECT_LT((m.inertia - (cube_i + ball_i)).norm(), 1e-12);
}

TEST(CompoundParts, RejectsOverlappingSpheresAndNonConvexParts) {
  const CompoundPart cube = box_part({0, 0, 0}, {1, 1, 1});
  EXPECT_THROW(make_compound({}), GeometryError);
  EXPECT_THROW(make_compound({cube, {Shape::sphere(0.5), Vec3(0.5, 0.5, 1.2), Quat::Identity()}}),
               GeometryError);  // the ball dips 0.3 into the cube
  EXPECT_THROW(make_compound({cube, {Shape::plane(), Vec3::Zero(), Quat::Identity()}}),
               GeometryError);
  // Off the cube's corner diagonally: 0.6 from (1, 1, 1) along (1, 1, 1) is clear of it.
  const Vec3 clear = Vec3(1, 1, 1) + 0.6 * Vec3(1, 1, 1).normalized();
  EXPECT_NO_THROW(make_compound({cube, {Shape::sphere(0.55), clear, Quat::Identity()}}));
}

// §4.5: points of one part inside another are interior to the union.
TEST(CompoundParts, BuriedPoints) {
  const Compound c =
      make_compound({box_part({0, 0, 0}, {2, 1, 1}), box_part({0, 0, 0}, {1, 2, 1})}, false);
  EXPECT_TRUE(buried_in_other_part(c, 0, Vec3(0.5, 0.9, 0.5), 0.01));   // inside part 1
  EXPECT_FALSE(buried_in_other_part(c, 1, Vec3(0.5, 1.5, 0.5), 0.01));  // only part 1 holds it
  EXPECT_TRUE(buried_in_other_part(c, 0, Vec3(0.5, 1.5, 0.5), 0.01));
  EXPECT_FALSE(buried_in_other_part(c, 0, Vec3(0.5, 0.9, 0.995), 0.01));  // within the depth
  EXPECT_FALSE(buried_in_other_part(c, 0, Vec3(1.5, 0.5, 0.5), 0.0));     // outside part 1
}

}  // namespace
}  // namespace pegsim
