// Joints (thesis §2.2.3) against analytic answers and invariants: pendulum period, prismatic
// slide, a glued pair, free spin about a hinge, joint error bounded, joints with contact.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A 1 kg rod 0.1 x 0.1 x 1 m hanging from a hinge about x at its top end, at the origin.
struct Pendulum {
  test::World w;
  int rod = -1;
  explicit Pendulum(double theta0) {
    const Quat tilt(Eigen::AngleAxisd(theta0, Vec3::UnitX()));
    rod = w.add_box("rod", Vec3(0.1, 0.1, 1.0), 1.0, tilt * Vec3(0, 0, -0.5), tilt);
    w.model.joints.push_back(
        make_joint(w.state, JointType::Revolute, -1, rod, Vec3::Zero(), Vec3::UnitX()));
  }
};

// Small oscillations of a physical pendulum: T = 2 pi sqrt(I_O / (m g d)), with
// I_O = m (L^2 + w^2) / 12 + m d^2, d = L / 2.
TEST(Joints, PendulumSwingsWithTheAnalyticPeriod) {
  Pendulum p(0.05);
  const double I_O = (1.0 + 0.01) / 12.0 + 0.25;
  const double period = 2.0 * M_PI * std::sqrt(I_O / (kG * 0.5));
  Simulator sim(p.w.model, p.w.state, test::step_settings(0.0005, Vec3(0, 0, -kG)));
  std::vector<double> crossings;  // times the angle changes sign upwards
  double previous = joint_coordinates(sim.state(), sim.model().joints[0]).angle;
  double worst_error = 0.0;
  while (sim.state().time < 3.5 * period) {
    ASSERT_FALSE(sim.step().failed);
    const double angle = joint_coordinates(sim.state(), sim.model().joints[0]).angle;
    if (previous < 0.0 && angle >= 0.0)
      crossings.push_back(sim.state().time - 0.0005 * angle / (angle - previous));
    previous = angle;
    worst_error = std::max(worst_error, joint_error(sim.state(), sim.model().joints[0]).position);
  }
  ASSERT_GE(crossings.size(), 3u);
  const double measured = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  // Finite amplitude lengthens the period by theta0^2 / 16 = 0.016 %; the step adds O(h).
  EXPECT_NEAR(measured / period, 1.0, 2e-3) << measured << " vs " << period;
  EXPECT_LE(worst_error, 1e-6);
}

// A slider on a frictionless rail tilted 30 degrees from the vertical: s(t) = g cos(30) t^2 / 2,
// which semi-implicit Euler reproduces as g cos(30) h^2 n (n + 1) / 2 after n steps.
TEST(Joints, PrismaticSlideFollowsTheGravityComponentAlongItsAxis) {
  test::World w;
  const int box = w.add_box("slider", Vec3(0.2, 0.2, 0.2), 2.0, Vec3(0, 0, 1));
  const Vec3 axis = Eigen::AngleAxisd(M_PI / 6, Vec3::UnitX()) * Vec3(0, 0, -1);
  w.model.joints.push_back(make_joint(w.state, JointType::Prismatic, -1, box, Vec3(0, 0, 1), axis));
  const double h = 0.01;
  Simulator sim(w.model, w.state, test::step_settings(h, Vec3(0, 0, -kG)));
  for (int n = 1; n <= 100; ++n) {
    ASSERT_FALSE(sim.step().failed);
    const double s = joint_coordinates(sim.state(), sim.model().joints[0]).displacement;
    EXPECT_NEAR(s, kG * std::cos(M_PI / 6) * h * h * n * (n + 1) / 2.0, 1e-9) << n;
  }
  const JointError e = joint_error(sim.state(), sim.model().joints[0]);
  EXPECT_LE(e.position, 1e-9);
  EXPECT_LE(e.angle, 1e-9);
}

