// Formulation geometrically-implicit through the Simulator: the pairs the narrow phase finds
// within epsilon enter seed 001's mixed NCP, the bodies move by its answer, and the report
// holds one contact per pair at the end-of-step closest points.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dynamics/implicit_stage.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/compound.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A ball dropped onto the ground falls freely (v = -g t, the Euler step's z exactly), enters
// the problem once within epsilon, never ends a step below the ground, and rests on it at
// z = r with the weight over a step as its normal impulse.
TEST(ImplicitStage, ADroppedBallFallsFreelyThenRestsOnTheGroundWithoutPenetrating) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int ball = w.add_sphere("ball", 0.5, 2.0, Vec3(0.0, 0.0, 2.0));
  const double h = 0.01;
  Simulator sim(w.model, w.state, test::implicit_settings(h, Vec3(0, 0, -kG)));
  double z = 2.0, v = 0.0, worst_gap = 0.0;
  bool touched = false;
  for (int k = 1; k <= 200; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << k << ": " << r.failure;
    const BodyState& s = sim.state().bodies[std::size_t(ball)];
    if (r.contacts.empty() || r.normal_impulse[0] == 0.0) {
      ASSERT_FALSE(touched) << "it left the ground at step " << k;
      v -= kG * h;  // symplectic Euler: v then z
      z += h * v;
      EXPECT_NEAR(s.position.z(), z, 1e-12) << k;
    } else {
      touched = true;
    }
    for (const Contact& c : r.contacts) worst_gap = std::min(worst_gap, c.gap);
    EXPECT_GE(s.position.z(), 0.5 - 1e-9) << k;
  }
  ASSERT_TRUE(touched);
  EXPECT_GE(worst_gap, -1e-9);
  const StepReport& r = sim.last_report();
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_NEAR(sim.state().bodies[std::size_t(ball)].position.z(), 0.5, 1e-9);
  EXPECT_NEAR(r.normal_impulse[0], 2.0 * kG * h, 1e-9);
  EXPECT_NEAR(r.contacts[0].point_a.z(), 0.0, 1e-9) << "a1 on the ground";
  EXPECT_NEAR(r.contacts[0].normal.z(), 1.0, 1e-12) << "from the ground onto the ball";
  EXPECT_EQ(r.solve.solver, "mcp-newton");
  EXPECT_EQ(r.problem_size, 6 + 12);
}

// on_failure (FailurePolicy): with Newton held to one iteration a solve, the ball's landing finds
// no answer. Under "stop" the step fails and the ball stays where it was; under "continue" the
// step ends at Newton's best iterate, reported as unsolved and fallen back, and the run goes on
// (the steps before the landing are the same under both).
TEST(ImplicitStage, OnFailureContinueEndsAnUnsolvedStepAtTheBestIterate) {
  auto run = [](FailurePolicy policy, std::vector<StepReport>& reports, std::vector<double>& z) {
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
    const int ball = w.add_sphere("ball", 0.5, 2.0, Vec3(0.0, 0.0, 0.6));
    Settings s = test::implicit_settings(0.01, Vec3(0, 0, -kG));
    s.max_iterations = 1;
    s.on_failure = policy;
    Simulator sim(w.model, w.state, s);
    for (int k = 0; k < 30; ++k) {
      reports.push_back(sim.step());
      z.push_back(sim.state().bodies[std::size_t(ball)].position.z());
      if (reports.back().failed) break;
    }
  };
  std::vector<StepReport> stop, go;
  std::vector<double> z_stop, z_go;
  run(FailurePolicy::Stop, stop, z_stop);
  run(FailurePolicy::Continue, go, z_go);
  ASSERT_TRUE(stop.back().failed) << "one Newton iteration cannot land the ball";
  const std::size_t failed = stop.size() - 1;
  EXPECT_EQ(z_stop[failed], failed > 0 ? z_stop[failed - 1] : 0.6) << "stop: the ball stays";
  ASSERT_EQ(go.size(), 30u) << "continue: every step is taken";
  for (std::size_t k = 0; k < failed; ++k) EXPECT_EQ(z_go[k], z_stop[k]) << k;
  const StepReport& best = go[failed];
  EXPECT_FALSE(best.failed);
  EXPECT_FALSE(best.solve.solved());
  EXPECT_TRUE(best.fell_back);
  EXPECT_TRUE(std::isfinite(best.solve.residual));
  EXPECT_NE(best.solve.message.find("least residual"), std::string::npos) << best.solve.message;
  EXPECT_NE(z_go[failed], z_stop[failed]) << "the ball moved";
  for (double z : z_go) EXPECT_TRUE(std::isfinite(z));
}

