// The minimum translation of two overlapping convex shapes (the corrective method's contact
// normal and depth, thesis §5.2.3) and the centroids of overlap regions, against hand-worked
// answers and against the defining properties: moving B by depth along the normal leaves no
// overlap, and no direction needs less.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/minimum_translation.hpp"
#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/polytope_overlap.hpp"
#include "posed.hpp"

namespace pegsim {
namespace {

std::vector<Vec2> rectangle(double hx, double hy, double angle, const Vec2& centre) {
  std::vector<Vec2> out;
  const Eigen::Rotation2Dd r(angle);
  for (const Vec2& c : {Vec2(-hx, -hy), Vec2(hx, -hy), Vec2(hx, hy), Vec2(-hx, hy)})
    out.push_back(centre + r * c);
  return out;
}

std::vector<Vec2> moved(std::vector<Vec2> p, const Vec2& by) {
  for (Vec2& v : p) v += by;
  return p;
}

// Unit squares 0.2 apart in x and 0.9 in y overlap 0.8 x 0.1: the least penetration is 0.1
// along +y, through A's top edge (edge 2) and onto B's bottom edge (edge 0).
TEST(MinimumTranslation, OverlappingSquaresSeparateAlongTheLeastPenetratedAxis) {
  const auto a = rectangle(0.5, 0.5, 0.0, Vec2::Zero());
  const auto b = rectangle(0.5, 0.5, 0.0, Vec2(0.2, 0.9));
  MinimumTranslation t;
  ASSERT_TRUE(polygon_minimum_translation(a, b, t));
  EXPECT_NEAR(t.depth, 0.1, 1e-15);
  EXPECT_NEAR((t.normal - Vec3::UnitY()).norm(), 0.0, 1e-15);
  EXPECT_EQ(t.feature_a.kind, FeatureKind::Edge);
  EXPECT_EQ(t.feature_a.index, 2);
  // Both edges give 0.1; A's comes first.
  EXPECT_EQ(polygon_overlap_area(a, moved(b, 0.1 * Vec2::UnitY())), 0.0);
  // Swapped, the normal still points from the first onto the second.
  ASSERT_TRUE(polygon_minimum_translation(b, a, t));
  EXPECT_NEAR((t.normal + Vec3::UnitY()).norm(), 0.0, 1e-15);
}

// A square turned 45 degrees whose lower corner is 0.05 below the top edge of an upright one:
// the depth is 0.05 along +y (a vertex in an edge), not along one of the diamond's normals
// (0.05 cos 45 + ... is larger).
TEST(MinimumTranslation, CornerIntoAnEdgeIsPushedOutAlongTheEdgeNormal) {
  const auto a = rectangle(0.5, 0.5, 0.0, Vec2::Zero());
  const double reach = 0.5 * std::sqrt(2.0);
  const auto b = rectangle(0.5, 0.5, M_PI / 4, Vec2(0.1, 0.5 + reach - 0.05));
  MinimumTranslation t;
  ASSERT_TRUE(polygon_minimum_translation(a, b, t));
  EXPECT_NEAR(t.depth, 0.05, 1e-14);
  EXPECT_NEAR((t.normal - Vec3::UnitY()).norm(), 0.0, 1e-14);
  EXPECT_EQ(t.feature_b.kind, FeatureKind::Vertex);
  EXPECT_EQ(t.feature_b.index, 0);  // the diamond's lowest corner
}

TEST(MinimumTranslation, SeparatedOrTouchingPolygonsDoNotOverlap) {
  const auto a = rectangle(0.5, 0.5, 0.0, Vec2::Zero());
  MinimumTranslation t;
  EXPECT_FALSE(polygon_minimum_translation(a, rectangle(0.5, 0.5, 0.0, Vec2(1.0, 0.3)), t));
  EXPECT_FALSE(polygon_minimum_translation(a, rectangle(0.5, 0.5, 0.3, Vec2(2.0, 0.0)), t));
}

// Random pairs of convex quadrilaterals: B moved by depth along the normal no longer overlaps
// A (area 0 to rounding), 1 % less still does, and no direction of 3600 needs less.
TEST(MinimumTranslation, PolygonDepthIsTheLeastSeparatingTranslation) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-0.4, 0.4), angle(0.0, M_PI);
  int overlapping = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto a = rectangle(0.5, 0.3, angle(rng), Vec2::Zero());
    const auto b = rectangle(0.4, 0.2, angle(rng), Vec2(u(rng), u(rng)));
    MinimumTranslation t;
    if (!polygon_minimum_translation(a, b, t)) continue;
    ++overlapping;
    const Vec2 n = t.normal.head<2>();
    EXPECT_LT(polygon_overlap_area(a, moved(b, t.depth * n)), 1e-12);
    EXPECT_GT(polygon_overlap_area(a, moved(b, 0.99 * t.depth * n)), 0.0);
    for (int k = 0; k < 3600; ++k) {
      const double phi = 2 * M_PI * k / 3600;
      const Vec2 d(std::cos(phi), std::sin(phi));
      double max_a = -INFINITY, min_b = INFINITY;
      for (const Vec2& v : a) max_a = std::max(max_a, v.dot(d));
      for (const Vec2& v : b) min_b = std::min(min_b, v.dot(d));
      EXPECT_GE(max_a - min_b, t.depth - 1e-12) << "trial " << trial << " direction " << k;
    }
  }
  EXPECT_GT(overlapping, 20);
}

