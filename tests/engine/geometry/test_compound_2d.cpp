// Planar compounds (thesis §4.5 in 2D): the area, centroid and inertia of the union of
// overlapping polygons and circles against analytic values, the checks on planar parts, and
// buried points.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "engine/geometry/compound.hpp"
#include "engine/geometry/compound_2d.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

// An axis-aligned rectangle part spanning [lo, hi] in the compound frame, optionally given as
// the rectangle of swapped sides turned by pi/2 (the same region).
CompoundPart rect_part(const Vec2& lo, const Vec2& hi, bool turned = false) {
  const Vec2 size = hi - lo;
  const Vec2 c = 0.5 * (lo + hi);
  if (turned)
    return {
        Shape::convex_polygon(std::make_shared<const Polygon>(make_rectangle(size.y(), size.x()))),
        Vec3(c.x(), c.y(), 0.0), Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()))};
  return {
      Shape::convex_polygon(std::make_shared<const Polygon>(make_rectangle(size.x(), size.y()))),
      Vec3(c.x(), c.y(), 0.0), Quat::Identity()};
}

CompoundPart circle_part(const Vec2& c, double r) {
  return {Shape::circle(r), Vec3(c.x(), c.y(), 0.0), Quat::Identity()};
}

// Analytic planar moments of a rectangle [lo, hi] about the point `about` (unit density):
// I_xx = int y^2, I_yy = int x^2, I_xy = -int x y, I_zz = I_xx + I_yy, as
// polygon_mass_properties; about its centre a w x h rectangle has int x^2 = A w^2 / 12.
Mat3 rect_inertia(const Vec2& lo, const Vec2& hi, const Vec2& about) {
  const Vec2 e = hi - lo, d = 0.5 * (lo + hi) - about;
  const double a = e.prod();
  const double xx = a * (e.x() * e.x() / 12.0 + d.x() * d.x());
  const double yy = a * (e.y() * e.y() / 12.0 + d.y() * d.y());
  const double xy = a * d.x() * d.y();
  Mat3 m;
  m << yy, -xy, 0, -xy, xx, 0, 0, 0, xx + yy;
  return m;
}

// An L of two rectangles [0,2]x[0,1] and [0,1]x[0,2] overlapping in the unit square: the union
// is the disjoint [0,2]x[0,1] + [0,1]x[1,2], area 3 (the sum would be 4), centroid (5/6, 5/6).
// The second part is given turned by pi/2, so the part's rotation is exercised too.
TEST(PlanarCompoundMass, LOfTwoRectanglesIsTheUnion) {
  for (bool turned : {false, true}) {
    const Compound c =
        make_compound({rect_part({0, 0}, {2, 1}), rect_part({0, 0}, {1, 2}, turned)}, false);
    EXPECT_TRUE(c.planar);
    EXPECT_TRUE(Shape::compound_of(std::make_shared<const Compound>(c)).planar());
    const MassProperties m = compound_mass_properties(c);
    const Vec2 centroid(5.0 / 6.0, 5.0 / 6.0);
    EXPECT_NEAR(m.volume, 3.0, 1e-12);
    EXPECT_LT((m.centroid - Vec3(centroid.x(), centroid.y(), 0.0)).norm(), 1e-12);
    const Mat3 expected =
        rect_inertia({0, 0}, {2, 1}, centroid) + rect_inertia({0, 1}, {1, 2}, centroid);
    EXPECT_LT((m.inertia - expected).norm(), 1e-12) << m.inertia << "\n\n" << expected;
  }
}

// A U of three rectangles overlapping at both seams: a floor [-1,1]x[0,0.2] and walls 0.1
// thick up to y = 1 reaching 0.1 into the floor. The union is the block [-1,1]x[0,1] minus the
// cavity [-0.9,0.9]x[0.2,1]: area 2 - 1.44 = 0.56.
TEST(PlanarCompoundMass, UOfThreeRectangles) {
  const Compound c = make_compound({rect_part({-1, 0}, {1, 0.2}), rect_part({-1, 0.1}, {-0.9, 1}),
                                    rect_part({0.9, 0.1}, {1, 1})},
                                   false);
  const MassProperties m = compound_mass_properties(c);
  const double a_block = 2.0, a_cavity = 1.8 * 0.8;
  EXPECT_NEAR(m.volume, a_block - a_cavity, 1e-12);
  const Vec2 centroid(0.0, (a_block * 0.5 - a_cavity * 0.6) / (a_block - a_cavity));
  EXPECT_LT((m.centroid - Vec3(centroid.x(), centroid.y(), 0.0)).norm(), 1e-12);
  const Mat3 expected =
      rect_inertia({-1, 0}, {1, 1}, centroid) - rect_inertia({-0.9, 0.2}, {0.9, 1}, centroid);
  EXPECT_LT((m.inertia - expected).norm(), 1e-12) << m.inertia << "\n\n" << expected;
}