// Seed 001's Example 1 as a planar scene: the disc rolls at nu0 = (-3, 0, 3) for 10 s keeping
// 6.75 J, its height and zero slip.
TEST(ImplicitStage, Example1AsAPlanarModelRollsTheDiscForTenSeconds) {
  test::World w;
  w.add_half_plane("ground", 0.4);
  Body disc;
  disc.name = "disc";
  disc.shape = Shape::circle(1.0);
  disc.mass = 1.0;
  disc.inertia = Vec3(0.25, 0.25, 0.5).asDiagonal();
  disc.mu = 0.4;
  const int d = w.add(disc, Vec3(0.0, 1.0, 0.0));
  w.state.bodies[std::size_t(d)].velocity = Vec3(-3.0, 0.0, 0.0);
  w.state.bodies[std::size_t(d)].angular_velocity = Vec3(0.0, 0.0, 3.0);
  Settings s = test::implicit_settings(0.01, Vec3(0, -kG, 0));
  s.friction_directions = 2;
  Simulator sim(w.model, w.state, s);
  double worst = 0.0;
  for (int k = 0; k < 1000; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << k;
    ASSERT_EQ(r.substeps, 1) << k << ": the paper's fixed step";
    const BodyState& b = sim.state().bodies[std::size_t(d)];
    const double energy = 0.5 * b.velocity.squaredNorm() + 0.25 * b.angular_velocity.squaredNorm();
    worst = std::max({worst, std::abs(energy - 6.75), std::abs(b.position.y() - 1.0),
                      std::abs(b.velocity.x() + b.angular_velocity.z())});
  }
  EXPECT_LE(worst, 1e-6);
  EXPECT_NEAR(sim.state().bodies[std::size_t(d)].position.x(), -30.0, 1e-6);
}

// A body that appears later waits where it is until then (as under every formulation), and
// then falls.
TEST(ImplicitStage, ABodyYetToAppearWaitsUntilItsTime) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int ball = w.add_sphere("ball", 0.5, 1.0, Vec3(0.0, 0.0, 3.0));
  w.model.bodies[std::size_t(ball)].appear_time = 0.5;
  Simulator sim(w.model, w.state, test::implicit_settings(0.01, Vec3(0, 0, -kG)));
  for (int k = 0; k < 50; ++k) ASSERT_FALSE(sim.step().failed);
  EXPECT_EQ(sim.state().bodies[std::size_t(ball)].position.z(), 3.0);
  EXPECT_EQ(sim.state().bodies[std::size_t(ball)].velocity.z(), 0.0);
  for (int k = 0; k < 10; ++k) ASSERT_FALSE(sim.step().failed);
  EXPECT_LT(sim.state().bodies[std::size_t(ball)].position.z(), 3.0);
}