// Unit cubes, B 0.3, 0.2, 0.85 from A: least penetration 0.15 along +z, A's top face.
TEST(MinimumTranslation, OverlappingCubesSeparateAlongTheLeastPenetratedAxis) {
  const Polytope cube = make_box(1, 1, 1);
  MinimumTranslation t;
  ASSERT_TRUE(
      polytope_minimum_translation(cube, pose(Vec3::Zero()), cube, pose(Vec3(0.3, 0.2, 0.85)), t));
  EXPECT_NEAR(t.depth, 0.15, 1e-15);
  EXPECT_NEAR((t.normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_EQ(t.feature_a.kind, FeatureKind::Face);
  EXPECT_NEAR((cube.faces[t.feature_a.index].normal - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  EXPECT_FALSE(polytope_minimum_translation(cube, pose(Vec3::Zero()), cube,
                                            pose(Vec3(0.3, 0.2, 1.0)), t));  // touching
}

// Two bars crossed edge on edge: A along x turned 45 degrees about x, B along y turned 45
// degrees about y, B's lower edge 0.04 below A's upper edge. Every face normal is 45 degrees
// off the vertical, so only the edge-edge axis z gives the depth 0.04.
TEST(MinimumTranslation, CrossedEdgesSeparateAlongTheirCrossProduct) {
  const Polytope bar_x = make_box(2.0, 0.2, 0.2), bar_y = make_box(0.2, 2.0, 0.2);
  const double reach = 0.1 * std::sqrt(2.0);
  const Quat qa(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX()));
  const Quat qb(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY()));
  MinimumTranslation t;
  ASSERT_TRUE(polytope_minimum_translation(bar_x, pose(Vec3::Zero(), qa), bar_y,
                                           pose(Vec3(0, 0, 2 * reach - 0.04), qb), t));
  EXPECT_NEAR(t.depth, 0.04, 1e-14);
  EXPECT_NEAR(std::abs(t.normal.z()), 1.0, 1e-14);
  EXPECT_GT(t.normal.z(), 0.0);
  EXPECT_EQ(t.feature_a.kind, FeatureKind::Edge);
  EXPECT_EQ(t.feature_b.kind, FeatureKind::Edge);
  EXPECT_LT(polytope_overlap_volume(bar_x, pose(Vec3::Zero(), qa), bar_y,
                                    pose(Vec3(0, 0, 2 * reach), qb)),
            1e-15);
}

// Random cube pairs: B moved by depth along the normal overlaps A by nothing, 1 % less still
// overlaps, and no direction of a 100 x 200 sphere grid needs less.
TEST(MinimumTranslation, PolytopeDepthIsTheLeastSeparatingTranslation) {
  const Polytope a = make_box(1.0, 0.6, 0.8), b = make_box(0.5, 0.7, 0.4);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-0.6, 0.6);
  std::normal_distribution<double> g;
  int overlapping = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const Quat qa = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
    const Quat qb = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
    const Vec3 pb(u(rng), u(rng), u(rng));
    MinimumTranslation t;
    if (!polytope_minimum_translation(a, pose(Vec3::Zero(), qa), b, pose(pb, qb), t)) continue;
    ++overlapping;
    EXPECT_LT(
        polytope_overlap_volume(a, pose(Vec3::Zero(), qa), b, pose(pb + t.depth * t.normal, qb)),
        1e-12);
    EXPECT_GT(polytope_overlap_volume(a, pose(Vec3::Zero(), qa), b,
                                      pose(pb + 0.99 * t.depth * t.normal, qb)),
              0.0);
    for (int i = 0; i < 100; ++i)
      for (int j = 0; j < 200; ++j) {
        const double theta = M_PI * (i + 0.5) / 100, phi = 2 * M_PI * j / 200;
        const Vec3 d(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                     std::cos(theta));
        double max_a = -INFINITY, min_b = INFINITY;
        for (const Vec3& v : a.vertices) max_a = std::max(max_a, (qa * v).dot(d));
        for (const Vec3& v : b.vertices) min_b = std::min(min_b, (pb + qb * v).dot(d));
        EXPECT_GE(max_a - min_b, t.depth - 1e-12) << "trial " << trial;
      }
  }
  EXPECT_GT(overlapping, 10);
}

