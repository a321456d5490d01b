// Polytope contacts (thesis §3.6): vertex-plane, vertex-face both ways, edge-edge; the
// A -> B normal convention, the epsilon cut and determinism.
#include <gtest/gtest.h>

#include <random>

#include "collision_world.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/collision/narrow_phase.hpp"

namespace pegsim {
namespace {

using test::CollisionWorld;

std::vector<Contact> contacts_of(const CollisionWorld& w, int a, int b) {
  std::vector<Contact> out;
  collide(w.model, w.state, w.settings, a, b, out);
  return out;
}

std::vector<Contact> primary(const std::vector<Contact>& all) {
  std::vector<Contact> p;
  for (const Contact& c : all)
    if (c.primary()) p.push_back(c);
  return p;
}

TEST(PolytopeContacts, CubeRestingOnPlaneHasFourVertexContacts) {
  CollisionWorld w;
  const int plane = w.add_plane();
  const int cube = w.add_cube(1.0, Vec3(0.3, -0.2, 0.5), test::about_z(0.4));
  const auto c = contacts_of(w, cube, plane);
  ASSERT_EQ(c.size(), 4u);
  for (const Contact& k : c) {
    EXPECT_EQ(k.body_a, plane);
    EXPECT_EQ(k.body_b, cube);
    EXPECT_EQ(k.feature_b.kind, FeatureKind::Vertex);
    EXPECT_NEAR(k.gap, 0.0, 1e-14);
    EXPECT_TRUE(k.normal.isApprox(Vec3::UnitZ()));
    EXPECT_NEAR(k.applicability, 0.0, 1e-14);  // (3.4): the bottom edges lie in the plane
    EXPECT_TRUE(k.primary());
  }
}

TEST(PolytopeContacts, CubeHoveringOverCubeGivesVertexFaceBothWays) {
  CollisionWorld w;
  const int lower = w.add_cube(1.0, Vec3::Zero(), Quat::Identity(), true);
  const int upper = w.add_cube(1.0, Vec3(0, 0, 1.01));
  const auto all = contacts_of(w, lower, upper);
  const auto p = primary(all);
  ASSERT_EQ(p.size(), 8u);
  int up = 0, down = 0;
  for (const Contact& k : p) {
    EXPECT_EQ(k.feature_a.kind, FeatureKind::Face);
    EXPECT_EQ(k.feature_b.kind, FeatureKind::Vertex);
    EXPECT_NEAR(k.gap, 0.01, 1e-14);
    if (k.body_a == lower) {  // upper's vertices on lower's top face
      EXPECT_TRUE(k.normal.isApprox(Vec3::UnitZ()));
      ++up;
    } else {  // lower's vertices on upper's bottom face
      EXPECT_TRUE(k.normal.isApprox(-Vec3::UnitZ()));
      ++down;
    }
  }
  EXPECT_EQ(up, 4);
  EXPECT_EQ(down, 4);
  // The rest: each corner vertex also lies in the plane of two side faces 0.01 away
  // (Fig. 3.12), with an adjacent edge pointing straight into them: APPL = -1 (3.4).
  EXPECT_EQ(all.size(), 8u + 16u);
  for (const Contact& k : all) {
    if (k.primary()) continue;
    EXPECT_NEAR(k.gap, 0.0, 1e-14);
    EXPECT_NEAR(k.applicability, -1.0, 1e-14);
    EXPECT_FALSE(k.applicable);
  }
}

TEST(PolytopeContacts, RotatedCubeOnCubeGivesEightEdgeEdgeContacts) {
  const double delta = 0.01, c = std::sqrt(0.5) - 0.5;  // A's edges cross B's at +-c
  CollisionWorld w;
  const int lower = w.add_cube(1.0, Vec3::Zero(), Quat::Identity(), true);
  const int upper = w.add_cube(1.0, Vec3(0, 0, 1.0 + delta), test::about_z(M_PI / 4));
  for (auto [a, b] : {std::pair{upper, lower}, std::pair{lower, upper}}) {
    const auto all = contacts_of(w, a, b);
    ASSERT_EQ(all.size(), 8u);
    const Vec3 down = a == upper ? Vec3(-Vec3::UnitZ()) : Vec3(Vec3::UnitZ());
    for (const Contact& k : all) {
      EXPECT_EQ(k.body_a, a);
      EXPECT_EQ(k.feature_a.kind, FeatureKind::Edge);
      EXPECT_EQ(k.feature_b.kind, FeatureKind::Edge);
      EXPECT_NEAR(k.gap, delta, 1e-12);
      EXPECT_TRUE(k.normal.isApprox(down)) << k.normal.transpose();  // (3.6): A onto B
      EXPECT_NEAR(k.applicability, 0.0, 1e-12);  // flush faces: border of (3.5), Fig. 3.6
      EXPECT_TRUE(k.primary());
      const Vec3 on_lower = a == lower ? k.point_a : k.point_b();
      EXPECT_NEAR(on_lower.z(), 0.5, 1e-12);
      const Vec2 xy = on_lower.head<2>().cwiseAbs();
      EXPECT_TRUE(xy.isApprox(Vec2(0.5, c)) || xy.isApprox(Vec2(c, 0.5))) << xy.transpose();
    }
  }
}

TEST(PolytopeContacts, NothingBeyondEpsilon) {
  CollisionWorld w;
  const int plane = w.add_plane();
  const int lower = w.add_cube(1.0, Vec3(0, 0, 0.5 + w.settings.epsilon + 1e-6));
  const int upper =
      w.add_cube(1.0, Vec3(0.1, 0, 1.5 + 2 * w.settings.epsilon + 2e-6), test::about_z(0.3));
  EXPECT_TRUE(contacts_of(w, plane, lower).empty());
  EXPECT_TRUE(contacts_of(w, lower, upper).empty());
  w.state.bodies[lower].position.z() = 0.5 + w.settings.epsilon - 1e-6;
  w.state.bodies[upper].position.z() = 1.5 + 2 * w.settings.epsilon - 2e-6;
  EXPECT_EQ(contacts_of(w, plane, lower).size(), 4u);
  EXPECT_FALSE(contacts_of(w, lower, upper).empty());
}

// In random near-touching poses: p_b lies on B, p_a on A for edge-edge, and moving B along
// the normal by d opens the gap of the same feature pair by d (the normal points A -> B).
TEST(PolytopeContacts, NormalPointsFromAOntoB) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    CollisionWorld w;
    const Quat qa = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Quat qb = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    const int a = w.add_cube(1.0, Vec3::Zero(), qa);
    const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
    const int b = w.add_cube(0.7, 0.95 * dir, qb);
    const auto before = contacts_of(w, a, b);
    const double d = 1e-4;
    for (const Contact& k : before) {
      EXPECT_NEAR(w.surface_distance(k.body_b, k.point_b()), 0.0, 1e-12);
      if (k.feature_a.kind == FeatureKind::Edge) {
        EXPECT_NEAR(w.surface_distance(k.body_a, k.point_a), 0.0, 1e-12);
      }
      CollisionWorld moved = w;
      moved.state.bodies[k.body_b].position += d * k.normal;
      for (const Contact& m : contacts_of(moved, a, b)) {
        if (m.body_a != k.body_a || m.feature_a.kind != k.feature_a.kind ||
            m.feature_a.index != k.feature_a.index || m.feature_b.index != k.feature_b.index)
          continue;
        EXPECT_NEAR(m.gap - k.gap, d, 1e-9);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(DetectContacts, DeterministicAndInPairOrder) {
  CollisionWorld w;
  w.add_plane();
  w.add_cube(1.0, Vec3(0, 0, 0.5));
  w.add_cube(0.8, Vec3(0.1, 0.05, 1.405), test::about_z(0.7));
  w.add_sphere(0.3, Vec3(0.83, 0, 0.31));
  w.add_cube(0.5, Vec3(-0.88, 0.1, 0.26), test::about_z(M_PI / 4));
  BroadPhase broad;
  std::vector<Contact> first, second;
  detect_contacts(w.model, w.state, w.settings, broad, first);
  detect_contacts(w.model, w.state, w.settings, broad, second);
  ASSERT_FALSE(first.empty());
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].body_a, second[i].body_a);
    EXPECT_EQ(first[i].body_b, second[i].body_b);
    EXPECT_EQ(first[i].feature_a.index, second[i].feature_a.index);
    EXPECT_EQ(first[i].feature_b.index, second[i].feature_b.index);
    EXPECT_EQ(first[i].point_a, second[i].point_a);
    EXPECT_EQ(first[i].normal, second[i].normal);
    EXPECT_EQ(first[i].gap, second[i].gap);
    EXPECT_EQ(first[i].applicability, second[i].applicability);
  }
  // Contacts come grouped by broad-phase pair, pairs in (a, b) order.
  std::vector<BodyPair> seen;
  for (const Contact& c : first) {
    const BodyPair p{std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)};
    if (seen.empty() || !(seen.back() == p)) seen.push_back(p);
  }
  EXPECT_EQ(seen, (std::vector<BodyPair>{{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}}));
}

}  // namespace
}  // namespace pegsim
