// Every builder yields a closed, convex, outward-oriented polytope with the expected counts.
#include <gtest/gtest.h>

#include <numbers>
#include <random>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

struct Counts {
  std::size_t v, e, f;
};

// Independent of make_polytope's own checks: each face normal has unit length, points away
// from the centroid, and every vertex lies on or behind every face.
void expect_valid(const Polytope& p, Counts c) {
  EXPECT_EQ(p.vertices.size(), c.v);
  EXPECT_EQ(p.edges.size(), c.e);
  EXPECT_EQ(p.faces.size(), c.f);
  Vec3 centre = Vec3::Zero();
  for (const Vec3& v : p.vertices) centre += v;
  centre /= static_cast<double>(p.vertices.size());
  for (const auto& f : p.faces) {
    EXPECT_NEAR(f.normal.norm(), 1.0, 1e-14);
    EXPECT_GT(f.offset - f.normal.dot(centre), 0.0);
    for (const Vec3& v : p.vertices) EXPECT_LE(f.normal.dot(v) - f.offset, 1e-12);
  }
}

TEST(Builders, BoxAndCube) {
  const Polytope b = make_box(1, 2, 3);
  expect_valid(b, {8, 12, 6});
  for (const Vec3& v : b.vertices) EXPECT_TRUE(v.cwiseAbs().isApprox(Vec3(0.5, 1, 1.5)));
  expect_valid(make_cube(0.5), {8, 12, 6});
  EXPECT_THROW(make_box(1, 0, 1), GeometryError);
}

TEST(Builders, CylinderIsAnNGonPrism) {
  for (int n : {3, 7, 20}) {
    const Polytope c = make_cylinder(n, 0.5, 2.0);
    expect_valid(c, {std::size_t(2 * n), std::size_t(3 * n), std::size_t(n + 2)});
    for (const Vec3& v : c.vertices) {
      EXPECT_NEAR(std::hypot(v.x(), v.y()), 0.5, 1e-15);
      EXPECT_NEAR(std::abs(v.z()), 1.0, 1e-15);
    }
  }
  EXPECT_THROW(make_cylinder(2, 1, 1), GeometryError);
}

TEST(Builders, PlatonicSolidsHaveTheirCountsAndCircumradius) {
  const struct {
    Polytope p;
    Counts c;
  } solids[] = {{make_tetrahedron(0.7), {4, 6, 4}},
                {make_hexahedron(0.7), {8, 12, 6}},
                {make_octahedron(0.7), {6, 12, 8}},
                {make_dodecahedron(0.7), {20, 30, 12}},
                {make_icosahedron(0.7), {12, 30, 20}}};
  for (const auto& s : solids) {
    expect_valid(s.p, s.c);
    for (const Vec3& v : s.p.vertices) EXPECT_NEAR(v.norm(), 0.7, 1e-14);
    // Regular: all faces have the same number of vertices and the same distance to 0.
    for (const auto& f : s.p.faces) {
      EXPECT_EQ(f.vertices.size(), s.p.faces[0].vertices.size());
      EXPECT_NEAR(f.offset, s.p.faces[0].offset, 1e-14);
    }
  }
}

TEST(Builders, ConvexHullDropsInteriorPointsAndMergesCoplanarFacets) {
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i) pts.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.05, 0.95);
  for (int i = 0; i < 50; ++i) pts.emplace_back(u(rng), u(rng), u(rng));
  const Polytope hull = make_convex_hull(pts);
  expect_valid(hull, {8, 12, 6});
  for (const auto& f : hull.faces) EXPECT_EQ(f.vertices.size(), 4u);
}

TEST(Builders, ConvexHullRejectsDegenerateInput) {
  EXPECT_THROW(make_convex_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), GeometryError);
  EXPECT_THROW(make_convex_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 3, 0}}),
               GeometryError);
}

}  // namespace
}  // namespace pegsim