// Centroids of overlap regions: the overlap of two offset squares is a rectangle (its centre),
// the part of a unit cube below a slanted plane a triangular prism (its centroid a third of
// the way in).
TEST(MinimumTranslation, CentroidsOfOverlapRegions) {
  std::vector<Vec2> common, scratch;
  polygon_intersection(rectangle(0.5, 0.5, 0.0, Vec2::Zero()),
                       rectangle(0.5, 0.5, 0.0, Vec2(0.2, 0.9)), common, scratch);
  EXPECT_NEAR((polygon_centroid(common) - Vec2(0.1, 0.45)).norm(), 0.0, 1e-15);
  const std::vector<Vec2> triangle{Vec2(0, 0), Vec2(3, 0), Vec2(0, 3)};
  EXPECT_NEAR((polygon_centroid(triangle) - Vec2(1, 1)).norm(), 0.0, 1e-15);

  const Polytope cube = make_box(1, 1, 1);
  SolidWorkspace w;
  const ConvexSolid& common3 =
      polytope_intersection(cube, pose(Vec3::Zero()), cube, pose(Vec3(0.2, 0.4, 0.9)), w);
  EXPECT_NEAR((solid_centroid(common3) - Vec3(0.1, 0.2, 0.45)).norm(), 0.0, 1e-14);
  // Cube [-0.5, 0.5]^3 cut by x + z <= -0.5: the prism over the right triangle (-0.5, -0.5),
  // (0, -0.5), (-0.5, 0) in x-z, legs 0.5, centroid at x = z = -0.5 + 0.5 / 3, y = 0.
  ConvexSolid prism;
  const Vec3 n = Vec3(1, 0, 1).normalized();
  clip_solid(posed_solid(cube, pose(Vec3::Zero())), n, n.dot(Vec3(-0.5, 0, 0)), 1e-12, prism,
             w.cap);
  EXPECT_NEAR((solid_centroid(prism) - Vec3(-0.5 + 0.5 / 3, 0, -0.5 + 0.5 / 3)).norm(), 0.0, 1e-14);
}

}  // namespace
}  // namespace pegsim
