// Exact overlap areas of planar bodies (the area-of-overlap error of thesis §5.2.3, Fig. 5.10b,
// and §5.3, Fig. 5.25), against areas worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "../dynamics/test_world.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "engine/metrics/overlap.hpp"

namespace pegsim {
namespace {

int add_planar(test::World& w, Shape shape, const Vec2& at, double angle = 0.0,
               bool is_static = false) {
  Body b;
  b.name = "planar";
  b.shape = std::move(shape);
  b.mass = 1.0;
  b.inertia = Mat3::Identity();
  b.is_static = is_static;
  return w.add(b, Vec3(at.x(), at.y(), 0), Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())));
}
Shape square(double side) {
  return Shape::convex_polygon(std::make_shared<const Polygon>(make_rectangle(side, side)));
}

TEST(PlanarOverlap, PolygonPairsAndTheGroundByHand) {
  test::World w;
  add_planar(w, Shape::half_plane(), Vec2(0, 0), 0.0, true);  // y <= 0
  // A unit square 0.1 m into the ground: 0.1 m^2.
  const int a = add_planar(w, square(1), Vec2(0, 0.4));
  // A unit square overlapping it by 0.3 x 0.2 (and clear of the ground).
  const int b = add_planar(w, square(1), Vec2(0.7, 1.2));
  double area = 0.0;
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, 0, a, area));
  EXPECT_NEAR(area, 0.1, 1e-15);
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, a, b, area));
  EXPECT_NEAR(area, 0.3 * 0.2, 1e-15);
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, b, 0, area));
  EXPECT_EQ(area, 0.0);
  // A unit square turned 45 degrees with its lowest corner 0.1 m deep: a triangle of
  // half-width 0.1 and height 0.1, 0.01 m^2.
  const int diamond = add_planar(w, square(1), Vec2(5, std::sqrt(0.5) - 0.1), M_PI / 4);
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, diamond, 0, area));
  EXPECT_NEAR(area, 0.01, 1e-14);
  const OverlapTotals t = total_overlap(w.model, w.state);
  EXPECT_NEAR(t.volume, 0.1 + 0.06 + 0.01, 1e-14);
  EXPECT_EQ(t.overlapping_pairs, 3);
  EXPECT_EQ(t.unmeasured_pairs, 0);
}

TEST(PlanarOverlap, CirclesByHandAndCirclePolygonNotMeasured) {
  test::World w;
  add_planar(w, Shape::half_plane(), Vec2(0, 0), 0.0, true);
  // Radius 1, centre at height 0: half the disc, pi / 2.
  const int c = add_planar(w, Shape::circle(1.0), Vec2(0, 0));
  double area = 0.0;
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, c, 0, area));
  EXPECT_NEAR(area, M_PI / 2, 1e-14);
  // Two unit discs 1 m apart: the lens 2 acos(1/2) - sqrt(3)/2 = 2 pi / 3 - sqrt(3) / 2.
  const int d = add_planar(w, Shape::circle(1.0), Vec2(1, 5));
  const int e = add_planar(w, Shape::circle(1.0), Vec2(2, 5));
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, d, e, area));
  EXPECT_NEAR(area, 2 * M_PI / 3 - std::sqrt(3.0) / 2, 1e-14);
  // A small disc inside a large one: the small disc's area.
  const int f = add_planar(w, Shape::circle(0.2), Vec2(1.1, 5.1));
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, d, f, area));
  EXPECT_NEAR(area, M_PI * 0.04, 1e-14);
  // A disc 0.1 over a square's side: the segment r^2 acos(1 - h/r) - (r - h) sqrt(2 r h - h^2).
  const int s = add_planar(w, square(1), Vec2(10, 5));
  const int g = add_planar(w, Shape::circle(0.3), Vec2(10.7, 5));
  ASSERT_TRUE(pair_overlap_volume(w.model, w.state, s, g, area));
  EXPECT_NEAR(area, 0.09 * std::acos(2.0 / 3.0) - 0.2 * std::sqrt(0.05), 1e-14);
  w.state.bodies[g].position.x() = 10.9;  // clear of it
  EXPECT_TRUE(pair_overlap_volume(w.model, w.state, s, g, area));
  EXPECT_EQ(area, 0.0);
}

}  // namespace
}  // namespace pegsim
