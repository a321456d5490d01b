// Bodies out of contact: semi-implicit Euler (2.30) and the exponential map (2.36).
#include <gtest/gtest.h>

#include "engine/dynamics/simulator.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

TEST(FreeMotion, FreeFallMatchesTheDiscreteAndTheAnalyticSolution) {
  test::World w;
  const int ball = w.add_sphere("ball", 0.1, 2.0, Vec3(0, 0, 10));
  w.state.bodies[ball].velocity = Vec3(1.0, 0.0, 2.0);
  Settings s;
  s.h = 0.01;
  Simulator sim(w.model, w.state, s);
  const int k = 100;
  for (int i = 0; i < k; ++i) ASSERT_FALSE(sim.step().failed);
  const double t = k * s.h, g = 9.81;
  const Vec3 p = sim.state().bodies[ball].position;
  // Semi-implicit Euler: z_k = z_0 + v_0 t - g h^2 k (k + 1) / 2, exactly.
  EXPECT_NEAR(p.z(), 10.0 + 2.0 * t - g * s.h * s.h * k * (k + 1) / 2.0, 1e-12);
  EXPECT_NEAR(p.x(), 1.0 * t, 1e-12);
  // ... which differs from the analytic z_0 + v_0 t - g t^2 / 2 by g h t / 2 (first order).
  EXPECT_NEAR(p.z() - (10.0 + 2.0 * t - 0.5 * g * t * t), -0.5 * g * s.h * t, 1e-12);
  EXPECT_NEAR(sim.state().bodies[ball].velocity.z(), 2.0 - g * t, 1e-12);
  EXPECT_NEAR(sim.state().time, t, 1e-12);
  EXPECT_EQ(sim.state().step, k);
}

TEST(FreeMotion, SpinAboutAPrincipalAxisRotatesUniformly) {
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  const double omega = 2.0;
  w.state.bodies[box].angular_velocity = Vec3(0, 0, omega);
  Settings s;
  s.gravity.setZero();
  s.h = 0.01;
  Simulator sim(w.model, w.state, s);
  for (int i = 0; i < 157; ++i) sim.step();
  const Quat expected(Eigen::AngleAxisd(omega * 1.57, Vec3::UnitZ()));
  EXPECT_LT(sim.state().bodies[box].orientation.angularDistance(expected), 1e-12);
  EXPECT_NEAR(sim.state().bodies[box].orientation.norm(), 1.0, 1e-15);
}

TEST(FreeMotion, TorqueFreeTumblingConservesAngularMomentum) {
  // Spin near the axis of largest inertia (x for a 1 x 2 x 3 box); the explicit gyroscopic
  // term of (2.30) keeps the world angular momentum to first order in h.
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  w.state.bodies[box].angular_velocity = Vec3(3.0, 0.1, 0.1);
  Settings s;
  s.gravity.setZero();
  s.h = 0.001;
  Simulator sim(w.model, w.state, s);
  auto momentum = [&](const State& st) {
    const Mat3 R = st.bodies[box].orientation.toRotationMatrix();
    return Vec3(R * w.model.bodies[box].inertia * R.transpose() * st.bodies[box].angular_velocity);
  };
  const Vec3 L0 = momentum(sim.state());
  for (int i = 0; i < 200; ++i) sim.step();
  const Vec3 L1 = momentum(sim.state());
  EXPECT_LT((L1 - L0).norm() / L0.norm(), 0.02);
}

TEST(FreeMotion, ExternalWrenchActsForOneStepOnly) {
  test::World w;
  const int box = w.add_box("box", Vec3(1, 1, 1), 2.0, Vec3::Zero());
  Settings s;
  s.gravity.setZero();
  s.h = 0.1;
  Simulator sim(w.model, w.state, s);
  sim.apply_wrench(box, Vec3(4, 0, 0), Vec3::Zero());
  sim.step();
  EXPECT_NEAR(sim.state().bodies[box].velocity.x(), 4.0 / 2.0 * 0.1, 1e-15);
  sim.step();
  EXPECT_NEAR(sim.state().bodies[box].velocity.x(), 0.2, 1e-15);
}

