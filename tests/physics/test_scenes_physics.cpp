// Whole shipped scenes against invariants and analytic answers (thesis §5.4, issue targets).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"
#include "shipped_scenes.hpp"

namespace pegsim {
namespace {

using test::shipped;

Vec3 total_momentum(const Model& model, const State& state) {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (!model.bodies[i].is_static) p += model.bodies[i].mass * state.bodies[i].velocity;
  return p;
}

// stack10: ten unit cubes stacked exactly stand for 10 s with no penetration and no drift.
TEST(ScenePhysics, Stack10StandsForTenSeconds) {
  Scene scene = shipped("stack10");
  ASSERT_DOUBLE_EQ(scene.settings.h, 0.01);
  Simulator sim(scene.model, scene.initial, scene.settings);
  int top = 0;
  for (std::size_t i = 0; i < scene.model.bodies.size(); ++i)
    if (scene.initial.bodies[i].position.z() > scene.initial.bodies[top].position.z())
      top = static_cast<int>(i);
  const Vec3 start = scene.initial.bodies[top].position;
  double deepest = 0.0, drift = 0.0;
  const int steps = static_cast<int>(std::lround(10.0 / scene.settings.h));
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << k << ": " << r.failure;
    deepest = std::max(deepest, r.max_penetration);
    drift = std::max(drift, (sim.state().bodies[top].position - start).norm());
  }
  EXPECT_LE(deepest, 1e-6);
  EXPECT_LE(drift, 1e-6);
}

// pour20's first impacts produce degenerate LCPs of over 500 rows (coplanar face contacts,
// seven friction directions per contact), on which double-precision pivoting can end on false
// rays (the lattice pour of tests/data: steps 49 and 52); Lemke must answer each of these steps
// itself, within tolerance.
TEST(ScenePhysics, Pour20LemkeAnswersTheFirstImpacts) {
  Scene scene = shipped("pour20");
  Simulator sim(scene.model, scene.initial, scene.settings);
  int largest = 0;
  for (int k = 0; k < 55; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << k << ": " << r.failure;
    if (r.problem_size == 0) continue;
    EXPECT_FALSE(r.fell_back) << "step " << k;
    EXPECT_EQ(r.solve.solver, "lemke") << "step " << k;
    EXPECT_LE(r.solve.residual, scene.settings.tolerance * (1.0 + 10.0)) << "step " << k;
    largest = std::max(largest, r.problem_size);
  }
  EXPECT_GT(largest, 500);
}

// momentum_row (thesis §5.4, Fig. 5.27): inelastic impacts in a row keep the total momentum
// 1.5 kg * 2 m/s = 3.0 kg m/s at every step; in the end all move at 3.0 / 3.67 m/s.
TEST(ScenePhysics, MomentumRowConservesMomentumThroughEveryImpact) {
  Scene scene = shipped("momentum_row");
  Simulator sim(scene.model, scene.initial, scene.settings);
  ASSERT_NEAR(total_momentum(sim.model(), sim.state()).x(), 3.0, 1e-12);
  const int steps = static_cast<int>(std::lround(scene.duration / scene.settings.h));
  int impacts = 0;
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    for (double p : r.normal_impulse) impacts += p > 0.0;
    const Vec3 p = total_momentum(sim.model(), sim.state());
    ASSERT_NEAR(p.x(), 3.0, 1e-9) << "step " << k;
    ASSERT_NEAR(p.y(), 0.0, 1e-9);
    ASSERT_NEAR(p.z(), 0.0, 1e-9);
  }
  EXPECT_GT(impacts, 0);
  double mass = 0.0;
  for (const Body& b : sim.model().bodies) mass += b.is_static ? 0.0 : b.mass;
  ASSERT_NEAR(mass, 3.67, 1e-12);
  for (std::size_t i = 0; i < sim.model().bodies.size(); ++i)
    EXPECT_NEAR(sim.state().bodies[i].velocity.x(), 3.0 / 3.67, 1e-6) << sim.model().bodies[i].name;
}

