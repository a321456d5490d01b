// Contact dynamics against analytic answers: resting, incline (stick / slide), rolling sphere.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dynamics/simulator.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A box of size 1 x 1 x 0.5 on a plane inclined by theta about the x axis.
struct Incline {
  test::World w;
  int box = -1;
  Vec3 downhill;
  Incline(double theta, double mu) {
    const Quat tilt(Eigen::AngleAxisd(theta, Vec3::UnitX()));
    const Vec3 normal = tilt * Vec3::UnitZ();
    downhill = tilt * Vec3(0, -1, 0);
    w.add_plane("ground", Vec3::Zero(), tilt, mu);
    box = w.add_box("block", Vec3(1, 1, 0.5), 1.0, 0.25 * normal, tilt, mu);
  }
};

TEST(ContactDynamics, BoxRestsOnAPlaneWithoutPenetration) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int box = w.add_box("box", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  Simulator sim(w.model, w.state, Settings{});
  for (int i = 0; i < 200; ++i) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_EQ(r.contacts.size(), 4u);
    EXPECT_LE(r.max_penetration, 1e-9);
    double total = 0.0;
    for (double p : r.normal_impulse) total += p;
    // The four normal impulses carry the weight exactly: sum p_n = m g h.
    EXPECT_NEAR(total, kG * 0.01, 1e-9);
  }
  EXPECT_NEAR(sim.state().bodies[box].position.z(), 0.5, 1e-9);
  EXPECT_LT(sim.state().bodies[box].velocity.norm(), 1e-9);
}

TEST(ContactDynamics, BlockSticksOnAnInclineWhenTanThetaIsBelowMu) {
  const double mu = 0.5, theta = std::atan(0.8 * mu * std::cos(M_PI / 7));
  Incline inc(theta, mu);
  const Vec3 start = inc.w.state.bodies[inc.box].position;
  Simulator sim(inc.w.model, inc.w.state, Settings{});
  for (int i = 0; i < 200; ++i) ASSERT_FALSE(sim.step().failed);
  EXPECT_LT((sim.state().bodies[inc.box].position - start).norm(), 1e-8);
}

// The warm start of a sliding block: Lemke's basis of the previous step
// (SolverOptions::warm_basis) is this step's basis, so every solve after the first few takes
// no pivot. The support {z > 0} alone would not do: four corner contacts carry a rigid block
// with one redundant normal impulse, and the friction directions that carry no impulse are
// basic at zero in the slip rows (sliding_block: 2801 pivots in 200 steps from the support,
// 13 from the basis).
TEST(ContactDynamics, SlidingBlockReusesThePreviousBasisWithoutPivots) {
  Incline inc(0.5, 0.3);  // tan(0.5) = 0.546 > 0.3: it slides
  Simulator sim(inc.w.model, inc.w.state, Settings{});
  for (int i = 0; i < 5; ++i) ASSERT_FALSE(sim.step().failed);
  for (int i = 0; i < 50; ++i) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    ASSERT_EQ(r.solve.solver, "lemke");
    EXPECT_EQ(r.solve.iterations, 0) << "step " << r.step;
  }
}

// Downhill acceleration of a sliding block: the linearized cone's friction force along the
// slip lies between mu cos(pi / n_d) p_n and mu p_n (its polygon's in- and circumradius).
TEST(ContactDynamics, BlockSlidesDownAnInclineWithTheCoulombAcceleration) {
  const double mu = 0.3, theta = 0.5;  // tan(0.5) = 0.546 > 0.3
  for (int nd : {7, 64}) {
    Incline inc(theta, mu);
    Settings s;
    s.friction_directions = nd;
    Simulator sim(inc.w.model, inc.w.state, s);
    for (int i = 0; i < 20; ++i) ASSERT_FALSE(sim.step().failed);  // sliding established
    const double v0 = sim.state().bodies[inc.box].velocity.dot(inc.downhill);
    const double t0 = sim.state().time;
    for (int i = 0; i < 100; ++i) ASSERT_FALSE(sim.step().failed);
    const double a =
        (sim.state().bodies[inc.box].velocity.dot(inc.downhill) - v0) / (sim.state().time - t0);
    const double a_exact = kG * (std::sin(theta) - mu * std::cos(theta));
    const double a_weakest = kG * (std::sin(theta) - mu * std::cos(M_PI / nd) * std::cos(theta));
    EXPECT_GE(a, a_exact - 1e-6) << "n_d = " << nd;
    EXPECT_LE(a, a_weakest + 1e-6) << "n_d = " << nd;
  }
}