// The report carries the wrench the step applied (observers cannot see it in the state,
// which is cleared), and the settings it ran with; set_wrench replaces a pending wrench.
TEST(FreeMotion, ReportCarriesTheAppliedWrenchAndSettings) {
  test::World w;
  const int a = w.add_box("a", Vec3(1, 1, 1), 2.0, Vec3::Zero());
  const int b = w.add_box("b", Vec3(1, 1, 1), 1.0, Vec3(5, 0, 0));
  Settings s;
  s.gravity.setZero();
  Simulator sim(w.model, w.state, s);
  sim.apply_wrench(b, Vec3(1, 2, 3), Vec3(0, 0, 1));
  sim.apply_wrench(b, Vec3(1, 0, 0), Vec3::Zero());
  const StepReport& r = sim.step();
  ASSERT_EQ(r.applied_force.size(), 2u);
  ASSERT_EQ(r.applied_torque.size(), 2u);
  EXPECT_EQ(r.applied_force[a], Vec3::Zero());
  EXPECT_EQ(r.applied_force[b], Vec3(2, 2, 3));
  EXPECT_EQ(r.applied_torque[b], Vec3(0, 0, 1));
  EXPECT_EQ(sim.state().bodies[b].force, Vec3::Zero());  // cleared after the step
  ASSERT_NE(r.settings, nullptr);
  EXPECT_EQ(r.settings->h, s.h);
  sim.apply_wrench(a, Vec3(7, 0, 0), Vec3::Zero());
  sim.set_wrench(a, Vec3(0, 1, 0), Vec3(1, 0, 0));
  sim.step();
  EXPECT_EQ(sim.last_report().applied_force[a], Vec3(0, 1, 0));
  EXPECT_EQ(sim.last_report().applied_torque[a], Vec3(1, 0, 0));
  EXPECT_EQ(sim.last_report().applied_force[b], Vec3::Zero());
}

TEST(FreeMotion, StaticBodiesNeverMove) {
  test::World w;
  const int box = w.add_box("box", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 5));
  w.model.bodies[box].is_static = true;
  w.state.bodies[box].velocity = Vec3(1, 1, 1);
  Simulator sim(w.model, w.state, Settings{});
  for (int i = 0; i < 10; ++i) sim.step();
  EXPECT_EQ(sim.state().bodies[box].position, Vec3(0, 0, 5));
}

TEST(FreeMotion, UnusableSettingsAreRejected) {
  test::World w;
  w.add_sphere("ball", 0.1, 1.0, Vec3::Zero());
  Settings s;
  s.h = -1.0;
  EXPECT_THROW(Simulator(w.model, w.state, s), std::invalid_argument);
  s = Settings{};
  s.solver = "no-such-solver";
  EXPECT_THROW(Simulator(w.model, w.state, s), std::invalid_argument);
  s = Settings{};
  s.friction_directions = 0;
  EXPECT_FALSE(check_settings(s).empty());
}

// A failed step never leaves a non-finite state: a twist that is finite but too large for the
// exponential map (|w| overflows to infinity in |w| h; a body that the explicit gyroscopic term
// of (2.30) spun up reaches it) fails the step and keeps the pose. Before the check the step
// succeeded with a NaN orientation (polyhedra_pour under PEG, h = 0.016, seed 6, step 125).
TEST(FreeMotion, ATwistThatOverflowsThePoseUpdateFailsTheStepAndKeepsThePose) {
  test::World w;
  const int ball = w.add_sphere("ball", 0.1, 1.0, Vec3(0, 0, 1));
  w.state.bodies[ball].angular_velocity = Vec3(1e155, 0, 0);  // finite, |w|^2 is not
  Settings s;
  s.gravity.setZero();
  Simulator sim(w.model, w.state, s);
  const StepReport& r = sim.step();
  EXPECT_TRUE(r.failed);
  EXPECT_NE(r.failure.find("overflow"), std::string::npos) << r.failure;
  const BodyState& b = sim.state().bodies[ball];
  EXPECT_TRUE(b.position.allFinite());
  EXPECT_TRUE(b.orientation.coeffs().allFinite());
  EXPECT_EQ(b.orientation.coeffs(), w.state.bodies[ball].orientation.coeffs());
}

}  // namespace
}  // namespace pegsim
