// The 2D narrow phase (thesis §3.5, Alg. 5) against hand-worked configurations: vertex-edge
// both ways, the vertex-vertex configuration of Alg. 10 / Fig. 3.11 (four contacts, primary or
// secondary by APPL (3.3) and FEAS (§3.3)), circles and half-planes. Shapes are placed at the
// origin unrotated unless said, so body coordinates are world coordinates.
#include <gtest/gtest.h>

#include <cmath>

#include "collision_world.hpp"
#include "engine/collision/narrow_phase.hpp"
#include "engine/collision/polygon_contacts.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polygon_builders.hpp"

namespace pegsim {
namespace {

using test::CollisionWorld;

Shape polygon(std::vector<Vec2> v) {
  return Shape::convex_polygon(std::make_shared<const Polygon>(make_polygon(std::move(v))));
}
// The square [-1, 1]^2: edges 0 bottom, 1 right (x = 1), 2 top (y = 1), 3 left; vertex 2 = (1, 1).
Shape square2() {
  return polygon({Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)});
}

std::vector<Contact> contacts_of(const CollisionWorld& w, int a, int b) {
  std::vector<Contact> out;
  collide(w.model, w.state, w.settings, a, b, out);
  for (const Contact& c : out) {  // planar: everything in the x-y plane
    EXPECT_EQ(c.normal.z(), 0.0);
    EXPECT_EQ(c.point_a.z(), 0.0);
  }
  return out;
}

void expect_features(const Contact& c, Feature a, Feature b) {
  EXPECT_EQ(c.feature_a.kind, a.kind);
  EXPECT_EQ(c.feature_a.index, a.index);
  EXPECT_EQ(c.feature_b.kind, b.kind);
  EXPECT_EQ(c.feature_b.index, b.index);
}

constexpr Feature kEdge(int i) {
  return {FeatureKind::Edge, i};
}
constexpr Feature kVertex(int i) {
  return {FeatureKind::Vertex, i};
}

TEST(PolygonContacts, SquareOnHalfPlaneHasTwoVertexContacts) {
  CollisionWorld w;
  const int ground = w.add(Shape::half_plane(), Vec3::Zero(), Quat::Identity(), true);
  const int box =
      w.add(Shape::convex_polygon(std::make_shared<const Polygon>(make_rectangle(1, 1))),
            Vec3(0.3, 0.51, 0));
  const auto c = contacts_of(w, box, ground);
  ASSERT_EQ(c.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(c[k].body_a, ground);
    EXPECT_EQ(c[k].body_b, box);
    expect_features(c[k], {FeatureKind::HalfPlane, -1}, kVertex(k));
    EXPECT_NEAR(c[k].gap, 0.01, 1e-15);
    EXPECT_EQ(c[k].normal, Vec3(0, 1, 0));
    EXPECT_EQ(c[k].applicability, 0.0);  // (3.3): one neighbour along the line, one straight up
    EXPECT_TRUE(c[k].primary());
  }
  EXPECT_NEAR(c[0].point_a.x(), -0.2, 1e-15);
  EXPECT_NEAR(c[1].point_a.x(), 0.8, 1e-15);
  EXPECT_EQ(c[0].point_a.y(), 0.0);
  EXPECT_NEAR(c[0].point_b().y(), 0.01, 1e-15);
}

TEST(PolygonContacts, TiltedHalfPlaneNormalAndGap) {
  CollisionWorld w;
  const double theta = 0.2;
  const int ground = w.add(Shape::half_plane(), Vec3(0, 1, 0), test::about_z(theta), true);
  const Vec3 n(-std::sin(theta), std::cos(theta), 0);
  // A unit square turned with the line, its bottom edge 0.01 above it.
  const int box =
      w.add(Shape::convex_polygon(std::make_shared<const Polygon>(make_rectangle(1, 1))),
            Vec3(0, 1, 0) + 0.51 * n, test::about_z(theta));
  const auto c = contacts_of(w, box, ground);
  ASSERT_EQ(c.size(), 2u);
  for (const Contact& k : c) {
    EXPECT_NEAR(k.gap, 0.01, 1e-14);
    EXPECT_NEAR((k.normal - n).norm(), 0.0, 1e-15);
  }
}

// Alg. 5: a triangle's apex 0.02 above the top edge of a square; nothing else within epsilon.
TEST(PolygonContacts, VertexOverEdgeInsideItsVoronoiStrip) {
  CollisionWorld w;
  const int tri = w.add(polygon({Vec2(0.3, 1.02), Vec2(1.3, 2.0), Vec2(-0.7, 2.0)}), Vec3::Zero());
  const int box = w.add(square2(), Vec3::Zero());
  const auto c = contacts_of(w, tri, box);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].body_a, box);  // the edge's owner
  EXPECT_EQ(c[0].body_b, tri);
  expect_features(c[0], kEdge(2), kVertex(0));
  EXPECT_NEAR(c[0].gap, 0.02, 1e-15);  // (3.7)
  EXPECT_EQ(c[0].normal, Vec3(0, 1, 0));
  EXPECT_NEAR((c[0].point_a - Vec3(0.3, 1.0, 0)).norm(), 0.0, 1e-15);    // (3.8)
  EXPECT_NEAR(c[0].applicability, 0.98 / std::hypot(1.0, 0.98), 1e-15);  // (3.3)
  EXPECT_TRUE(c[0].primary());
}

