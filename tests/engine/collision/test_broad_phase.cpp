// Broad phase: sort-and-sweep must return exactly the pairs a brute-force box test returns.
#include <gtest/gtest.h>

#include <random>

#include "collision_world.hpp"
#include "engine/collision/broad_phase.hpp"

namespace pegsim {
namespace {

using test::CollisionWorld;

std::vector<BodyPair> brute_force(const CollisionWorld& w, double epsilon) {
  std::vector<BodyPair> pairs;
  const int n = static_cast<int>(w.model.bodies.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      const Aabb A = compute_aabb(w.model.bodies[a], w.state.bodies[a], epsilon / 2);
      const Aabb B = compute_aabb(w.model.bodies[b], w.state.bodies[b], epsilon / 2);
      if (A.overlaps(B) && w.model.may_collide(a, b)) pairs.push_back({a, b});
    }
  return pairs;
}

CollisionWorld random_world(unsigned seed, int n) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(-3.0, 3.0), size(0.1, 0.8), unit(-1.0, 1.0);
  CollisionWorld w;
  w.add_plane(Vec3(0, 0, -2.5));
  for (int i = 0; i < n; ++i) {
    const Vec3 p(pos(rng), pos(rng), pos(rng));
    if (i % 2)
      w.add_sphere(size(rng) / 2, p);
    else
      w.add_cube(size(rng), p, Quat(unit(rng), unit(rng), unit(rng), unit(rng)).normalized(),
                 i % 6 == 0);
  }
  return w;
}

TEST(Aabb, SpherePolytopeAndAxisAlignedPlane) {
  CollisionWorld w;
  const int s = w.add_sphere(0.5, Vec3(1, 2, 3));
  const int c = w.add_cube(2.0, Vec3(0, 0, 1), test::about_z(M_PI / 4));
  const int p = w.add_plane(Vec3(0, 0, 0.2));
  const Aabb S = compute_aabb(w.model.bodies[s], w.state.bodies[s], 0.1);
  EXPECT_TRUE(S.lo.isApprox(Vec3(0.4, 1.4, 2.4)));
  EXPECT_TRUE(S.hi.isApprox(Vec3(1.6, 2.6, 3.6)));
  const Aabb C = compute_aabb(w.model.bodies[c], w.state.bodies[c], 0.0);
  EXPECT_NEAR(C.hi.x(), std::sqrt(2.0), 1e-12);  // the diagonal of the rotated square
  EXPECT_NEAR(C.lo.z(), 0.0, 1e-12);
  const Aabb P = compute_aabb(w.model.bodies[p], w.state.bodies[p], 0.1);
  EXPECT_EQ(P.lo.x(), -INFINITY);
  EXPECT_EQ(P.hi.y(), INFINITY);
  EXPECT_EQ(P.lo.z(), -INFINITY);
  EXPECT_NEAR(P.hi.z(), 0.3, 1e-15);  // the half-space z <= 0.2, inflated
  // A tilted plane is unbounded along every axis.
  w.state.bodies[p].orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  const Aabb T = compute_aabb(w.model.bodies[p], w.state.bodies[p], 0.1);
  EXPECT_EQ(T.hi.z(), INFINITY);
}

TEST(BroadPhase, MatchesBruteForceOnRandomBodies) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const CollisionWorld w = random_world(seed, 40);
    BroadPhase broad;
    broad.update(w.model, w.state, 0.05);
    EXPECT_EQ(broad.pairs, brute_force(w, 0.05)) << "seed " << seed;
    EXPECT_FALSE(broad.pairs.empty());
  }
}

TEST(BroadPhase, PlanePairsWithBodiesNearOrBelowItOnly) {
  CollisionWorld w;
  const int plane = w.add_plane();
  const int near = w.add_sphere(0.5, Vec3(5, -7, 0.54));    // gap 0.04 < epsilon
  w.add_sphere(0.5, Vec3(0, 0, 0.6));                       // gap 0.1 > epsilon
  const int below = w.add_sphere(0.5, Vec3(100, 100, -3));  // inside the half-space
  BroadPhase broad;
  broad.update(w.model, w.state, 0.05);
  EXPECT_EQ(broad.pairs, (std::vector<BodyPair>{{plane, near}, {plane, below}}));
}

TEST(BroadPhase, RespectsNoCollideAndStaticPairs) {
  CollisionWorld w;
  const int a = w.add_cube(1.0, Vec3(0, 0, 0), Quat::Identity(), true);
  const int b = w.add_cube(1.0, Vec3(0.5, 0, 0), Quat::Identity(), true);  // static-static
  const int c = w.add_sphere(0.5, Vec3(0, 0.5, 0));
  const int d = w.add_sphere(0.5, Vec3(0, 0.6, 0.1));
  w.model.bodies[d].no_collide = {c};
  BroadPhase broad;
  broad.update(w.model, w.state, 0.05);
  EXPECT_EQ(broad.pairs, (std::vector<BodyPair>{{a, c}, {a, d}, {b, c}, {b, d}}));
}

TEST(BroadPhase, ReusesItsBuffers) {
  const CollisionWorld w = random_world(7, 30);
  BroadPhase broad;
  broad.update(w.model, w.state, 0.05);
  const auto* boxes = broad.boxes.data();
  const auto* pairs = broad.pairs.data();
  const auto* order = broad.order.data();
  const std::vector<BodyPair> first = broad.pairs;
  broad.update(w.model, w.state, 0.05);
  EXPECT_EQ(broad.boxes.data(), boxes);
  EXPECT_EQ(broad.pairs.data(), pairs);
  EXPECT_EQ(broad.order.data(), order);
  EXPECT_EQ(broad.pairs, first);
}

}  // namespace
}  // namespace pegsim