// Frictionless contacts get their normal rows alone (stewart_trinkle.hpp): one LCP row per
// contact instead of n_d + 2. The block still slides at exactly a = g sin(theta), and the
// trajectory is the one the full blocks give when mu is all but zero.
TEST(ContactDynamics, FrictionlessContactsHaveOnlyNormalRowsAndSlideAtGSinTheta) {
  const double theta = 0.3;
  Incline bare(theta, 0.0), rough(theta, 1e-14);
  Simulator sim(bare.w.model, bare.w.state, Settings{});
  Simulator full(rough.w.model, rough.w.state, Settings{});
  for (int i = 0; i < 20; ++i) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    ASSERT_EQ(r.contacts.size(), 4u);
    EXPECT_EQ(r.problem_size, 4);  // normal rows only
    const StepReport& f = full.step();
    ASSERT_FALSE(f.failed) << f.failure;
    EXPECT_EQ(f.problem_size, 4 * (Settings{}.friction_directions + 2));
    EXPECT_EQ(f.solve.solver, "lemke");
  }
  const double v0 = sim.state().bodies[bare.box].velocity.dot(bare.downhill);
  const double t0 = sim.state().time;
  for (int i = 0; i < 100; ++i) {
    ASSERT_FALSE(sim.step().failed);
    ASSERT_FALSE(full.step().failed);
  }
  const BodyState& b = sim.state().bodies[bare.box];
  const double a = (b.velocity.dot(bare.downhill) - v0) / (sim.state().time - t0);
  EXPECT_NEAR(a, kG * std::sin(theta), 1e-9);
  EXPECT_LT((b.position - full.state().bodies[rough.box].position).norm(), 1e-9);
  EXPECT_LT((b.velocity - full.state().bodies[rough.box].velocity).norm(), 1e-9);
  EXPECT_LT(b.angular_velocity.norm(), 1e-9);  // the four corners share the weight
}
TEST(ContactDynamics, RollingSphereKeepsRollingWithoutSlipping) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const double r = 0.5, v = 1.5;
  const int ball = w.add_sphere("ball", r, 1.0, Vec3(0, 0, r));
  w.state.bodies[ball].velocity = Vec3(v, 0, 0);
  w.state.bodies[ball].angular_velocity = Vec3(0, v / r, 0);
  Simulator sim(w.model, w.state, Settings{});
  for (int i = 0; i < 300; ++i) {
    ASSERT_FALSE(sim.step().failed);
    const BodyState& b = sim.state().bodies[ball];
    const Vec3 slip = b.velocity + b.angular_velocity.cross(Vec3(0, 0, -r));
    ASSERT_LT(slip.norm(), 1e-9);
  }
  const BodyState& b = sim.state().bodies[ball];
  EXPECT_NEAR(b.velocity.x(), v, 1e-9);
  EXPECT_NEAR(b.position.x(), v * 3.0, 1e-6);
  EXPECT_NEAR(b.position.z(), r, 1e-9);
}

