// Planar shapes: polygon validation and topology (thesis §3.5: CCW vertices, outward normals
// by a -pi/2 turn of the edge), the 2D builders and the lamina mass properties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "engine/geometry/random_points.hpp"

namespace pegsim {
namespace {

std::string error_of(std::vector<Vec2> v) {
  try {
    make_polygon(std::move(v));
  } catch (const GeometryError& e) {
    return e.what();
  }
  return "";
}

TEST(Polygon, SquareHasOutwardNormalsAndTopology) {
  const Polygon p = make_rectangle(2.0, 1.0);
  ASSERT_EQ(p.size(), 4);
  // Edge 0 runs along the bottom (-1,-0.5) -> (1,-0.5): its normal is -y.
  EXPECT_TRUE(p.normals[0].isApprox(Vec2(0, -1)));
  EXPECT_TRUE(p.normals[1].isApprox(Vec2(1, 0)));
  EXPECT_TRUE(p.normals[2].isApprox(Vec2(0, 1)));
  EXPECT_TRUE(p.normals[3].isApprox(Vec2(-1, 0)));
  // Alg. 10's e_a1 = (v_{a-1}, v_a), e_a2 = (v_a, v_{a+1}).
  EXPECT_EQ(p.vertex_edges(0), (std::array<int, 2>{3, 0}));
  EXPECT_EQ(p.edge_vertices(3), (std::array<int, 2>{3, 0}));
  EXPECT_EQ(p.vertex_edges(2), (std::array<int, 2>{1, 2}));
  EXPECT_DOUBLE_EQ(p.bounding_radius, std::sqrt(1.25));
}

TEST(Polygon, RejectsBadVertexLists) {
  EXPECT_NE(error_of({Vec2(0, 0), Vec2(1, 0)}).find("at least 3 vertices"), std::string::npos);
  EXPECT_NE(error_of({Vec2(0, 0), Vec2(0, 1), Vec2(1, 0)}).find("clockwise"), std::string::npos);
  EXPECT_NE(
      error_of({Vec2(0, 0), Vec2(2, 0), Vec2(1, 0.2), Vec2(1, 2)}).find("not convex at vertex 2"),
      std::string::npos);
  EXPECT_NE(error_of({Vec2(0, 0), Vec2(1, 0), Vec2(2, 0), Vec2(1, 1)}).find("collinear"),
            std::string::npos);
  EXPECT_NE(error_of({Vec2(0, 0), Vec2(1, 0), Vec2(1, 0), Vec2(0, 1)}).find("repeats"),
            std::string::npos);
  // A pentagram turns left at every vertex but winds twice.
  std::vector<Vec2> star;
  for (int k = 0; k < 5; ++k)
    star.emplace_back(std::cos(4 * M_PI * k / 5), std::sin(4 * M_PI * k / 5));
  EXPECT_NE(error_of(star).find("crosses itself"), std::string::npos);
}

TEST(PolygonBuilders, RegularPolygonsAndTriangles) {
  const Polygon hex = make_regular_polygon(6, 2.0);
  for (const Vec2& v : hex.vertices) EXPECT_NEAR(v.norm(), 2.0, 1e-15);
  EXPECT_NEAR(hex.vertices[0].y(), hex.vertices[1].y(), 1e-15);  // flat bottom edge
  const Polygon tri = make_triangle(2.45);
  for (int e = 0; e < 3; ++e)
    EXPECT_NEAR((tri.vertices[tri.next(e)] - tri.vertices[e]).norm(), 2.45, 1e-14);
  EXPECT_THROW(make_regular_polygon(2, 1.0), GeometryError);
  EXPECT_THROW(make_rectangle(1.0, 0.0), GeometryError);
}

TEST(PolygonBuilders, HullDropsInteriorAndCollinearPoints) {
  const Polygon h = make_convex_hull_2d({Vec2(0, 0), Vec2(1, 0), Vec2(2, 0), Vec2(2, 2), Vec2(1, 1),
                                         Vec2(0, 2), Vec2(0.5, 0.5), Vec2(2, 2)});
  ASSERT_EQ(h.size(), 4);
  EXPECT_TRUE(h.vertices[0].isApprox(Vec2(0, 0)));
  EXPECT_TRUE(h.vertices[1].isApprox(Vec2(2, 0)));
  EXPECT_TRUE(h.vertices[2].isApprox(Vec2(2, 2)));
  EXPECT_TRUE(h.vertices[3].isApprox(Vec2(0, 2)));
  EXPECT_THROW(make_convex_hull_2d({Vec2(0, 0), Vec2(1, 1), Vec2(2, 2)}), GeometryError);
}

// §5.2.3: the hull of 10 random points in +-0.25, the same for the same seed.
TEST(PolygonBuilders, RandomPolygonIsDeterministicAndInsideItsBox) {
  const Polygon a = make_random_polygon(7), b = make_random_polygon(7), c = make_random_polygon(8);
  ASSERT_EQ(a.vertices, b.vertices);
  EXPECT_NE(a.vertices, c.vertices);
  EXPECT_GE(a.size(), 3);
  EXPECT_LE(a.size(), 10);
  for (const Vec2& v : a.vertices) EXPECT_LE(v.cwiseAbs().maxCoeff(), 0.25);
}

// random_polygon's points come from random_points_2d: the first point of seed 7 is the
// first two 53-bit draws of mt19937_64(7) mapped to [-0.25, 0.25], on every platform.
TEST(PolygonBuilders, RandomPointsAreTheGeneratorsDrawsMappedToTheBox) {
  std::mt19937_64 engine(7);
  const double u = static_cast<double>(engine() >> 11) * 0x1.0p-53;
  const double v = static_cast<double>(engine() >> 11) * 0x1.0p-53;
  const std::vector<Vec2> p = random_points_2d(7, 10, 0.25);
  ASSERT_EQ(p.size(), 10u);
  EXPECT_EQ(p[0], Vec2(0.25 * (2 * u - 1), 0.25 * (2 * v - 1)));
  const std::vector<Vec3> q = random_points_3d(7, 10, 0.25);
  EXPECT_EQ(q[0].head<2>(), p[0]);  // the same draws, three per point
  for (const Vec3& x : q) EXPECT_LE(x.cwiseAbs().maxCoeff(), 0.25);
}

// §5.2.4: the 3D form, a convex hull of 10 random points in +-0.25 m, deterministic.
TEST(PolygonBuilders, RandomPolyhedronIsDeterministicAndInsideItsBox) {
  const Polytope a = make_random_polyhedron(7), b = make_random_polyhedron(7);
  const Polytope c = make_random_polyhedron(8);
  ASSERT_EQ(a.vertices, b.vertices);
  EXPECT_NE(a.vertices, c.vertices);
  EXPECT_GE(a.vertices.size(), 4u);
  EXPECT_LE(a.vertices.size(), 10u);
  for (const Vec3& v : a.vertices) EXPECT_LE(v.cwiseAbs().maxCoeff(), 0.25);
  // Every hull vertex is one of the random points.
  const std::vector<Vec3> points = random_points_3d(7, 10, 0.25);
  for (const Vec3& v : a.vertices)
    EXPECT_NE(std::find(points.begin(), points.end(), v), points.end());
}

// Lamina of unit areal density: rectangle I_zz = A (a^2 + b^2) / 12, I_xx = A b^2 / 12.
TEST(PolygonMassProperties, RectangleOffCentre) {
  std::vector<Vec2> v{Vec2(1, 2), Vec2(4, 2), Vec2(4, 4), Vec2(1, 4)};  // 3 x 2, centroid (2.5, 3)
  const MassProperties m = polygon_mass_properties(make_polygon(v));
  EXPECT_NEAR(m.volume, 6.0, 1e-13);
  EXPECT_TRUE(m.centroid.isApprox(Vec3(2.5, 3.0, 0.0), 1e-14));
  EXPECT_NEAR(m.inertia(0, 0), 6.0 * 4.0 / 12.0, 1e-12);
  EXPECT_NEAR(m.inertia(1, 1), 6.0 * 9.0 / 12.0, 1e-12);
  EXPECT_NEAR(m.inertia(2, 2), 6.0 * 13.0 / 12.0, 1e-12);
  EXPECT_NEAR(m.inertia(0, 1), 0.0, 1e-12);
  EXPECT_EQ(m.inertia(0, 2), 0.0);
}

// Equilateral triangle of side a: A = sqrt(3) a^2 / 4, I_zz = A a^2 / 12. Right triangle with
// legs b (x) and h (y): about its centroid int xy = -b^2 h^2 / 72, so I_xy = +b^2 h^2 / 72.
// Disc: I_zz = A r^2 / 2.
TEST(PolygonMassProperties, TrianglesAndCircle) {
  const MassProperties eq = polygon_mass_properties(make_triangle(2.0));
  const double area = std::sqrt(3.0);
  EXPECT_NEAR(eq.volume, area, 1e-14);
  EXPECT_NEAR(eq.inertia(2, 2), area * 4.0 / 12.0, 1e-13);
  EXPECT_NEAR(eq.centroid.norm(), 0.0, 1e-15);
  const MassProperties right =
      polygon_mass_properties(make_polygon({Vec2(0, 0), Vec2(3, 0), Vec2(0, 2)}));
  EXPECT_NEAR(right.volume, 3.0, 1e-14);
  EXPECT_NEAR(right.inertia(0, 1), 9.0 * 4.0 / 72.0, 1e-13);  // I_xy = -int xy = +b^2 h^2 / 72
  const MassProperties disc = circle_mass_properties(0.5);
  EXPECT_NEAR(disc.volume, M_PI * 0.25, 1e-15);
  EXPECT_NEAR(disc.inertia(2, 2), 0.5 * disc.volume * 0.25, 1e-15);
  EXPECT_NEAR(disc.inertia(0, 0) + disc.inertia(1, 1), disc.inertia(2, 2), 1e-15);
}

}  // namespace
}  // namespace pegsim