// Seed 001 §5 through the Simulator: a ball (m = 2, r = 0.5) dropped 1.5 m onto a quasi-rigid
// contact of stiffness k = 1000 without a core sinks to the deflection d of
// m g (1.5 + d) = k d^2 / 2 (d = 0.2630 m; the Euler step sinks 0.5 % less at h = 2.5e-4),
// whichever body carries the shell: the ground, the ball, or both with 2000 N/m each (springs in
// series).
TEST(ImplicitStage, AShellOnEitherBodyOrTwoInSeriesStopTheBallAtTheSameDeflection) {
  const double m = 2.0, k = 1000.0;
  const double d = (m * kG + std::sqrt(m * kG * m * kG + 2.0 * k * m * kG * 1.5)) / k;
  auto lowest = [&](double ground_k, double ball_k) {
    test::World w;
    const int ground = w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.0);
    const int ball = w.add_sphere("ball", 0.5, m, Vec3(0.0, 0.0, 2.0), 0.0);
    w.model.bodies[std::size_t(ground)].shell.stiffness(0, 0) = ground_k;
    w.model.bodies[std::size_t(ball)].shell.stiffness(0, 0) = ball_k;
    Simulator sim(w.model, w.state, test::implicit_settings(2.5e-4, Vec3(0, 0, -kG)));
    double z = 2.0;
    for (int i = 0; i < 2800; ++i) {
      const StepReport& r = sim.step();
      EXPECT_FALSE(r.failed) << i << ": " << r.failure;
      if (r.failed) break;
      z = std::min(z, sim.state().bodies[std::size_t(ball)].position.z());
    }
    return 0.5 - z;
  };
  const double on_ground = lowest(k, 0.0);
  EXPECT_NEAR(on_ground, d, 0.01 * d);
  EXPECT_NEAR(lowest(0.0, k), on_ground, 1e-6);
  EXPECT_NEAR(lowest(2.0 * k, 2.0 * k), on_ground, 1e-6);
}

// Two shells in contact act in series: their compliances K^-1 add, a shell along the normal
// alone being rigid along t and o, and a missing damper leaves none.
TEST(ImplicitStage, ShellsInSeriesAddTheirCompliances) {
  const QuasiRigidShell a = QuasiRigidShell::normal(1000.0, 4.0, 0.01);
  QuasiRigidShell b;
  b.stiffness = Vec3(2000.0, 800.0, 600.0).asDiagonal();
  b.damping = Vec3(8.0, 2.0, 2.0).asDiagonal();
  b.max_deflection = 0.02;
  const QuasiRigidShell s = pair_shell(a, b);
  EXPECT_TRUE(s.stiffness.isApprox(Mat3(Vec3(2000.0 / 3.0, 800.0, 600.0).asDiagonal()), 1e-14))
      << s.stiffness;
  EXPECT_TRUE(s.damping.isApprox(Mat3(Vec3(8.0 / 3.0, 2.0, 2.0).asDiagonal()), 1e-14));
  EXPECT_DOUBLE_EQ(s.max_deflection, 0.03);
  EXPECT_TRUE(pair_shell(b, a).stiffness.isApprox(s.stiffness, 1e-14)) << "either order";
  // Coupled: K = (K_a^-1 + K_b^-1)^-1.
  b.stiffness(0, 1) = b.stiffness(1, 0) = 300.0;
  QuasiRigidShell c = a;
  c.stiffness(1, 1) = c.stiffness(2, 2) = 500.0;
  const Mat3 sum = c.stiffness.inverse() + b.stiffness.inverse();
  EXPECT_TRUE((pair_shell(c, b).stiffness * sum).isApprox(Mat3::Identity(), 1e-12));
  // Two normal shells: k_a k_b / (k_a + k_b); a shell without damper leaves none.
  const QuasiRigidShell n = pair_shell(a, QuasiRigidShell::normal(3000.0));
  EXPECT_DOUBLE_EQ(n.stiffness(0, 0), 750.0);
  EXPECT_FALSE(n.tangential());
  EXPECT_EQ(n.damping, Mat3::Zero());
  EXPECT_EQ(pair_shell(a, QuasiRigidShell{}).stiffness, a.stiffness) << "one shell: its own";
}