// Re-centring puts the union's centroid at the origin and keeps the parts' relative poses.
TEST(PlanarCompoundMass, RecentredOnTheUnionsCentroid) {
  const Compound c = make_compound({rect_part({0, 0}, {2, 1}), rect_part({0, 0}, {1, 2})});
  EXPECT_LT(compound_mass_properties(c).centroid.norm(), 1e-12);
  EXPECT_LT((c.parts[0].position - Vec3(1.0 - 5.0 / 6.0, 0.5 - 5.0 / 6.0, 0.0)).norm(), 1e-12);
  EXPECT_NEAR(c.bounding_radius, (Vec2(2, 0) - Vec2(5.0 / 6.0, 5.0 / 6.0)).norm(), 1e-12);
}

// Three squares with a common region (triple term of inclusion-exclusion):
// [0,2]^2, [1,3]x[0,2], [0,2]x[1,3]: 12 - (2 + 2 + 1) + 1 = 8.
TEST(PlanarCompoundMass, TripleOverlapCountsOnce) {
  std::vector<std::vector<Vec2>> squares(3);
  for (const auto& [k, lo] : {std::pair{0, Vec2(0, 0)}, {1, Vec2(1, 0)}, {2, Vec2(0, 1)}}) {
    const CompoundPart p = rect_part(lo, lo + Vec2(2, 2));
    placed_outline(*p.shape.polygon, p.position, p.orientation, squares[k]);
  }
  EXPECT_NEAR(union_area(squares), 8.0, 1e-12);
}

// A circle part touching a rectangle adds its own area pi r^2 and moments; overlapping, it is
// refused (no formula for a disc cut by a polygon), as are parts off the plane.
TEST(PlanarCompoundMass, CirclePartsTouchButDoNotOverlap) {
  const Compound c =
      make_compound({rect_part({0, 0}, {2, 1}), circle_part({2.5, 0.5}, 0.5)}, false);
  const MassProperties m = compound_mass_properties(c);
  const double disc = M_PI * 0.25;
  EXPECT_NEAR(m.volume, 2.0 + disc, 1e-12);
  EXPECT_NEAR(m.centroid.x(), (2.0 * 1.0 + disc * 2.5) / (2.0 + disc), 1e-12);
  EXPECT_NEAR(m.centroid.y(), 0.5, 1e-12);
  EXPECT_THROW(make_compound({rect_part({0, 0}, {2, 1}), circle_part({2.4, 0.5}, 0.5)}),
               GeometryError);
  CompoundPart lifted = rect_part({0, 0}, {1, 1});
  lifted.position.z() = 0.1;
  EXPECT_THROW(make_compound({rect_part({0, 0}, {2, 1}), lifted}), GeometryError);
  CompoundPart tilted = rect_part({0, 0}, {1, 1});
  tilted.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  EXPECT_THROW(make_compound({rect_part({0, 0}, {2, 1}), tilted}), GeometryError);
  // A planar part mixed with a 3D one.
  CompoundPart ball{Shape::sphere(0.1), Vec3(5, 0, 0), Quat::Identity()};
  EXPECT_THROW(make_compound({rect_part({0, 0}, {2, 1}), ball}), GeometryError);
}

// §4.5: the foot of the U's wall lies inside the floor part, so a point there is buried.
TEST(PlanarCompoundMass, BuriedPointsOfTheU) {
  const Compound c =
      make_compound({rect_part({-1, 0}, {1, 0.2}), rect_part({-1, 0.1}, {-0.9, 1})}, false);
  EXPECT_TRUE(buried_in_other_part(c, 1, Vec3(-0.95, 0.12, 0), 1e-3));  // wall foot in floor
  EXPECT_FALSE(buried_in_other_part(c, 1, Vec3(-0.95, 0.5, 0), 1e-3));  // wall above floor
  EXPECT_FALSE(buried_in_other_part(c, 0, Vec3(-0.9, 0.2, 0), 1e-3));   // the concave corner
  EXPECT_TRUE(inside_part(c.parts[0], Vec3(0, 0.1, 0), 0.05));
  EXPECT_FALSE(inside_part(c.parts[0], Vec3(0, 0.19, 0), 0.05));
}

}  // namespace
}  // namespace pegsim