TEST(ContactDynamics, SlidingSphereStartsRollingAtFiveSeventhsOfItsSpeed) {
  // Angular momentum about the contact point is conserved: m v0 r = m v r + (2/5) m r^2 v / r.
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.3);
  const double r = 0.2, v0 = 2.0;
  const int ball = w.add_sphere("ball", r, 1.0, Vec3(0, 0, r), 0.3);
  w.state.bodies[ball].velocity = Vec3(v0, 0, 0);
  Settings s;
  s.friction_directions = 4;  // +-x is a cone direction: friction opposes the slip exactly
  Simulator sim(w.model, w.state, s);
  for (int i = 0; i < 200; ++i) ASSERT_FALSE(sim.step().failed);
  const BodyState& b = sim.state().bodies[ball];
  EXPECT_NEAR(b.velocity.x(), 5.0 / 7.0 * v0, 1e-9);
  EXPECT_NEAR(b.angular_velocity.y() * r, 5.0 / 7.0 * v0, 1e-9);
  EXPECT_NEAR(b.velocity.y(), 0.0, 1e-12);
}

TEST(ContactDynamics, SameSceneAndSettingsGiveABitIdenticalTrajectory) {
  auto run = [] {
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
    w.add_box("a", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 1.0),
              Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized())));
    w.add_box("b", Vec3(0.5, 0.5, 0.5), 0.5, Vec3(0.2, 0.1, 2.5),
              Quat(Eigen::AngleAxisd(0.7, Vec3(3, 1, 2).normalized())));
    Simulator sim(w.model, w.state, Settings{});
    for (int i = 0; i < 150; ++i) sim.step();
    return sim.state();
  };
  const State s1 = run(), s2 = run();
  for (std::size_t i = 0; i < s1.bodies.size(); ++i) {
    EXPECT_EQ(s1.bodies[i].position, s2.bodies[i].position);
    EXPECT_EQ(s1.bodies[i].orientation.coeffs(), s2.bodies[i].orientation.coeffs());
    EXPECT_EQ(s1.bodies[i].velocity, s2.bodies[i].velocity);
  }
}

TEST(ContactDynamics, StopPolicyLeavesTheStateUntouchedWhenNoSolverAnswers) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  w.add_box("box", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  Settings s;
  s.solver = "lemke";
  s.fallbacks = {};
  s.max_iterations = 1;  // the resting box needs several pivots
  s.warm_start = false;
  Simulator sim(w.model, w.state, s);
  const StepReport& r = sim.step();
  EXPECT_TRUE(r.failed);
  EXPECT_FALSE(r.failure.empty());
  EXPECT_EQ(sim.state().step, 0);
  EXPECT_EQ(sim.state().bodies[1].position, w.state.bodies[1].position);
  EXPECT_EQ(sim.state().bodies[1].velocity, w.state.bodies[1].velocity);
}

TEST(ContactDynamics, FallbackIsReportedWithTheSolverThatAnswered) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  // Three boxes: PGS solves the contacts between two bodies exactly together, so one box on
  // the ground takes it one sweep; a stack of three takes it many more.
  for (int k = 0; k < 3; ++k)
    w.add_box("box" + std::to_string(k), Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5 + k));
  Settings s;
  s.solver = "pgs";
  s.fallbacks = {"lemke"};
  s.warm_start = false;
  s.max_iterations = 10;  // enough pivots for Lemke, too few sweeps for PGS at 1e-14
  s.tolerance = 1e-14;
  Simulator sim(w.model, w.state, s);
  const StepReport& r = sim.step();
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_FALSE(r.attempts[0].solved());
  EXPECT_TRUE(r.fell_back);
  EXPECT_EQ(r.solve.solver, "lemke");
}

TEST(ContactDynamics, ContinuePolicyTakesTheBestAnswerAndGoesOn) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  w.add_box("box", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  Settings s;
  s.solver = "pgs";
  s.fallbacks = {};
  s.max_iterations = 1;
  s.warm_start = false;
  s.on_failure = FailurePolicy::Continue;
  Simulator sim(w.model, w.state, s);
  const StepReport& r = sim.step();
  EXPECT_FALSE(r.failed);
  EXPECT_FALSE(r.solve.solved());
  EXPECT_EQ(sim.state().step, 1);
  EXPECT_TRUE(sim.state().bodies[1].position.allFinite());
}

}  // namespace
}  // namespace pegsim