// Torsional friction (scene field torsion_radius, seed 001's e_r): a ball (m = 2, r = 0.5,
// I = 0.2) spinning at 10 rad/s about the vertical on the ground slows under the torque
// e_r mu m g = 0.4905 N m, omega = 10 - 2.4525 t, exactly at the Euler step's times, stops at
// 4.077 s and stays put; it never moves sideways. Without a torsion radius it spins on.
TEST(ImplicitStage, TorsionalFrictionStopsASpinningBallAtTheRateOfTheEllipsoidalLaw) {
  auto spin = [](double torsion_radius, double seconds) {
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
    const int ball = w.add_sphere("ball", 0.5, 2.0, Vec3(0.0, 0.0, 0.5), 0.5);
    w.model.bodies[std::size_t(ball)].torsion_radius = torsion_radius;
    w.state.bodies[std::size_t(ball)].angular_velocity = Vec3(0.0, 0.0, 10.0);
    Simulator sim(w.model, w.state, test::implicit_settings(0.01, Vec3(0, 0, -kG)));
    for (long k = std::lround(seconds / 0.01); k > 0; --k) {
      const StepReport& r = sim.step();
      EXPECT_FALSE(r.failed) << r.failure;
      if (r.failed) break;
    }
    return sim.state().bodies[std::size_t(ball)];
  };
  const BodyState at2 = spin(0.05, 2.0);
  EXPECT_NEAR(at2.angular_velocity.z(), 10.0 - 0.05 * 0.5 * kG / 0.1 * 2.0, 1e-7);
  EXPECT_LE(at2.velocity.norm(), 1e-9);
  EXPECT_LE(at2.angular_velocity.head<2>().norm(), 1e-9);
  EXPECT_NEAR(spin(0.05, 5.0).angular_velocity.z(), 0.0, 1e-7) << "stopped, and stays";
  EXPECT_NEAR(spin(0.0, 2.0).angular_velocity.z(), 10.0, 1e-9);
}

// Shapes without an implicit function, and joints, are refused by name.
// Polytopes and compounds are taken (intersections and unions of functions); a quasi-rigid
// shell on a body of several functions and joints are refused, naming why.
TEST(ImplicitStage, ShellsOnPolytopesJointsAndImplicitDrivesAreRefusedWithTheReason) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int crate = w.add_box("crate", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  Body dumbbell;
  dumbbell.name = "dumbbell";
  dumbbell.shape = Shape::compound_of(std::make_shared<Compound>(make_compound(
      {{Shape::sphere(0.2), Vec3(-0.3, 0, 0)}, {Shape::sphere(0.2), Vec3(0.3, 0, 0)}})));
  w.add(dumbbell, Vec3(0, 0, 2));
  EXPECT_EQ(implicit_step_defect(w.model), "");
  w.model.bodies[std::size_t(crate)].shell.stiffness(0, 0) = 1000.0;
  w.model.bodies[std::size_t(crate)].shell.max_deflection = 0.01;
  EXPECT_NE(implicit_step_defect(w.model).find("body 'crate' is a convex polytope"),
            std::string::npos)
      << implicit_step_defect(w.model);
  w.model.bodies[std::size_t(crate)].shell = QuasiRigidShell{};
  Joint hinge;
  hinge.body_b = crate;
  w.model.joints.push_back(hinge);
  EXPECT_NE(implicit_step_defect(w.model).find("takes no joints"), std::string::npos);
  // A slide to the world takes explicit pd drives (wrenches), not implicit ones (LCP rows).
  w.model.joints.back().type = JointType::Prismatic;
  w.model.joints.back().name = "slide";
  PdJointSpec pd;
  pd.joint = 0;
  pd.implicit = true;
  w.model.controllers.pd_joints.push_back(pd);
  EXPECT_NE(implicit_step_defect(w.model).find("the one on joint 'slide' is implicit"),
            std::string::npos)
      << implicit_step_defect(w.model);
  w.model.controllers.pd_joints.back().implicit = false;
  EXPECT_EQ(implicit_step_defect(w.model), "");
  w.model.joints.back().type = JointType::Revolute;
  try {
    Simulator sim(w.model, w.state, test::implicit_settings(0.01, Vec3(0, 0, -kG)));
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("geometrically-implicit"), std::string::npos) << e.what();
  }
}