// sliding_block: its description's a = g (sin 30 - 0.3 cos 30) = 2.3563 m/s^2 down the fall
// line (-x along the incline), with no sideways drift: v = a t at every step (velocity-level
// steps are exact for a constant acceleration).
TEST(ScenePhysics, SlidingBlockSlidesAtTheAccelerationItsDescriptionStates) {
  Scene scene = shipped("sliding_block");
  Simulator sim(scene.model, scene.initial, scene.settings);
  const int block = sim.model().body_index("block");
  const double theta = M_PI / 6.0, a = 9.81 * (std::sin(theta) - 0.3 * std::cos(theta));
  ASSERT_NEAR(a, 2.3563, 1e-4);
  const Vec3 downhill(-std::cos(theta), 0.0, -std::sin(theta));
  const Vec3 start = sim.state().bodies[block].position;
  const int steps = static_cast<int>(std::lround(scene.duration / scene.settings.h));
  for (int k = 1; k <= steps; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    const Vec3 v = sim.state().bodies[block].velocity;
    ASSERT_NEAR(v.dot(downhill), a * k * scene.settings.h, 0.005 * a * k * scene.settings.h)
        << "step " << k;
  }
  const Vec3 moved = sim.state().bodies[block].position - start;
  EXPECT_LT(std::abs(moved.y()), 1e-9);
  EXPECT_LT(std::atan2(moved.cross(downhill).norm(), moved.dot(downhill)), 0.1 * M_PI / 180);
}

// cascading_polyhedra, as its description says: the octahedron drops off the pedestal to the
// ground, and Coulomb friction (mu = sqrt(0.3 x 0.1) against the top) stops the tetrahedron on
// the top with its centre a little inside the rim at x = 1 m; both end at rest.
TEST(ScenePhysics, CascadingPolyhedraEndWhereTheDescriptionSays) {
  Scene scene = shipped("cascading_polyhedra");
  Simulator sim(scene.model, scene.initial, scene.settings);
  const int steps = static_cast<int>(std::lround(scene.duration / scene.settings.h));
  for (int k = 0; k < steps; ++k) ASSERT_FALSE(sim.step().failed);
  const BodyState& tetrahedron = sim.state().bodies[sim.model().body_index("tetrahedron")];
  const BodyState& octahedron = sim.state().bodies[sim.model().body_index("octahedron")];
  EXPECT_GT(tetrahedron.position.z(), 2.0);  // on the pedestal's top face (z = 2)
  EXPECT_GT(tetrahedron.position.x(), 0.95);
  EXPECT_LT(tetrahedron.position.x(), 1.0);
  EXPECT_LT(octahedron.position.z(), 0.5);  // on the ground
  EXPECT_GT(std::abs(octahedron.position.y()), 1.0);
  EXPECT_LT(tetrahedron.velocity.norm() + octahedron.velocity.norm(), 1e-6);
}

// hello_world and sphere_drop: "it lands and comes to rest", "stays there": at the end of the
// scene's duration the body is still, resting on the ground (its centre half its height up,
// within a millimetre), and upright.
TEST(ScenePhysics, DroppedBodiesComeToRestWhereTheyLand) {
  for (const char* name : {"hello_world", "sphere_drop"}) {
    SCOPED_TRACE(name);
    Scene scene = shipped(name);
    Simulator sim(scene.model, scene.initial, scene.settings);
    const int steps = static_cast<int>(std::lround(scene.duration / scene.settings.h));
    for (int k = 0; k < steps; ++k) ASSERT_FALSE(sim.step().failed);
    const int body = 1;  // after the ground
    const BodyState& s = sim.state().bodies[body];
    EXPECT_LT(s.velocity.norm(), 1e-6);
    EXPECT_LT(s.angular_velocity.norm(), 1e-6);
    EXPECT_NEAR(s.position.z(), 0.5, 1e-3);
    EXPECT_LT(s.orientation.angularDistance(scene.initial.bodies[body].orientation), 1e-6);
  }
}

}  // namespace
}  // namespace pegsim
