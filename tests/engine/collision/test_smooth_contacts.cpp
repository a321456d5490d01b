// Contacts of spheres with planes, spheres and polytopes: analytic gaps and normals.
#include <gtest/gtest.h>

#include "collision_world.hpp"
#include "engine/collision/narrow_phase.hpp"

namespace pegsim {
namespace {

using test::CollisionWorld;

std::vector<Contact> contacts_of(const CollisionWorld& w, int a, int b) {
  std::vector<Contact> out;
  collide(w.model, w.state, w.settings, a, b, out);
  return out;
}

TEST(SmoothContacts, SphereOnPlaneGap) {
  CollisionWorld w;
  const int plane = w.add_plane(Vec3(0, 0, 0.1));
  const int ball = w.add_sphere(0.3, Vec3(1, 2, 0.42));
  for (auto [a, b] : {std::pair{plane, ball}, std::pair{ball, plane}}) {
    const auto c = contacts_of(w, a, b);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].body_a, plane);  // the plane is body_a whatever the pair order
    EXPECT_EQ(c[0].feature_b.kind, FeatureKind::Sphere);
    EXPECT_NEAR(c[0].gap, 0.02, 1e-14);
    EXPECT_TRUE(c[0].normal.isApprox(Vec3::UnitZ()));
    EXPECT_TRUE(c[0].point_a.isApprox(Vec3(1, 2, 0.1)));
    EXPECT_NEAR(w.surface_distance(ball, c[0].point_b()), 0.0, 1e-14);
    EXPECT_TRUE(c[0].primary());
  }
  w.state.bodies[ball].position.z() = 0.1 + 0.3 + 0.051;  // beyond epsilon = 0.05
  EXPECT_TRUE(contacts_of(w, plane, ball).empty());
  w.state.bodies[ball].position.z() = 0.3;  // penetrating by 0.1
  EXPECT_NEAR(contacts_of(w, plane, ball)[0].gap, -0.1, 1e-14);
}

TEST(SmoothContacts, SphereSphereGapAndNormalFromAToB) {
  CollisionWorld w;
  const int a = w.add_sphere(0.5, Vec3(0, 0, 0));
  const int b = w.add_sphere(0.25, Vec3(0.3, 0.4, 0.6));  // centre distance sqrt(0.61)
  const auto c = contacts_of(w, a, b);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].body_a, a);
  EXPECT_NEAR(c[0].gap, std::sqrt(0.61) - 0.75, 1e-14);
  EXPECT_TRUE(c[0].normal.isApprox(Vec3(0.3, 0.4, 0.6) / std::sqrt(0.61)));
  EXPECT_NEAR(w.surface_distance(a, c[0].point_a), 0.0, 1e-14);
  EXPECT_NEAR(w.surface_distance(b, c[0].point_b()), 0.0, 1e-14);
  const auto r = contacts_of(w, b, a);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].normal.isApprox(-c[0].normal));
  w.state.bodies[b].position = Vec3(0, 0, 0.8 + 1e-9);
  EXPECT_TRUE(contacts_of(w, a, b).empty());
}

TEST(SmoothContacts, SphereOnPolytopeFaceEdgeAndVertex) {
  CollisionWorld w;
  const int cube = w.add_cube(1.0, Vec3::Zero());
  const int ball = w.add_sphere(0.1, Vec3(0.2, -0.1, 0.63));
  auto c = contacts_of(w, ball, cube);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].body_a, cube);
  EXPECT_EQ(c[0].feature_a.kind, FeatureKind::Face);
  EXPECT_NEAR(c[0].gap, 0.03, 1e-14);
  EXPECT_TRUE(c[0].normal.isApprox(Vec3::UnitZ()));

  // Beyond the edge x = z = 0.5: nearest point on the edge, normal at 45 degrees.
  w.state.bodies[ball].position = Vec3(0.5 + 0.08, 0.0, 0.5 + 0.08);
  c = contacts_of(w, cube, ball);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].feature_a.kind, FeatureKind::Edge);
  EXPECT_NEAR(c[0].gap, 0.08 * std::sqrt(2.0) - 0.1, 1e-14);
  EXPECT_TRUE(c[0].normal.isApprox(Vec3(1, 0, 1).normalized()));
  EXPECT_NEAR(w.surface_distance(ball, c[0].point_b()), 0.0, 1e-14);

  // Beyond the corner: nearest feature is the vertex.
  w.state.bodies[ball].position = Vec3::Constant(0.5 + 0.05);
  c = contacts_of(w, cube, ball);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].feature_a.kind, FeatureKind::Vertex);
  EXPECT_TRUE(w.model.bodies[cube].shape.polytope->vertices[c[0].feature_a.index].isApprox(
      Vec3::Constant(0.5)));
  EXPECT_NEAR(c[0].gap, 0.05 * std::sqrt(3.0) - 0.1, 1e-14);

  // Centre inside the cube, closest to the +x face.
  w.state.bodies[ball].position = Vec3(0.45, 0.1, 0.0);
  c = contacts_of(w, cube, ball);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(c[0].normal.isApprox(Vec3::UnitX()));
  EXPECT_NEAR(c[0].gap, -0.05 - 0.1, 1e-14);
}

}  // namespace
}  // namespace pegsim