// The pair filter's separating-axis bound: exact for two spheres, for an ellipsoid over a
// half-space (its support along the normal), for ellipsoids lined up along the centre line or
// side by side along an axis; below the true gap otherwise (turned ellipsoids).
TEST(ImplicitStage, TheSeparationBoundIsTheGapWhereItCanBeAndNeverAbove) {
  auto body = [](ImplicitFunction::Kind kind, const Vec3& radii, const Vec3& x,
                 const Quat& q = Quat::Identity()) {
    ImplicitBody b;
    b.shape.kind = kind;
    b.shape.radii = radii;
    b.position = x;
    b.orientation = q;
    return b;
  };
  using Kind = ImplicitFunction::Kind;
  const ImplicitBody s1 = body(Kind::Sphere, Vec3::Constant(0.5), Vec3::Zero());
  const ImplicitBody s2 = body(Kind::Sphere, Vec3::Constant(0.3), Vec3(1.0, 0.6, 0.0));
  EXPECT_NEAR(separation_bound(s1, s2), std::hypot(1.0, 0.6) - 0.8, 1e-15);
  ImplicitBody ground = body(Kind::HalfSpace, Vec3::Ones(), Vec3::Zero());
  ground.shape.normal = Vec3::UnitZ();
  // Turned by 0.4 rad about x: the lowest point is sqrt(b^2 sin^2 + c^2 cos^2) below the centre.
  const ImplicitBody egg = body(Kind::Ellipsoid, Vec3(0.3, 0.2, 0.5), Vec3(0.2, -0.1, 0.7),
                                Quat(Eigen::AngleAxisd(0.4, Vec3::UnitX())));
  const double below = std::hypot(0.2 * std::sin(0.4), 0.5 * std::cos(0.4));
  EXPECT_NEAR(separation_bound(ground, egg), 0.7 - below, 1e-15);
  EXPECT_NEAR(separation_bound(egg, ground), 0.7 - below, 1e-15);
  const ImplicitBody e1 = body(Kind::Ellipsoid, Vec3(0.5, 0.2, 0.2), Vec3::Zero());
  const ImplicitBody e2 = body(Kind::Superquadric, Vec3(0.3, 0.4, 0.4), Vec3(1.0, 0.0, 0.0));
  EXPECT_NEAR(separation_bound(e1, e2), 0.2, 1e-15);
  // Side by side along y, shifted along x: the gap 0.2 along y, not the centre line's -0.93.
  const ImplicitBody f1 = body(Kind::Ellipsoid, Vec3(1.0, 0.1, 0.1), Vec3::Zero());
  const ImplicitBody f2 = body(Kind::Ellipsoid, Vec3(1.0, 0.1, 0.1), Vec3(0.5, 0.4, 0.0));
  EXPECT_NEAR(separation_bound(f1, f2), 0.2, 1e-15);
  // Turned by 0.3 rad: the gap is between 0 and the 0.2 of the untouched axis.
  const ImplicitBody f3 = body(Kind::Ellipsoid, Vec3(1.0, 0.1, 0.1), Vec3(0.5, 0.4, 0.0),
                               Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())));
  EXPECT_LT(separation_bound(f1, f3), 0.2);
  EXPECT_GT(separation_bound(f1, f3), -0.2);
}

// A pair enters the problem when its surfaces may come within epsilon by the end of the step:
// a ball 5 cm above the ground falling at 10 m/s (10 cm a step at h = 0.01, epsilon 1 cm) lands
// on it instead of ending the step 5 cm inside, and two balls closing at 20 m/s meet.
TEST(ImplicitStage, FastBodiesDoNotPassIntoEachOther) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.0);
  const int ball = w.add_sphere("ball", 0.1, 1.0, Vec3(0, 0, 0.15), 0.0);
  const int left = w.add_sphere("left", 0.1, 1.0, Vec3(-0.25, 0, 1.0), 0.0);
  const int right = w.add_sphere("right", 0.1, 1.0, Vec3(0.25, 0, 1.0), 0.0);
  w.state.bodies[std::size_t(ball)].velocity = Vec3(0, 0, -10.0);
  w.state.bodies[std::size_t(left)].velocity = Vec3(10.0, 0, 0);
  w.state.bodies[std::size_t(right)].velocity = Vec3(-10.0, 0, 0);
  Settings s = test::implicit_settings(0.01, Vec3::Zero());
  s.epsilon = 0.01;
  Simulator sim(w.model, w.state, s);
  for (int k = 0; k < 5; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
  }
  const auto& b = sim.state().bodies;
  EXPECT_NEAR(b[std::size_t(ball)].position.z(), 0.1, 1e-9);
  EXPECT_GE((b[std::size_t(right)].position - b[std::size_t(left)].position).norm(), 0.2 - 1e-9);
}

}  // namespace
}  // namespace pegsim