// Two boxes glued by a fixed joint tumble in space: their relative pose never changes and the
// total momentum is conserved.
TEST(Joints, FixedJointKeepsAGluedPairRigidWhileItTumbles) {
  test::World w;
  const int a = w.add_box("a", Vec3(1, 0.5, 0.5), 1.0, Vec3(-0.5, 0, 0));
  const int b = w.add_box("b", Vec3(0.5, 0.5, 2.0), 3.0, Vec3(0.25 + 0.01, 0, 0.5));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Fixed, a, b, Vec3(0, 0, 0), Vec3::UnitZ()));
  w.state.bodies[a].velocity = Vec3(1, 0, 0);
  w.state.bodies[a].angular_velocity = Vec3(0.3, 2.0, -1.0);
  w.state.bodies[b].velocity = Vec3(0, 0.5, 0);
  Simulator sim(w.model, w.state, test::step_settings(0.002, Vec3::Zero()));
  double worst_position = 0.0, worst_angle = 0.0;
  Vec3 momentum0 = Vec3::Zero();
  for (int n = 0; n < 1000; ++n) {
    ASSERT_FALSE(sim.step().failed);
    const JointError e = joint_error(sim.state(), sim.model().joints[0]);
    worst_position = std::max(worst_position, e.position);
    worst_angle = std::max(worst_angle, e.angle);
    const Vec3 momentum =
        1.0 * sim.state().bodies[a].velocity + 3.0 * sim.state().bodies[b].velocity;
    if (n == 0) momentum0 = momentum;
    EXPECT_LE((momentum - momentum0).norm(), 1e-9) << n;
  }
  EXPECT_LE(worst_position, 1e-3);
  EXPECT_LE(worst_angle, 1e-3);
}

// A wheel on a hinge through its centre, no gravity: its spin about the hinge never changes
// and the hinge holds it in place.
TEST(Joints, WheelSpinsFreelyAboutItsHinge) {
  test::World w;
  const int wheel = w.add_box("wheel", Vec3(1.0, 1.0, 0.2), 1.0, Vec3(0, 0, 2));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, wheel, Vec3(0, 0, 2), Vec3::UnitZ()));
  w.state.bodies[wheel].angular_velocity = Vec3(0, 0, 5.0);
  Simulator sim(w.model, w.state, test::step_settings(0.01, Vec3::Zero()));
  for (int n = 0; n < 500; ++n) {
    ASSERT_FALSE(sim.step().failed);
    EXPECT_NEAR(sim.state().bodies[wheel].angular_velocity.z(), 5.0, 1e-9) << n;
    EXPECT_LE((sim.state().bodies[wheel].position - Vec3(0, 0, 2)).norm(), 1e-9) << n;
  }
  const double angle = joint_coordinates(sim.state(), sim.model().joints[0]).angle;
  EXPECT_NEAR(angle, std::remainder(5.0 * 5.0, 2 * M_PI), 1e-6);
}

// A spherical joint holds the end of a swinging rod: the anchor stays put in every direction.
TEST(Joints, SphericalJointHoldsTheAnchorOfASwingingRod) {
  test::World w;
  const Quat tilt(Eigen::AngleAxisd(0.6, Vec3(1, 1, 0).normalized()));
  const int rod = w.add_box("rod", Vec3(0.05, 0.05, 1.0), 1.0, tilt * Vec3(0, 0, -0.5), tilt);
  w.model.joints.push_back(
      make_joint(w.state, JointType::Spherical, -1, rod, Vec3::Zero(), Vec3::UnitZ()));
  w.state.bodies[rod].angular_velocity = Vec3(0, 0, 3.0);
  Simulator sim(w.model, w.state, test::step_settings(0.001, Vec3(0, 0, -kG)));
  double worst = 0.0;
  for (int n = 0; n < 2000; ++n) {
    ASSERT_FALSE(sim.step().failed);
    worst = std::max(worst, joint_error(sim.state(), sim.model().joints[0]).position);
  }
  EXPECT_LE(worst, 1e-5);
}

// A box hinged to the world along its bottom edge rests on the ground: joint rows and contact
// rows act together without penetration or failure.
TEST(Joints, HingedBoxRestsOnTheGround) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int box = w.add_box("box", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, box, Vec3(-0.5, 0, 0), Vec3::UnitY()));
  Simulator sim(w.model, w.state, test::step_settings(0.01, Vec3(0, 0, -kG)));
  for (int n = 0; n < 200; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_LE(r.max_penetration, 1e-6);
  }
  EXPECT_LE((sim.state().bodies[box].position - Vec3(0, 0, 0.5)).norm(), 1e-6);
  EXPECT_LE(joint_error(sim.state(), sim.model().joints[0]).position, 1e-9);
}

}  // namespace
}  // namespace pegsim