// Fig. 3.11 / Alg. 10: a diamond's bottom vertex v_a = (1.01, 1.02) near the square's corner
// v_b = (1, 1). Alg. 5 finds the four contacts C1 = C(v_a, e_b1), C2 = C(v_a, e_b2),
// C3 = C(v_b, e_a1), C4 = C(v_b, e_a2). v_a's edges point up-left and up-right, so it is
// applicable with the top edge (APPL 1/sqrt2) but not the right edge (-1/sqrt2); likewise v_b
// with the diamond's lower-left edge but not its lower-right one.
TEST(PolygonContacts, VertexVertexGivesTheFourContactsOfAlg10) {
  CollisionWorld w;
  const int a =
      w.add(polygon({Vec2(1.01, 1.02), Vec2(2.01, 2.02), Vec2(1.01, 3.02), Vec2(0.01, 2.02)}),
            Vec3::Zero());
  const int b = w.add(square2(), Vec3::Zero());
  const auto c = contacts_of(w, a, b);
  ASSERT_EQ(c.size(), 4u);
  const double r = 1.0 / std::sqrt(2.0);
  // Vertices of a on edges of b first: e_b1 = edge 1 (ends at v_b), e_b2 = edge 2 (leaves it).
  expect_features(c[0], kEdge(1), kVertex(0));
  EXPECT_EQ(c[0].body_a, b);
  EXPECT_NEAR(c[0].gap, 0.01, 1e-15);
  EXPECT_EQ(c[0].normal, Vec3(1, 0, 0));
  EXPECT_NEAR(c[0].applicability, -r, 1e-15);
  EXPECT_TRUE(c[0].feasible);
  EXPECT_FALSE(c[0].primary());  // secondary: kept for the local geometry

  expect_features(c[1], kEdge(2), kVertex(0));
  EXPECT_NEAR(c[1].gap, 0.02, 1e-15);
  EXPECT_NEAR(c[1].applicability, r, 1e-15);
  EXPECT_TRUE(c[1].primary());

  // Then v_b on the diamond's edges: e_a2 = edge 0 (leaves v_a), e_a1 = edge 3 (ends at v_a).
  expect_features(c[2], kEdge(0), kVertex(2));
  EXPECT_EQ(c[2].body_a, a);
  EXPECT_NEAR((c[2].normal - Vec3(r, -r, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(c[2].gap, 0.01 * r, 1e-15);
  EXPECT_NEAR(c[2].applicability, -r, 1e-15);
  EXPECT_FALSE(c[2].primary());

  expect_features(c[3], kEdge(3), kVertex(2));
  EXPECT_NEAR((c[3].normal - Vec3(-r, -r, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR(c[3].gap, 0.03 * r, 1e-15);
  EXPECT_NEAR(c[3].applicability, r, 1e-15);
  EXPECT_TRUE(c[3].primary());

  // Every contact's nearest point is the other vertex: within epsilon of both edges.
  std::vector<VertexPair> pairs;
  vertex_vertex_pairs(PosedPolygon(*w.model.bodies[a].shape.polygon, w.state.bodies[a]),
                      PosedPolygon(*w.model.bodies[b].shape.polygon, w.state.bodies[b]),
                      w.settings.epsilon, pairs);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].vertex_a, 0);
  EXPECT_EQ(pairs[0].vertex_b, 2);
  EXPECT_NEAR(pairs[0].distance, std::hypot(0.01, 0.02), 1e-15);
}

// §3.3: v = (1.02, 0.97) is 0.03 below the top edge's line but outside its Voronoi strip
// (lateral 0.02): below the line at phi = 0.4 rad from 0.0025 under the corner, so infeasible;
// against the right edge it is inside the strip with psi = 0.02: feasible.
TEST(PolygonContacts, FeasibilityOutsideTheVoronoiStrip) {
  CollisionWorld w;
  const int a = w.add(polygon({Vec2(1.02, 0.97), Vec2(2.0, 0.5), Vec2(2.0, 1.5)}), Vec3::Zero());
  const int b = w.add(square2(), Vec3::Zero());
  bool seen_top = false, seen_right = false;
  for (const Contact& c : contacts_of(w, a, b)) {
    if (c.body_b != a || c.feature_b.index != 0) continue;
    if (c.feature_a.index == 2) {
      seen_top = true;
      EXPECT_NEAR(c.gap, -0.03, 1e-15);
      EXPECT_FALSE(c.feasible);
    }
    if (c.feature_a.index == 1) {
      seen_right = true;
      EXPECT_NEAR(c.gap, 0.02, 1e-15);
      EXPECT_TRUE(c.feasible);
    }
  }
  EXPECT_TRUE(seen_top);
  EXPECT_TRUE(seen_right);
}

TEST(PolygonContacts, EpsilonCutsByDistanceToTheSegment) {
  CollisionWorld w;
  w.settings.epsilon = 0.05;
  // A vertex 0.04 above the top edge's line but 0.04 beyond its end: 0.057 from the segment.
  const int a = w.add(polygon({Vec2(1.04, 1.04), Vec2(2, 1.5), Vec2(1.5, 2)}), Vec3::Zero());
  const int b = w.add(square2(), Vec3::Zero());
  EXPECT_TRUE(contacts_of(w, a, b).empty());
  w.state.bodies[a].position = Vec3(-0.01, -0.01, 0);  // now 0.042 from the corner
  EXPECT_EQ(contacts_of(w, a, b).size(), 2u + 2u);     // a vertex-vertex configuration
}

TEST(CircleContacts, CircleNearEdgeVertexAndInside) {
  CollisionWorld w;
  const int box = w.add(square2(), Vec3::Zero());
  const int disc = w.add(Shape::circle(0.5), Vec3(1.51, 0.2, 0));
  auto c = contacts_of(w, disc, box);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].body_a, box);
  expect_features(c[0], kEdge(1), {FeatureKind::Circle, -1});
  EXPECT_NEAR(c[0].gap, 0.01, 1e-15);
  EXPECT_NEAR((c[0].normal - Vec3(1, 0, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((c[0].point_a - Vec3(1, 0.2, 0)).norm(), 0.0, 1e-15);

  w.model.bodies[disc].shape = Shape::circle(0.49);
  w.state.bodies[disc].position = Vec3(1.3, 1.4, 0);  // 0.5 from the corner (1, 1)
  c = contacts_of(w, box, disc);
  ASSERT_EQ(c.size(), 1u);
  expect_features(c[0], kVertex(2), {FeatureKind::Circle, -1});
  EXPECT_NEAR(c[0].gap, 0.01, 1e-15);
  EXPECT_NEAR((c[0].normal - Vec3(0.6, 0.8, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((c[0].point_a - Vec3(1, 1, 0)).norm(), 0.0, 1e-15);

  w.model.bodies[disc].shape = Shape::circle(0.2);
  w.state.bodies[disc].position = Vec3(0.9, 0, 0);  // centre inside: least penetrated edge
  c = contacts_of(w, box, disc);
  ASSERT_EQ(c.size(), 1u);
  expect_features(c[0], kEdge(1), {FeatureKind::Circle, -1});
  EXPECT_NEAR(c[0].gap, -0.3, 1e-15);
  EXPECT_NEAR((c[0].point_a - Vec3(1, 0, 0)).norm(), 0.0, 1e-15);
}

TEST(CircleContacts, CircleCircleAndCircleHalfPlane) {
  CollisionWorld w;
  const int a = w.add(Shape::circle(1.0), Vec3::Zero());
  const int b = w.add(Shape::circle(1.49), Vec3(1.5, 2.0, 0));
  auto c = contacts_of(w, a, b);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].body_a, a);
  EXPECT_NEAR(c[0].gap, 0.01, 1e-15);
  EXPECT_NEAR((c[0].normal - Vec3(0.6, 0.8, 0)).norm(), 0.0, 1e-15);
  EXPECT_NEAR((c[0].point_a - Vec3(0.6, 0.8, 0)).norm(), 0.0, 1e-15);

  const double theta = -0.3;
  const int ground = w.add(Shape::half_plane(), Vec3(0, -2, 0), test::about_z(theta), true);
  const Vec3 n(-std::sin(theta), std::cos(theta), 0);
  w.state.bodies[a].position = Vec3(0, -2, 0) + 1.03 * n;
  c = contacts_of(w, ground, a);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].body_a, ground);
  expect_features(c[0], {FeatureKind::HalfPlane, -1}, {FeatureKind::Circle, -1});
  EXPECT_NEAR(c[0].gap, 0.03, 1e-15);
  EXPECT_NEAR((c[0].normal - n).norm(), 0.0, 1e-15);
  EXPECT_NEAR((c[0].point_a - Vec3(0, -2, 0)).norm(), 0.0, 1e-15);
}

TEST(PlanarContacts, NoContactBetweenAPlanarAndA3DBody) {
  CollisionWorld w;
  const int disc = w.add(Shape::circle(1.0), Vec3::Zero());
  const int ball = w.add_sphere(1.0, Vec3(0.5, 0, 0));
  EXPECT_TRUE(contacts_of(w, disc, ball).empty());
}

}  // namespace
}  // namespace pegsim
