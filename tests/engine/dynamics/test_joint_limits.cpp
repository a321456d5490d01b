// Joint limits as unilateral rows (joint_limits.hpp): the coordinate never passes its bound,
// a stop takes exactly the momentum that would carry the joint past it (a perfectly inelastic
// stop, as a contact's normal row (2.27) is), and a resting stop carries the static load.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rates.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A plate spinning at 2 rad/s about a hinge through its centre (no gravity) hits an upper
// angle limit of 0.5 rad: the stop's impulses add up to -I omega0 and the plate stays at 0.5.
TEST(JointLimits, AngleStopTakesTheAngularMomentum) {
  test::World w;
  const int plate = w.add_box("plate", Vec3(1.0, 1.0, 0.2), 1.0, Vec3(0, 0, 2));
  Joint hinge = make_joint(w.state, JointType::Revolute, -1, plate, Vec3(0, 0, 2), Vec3::UnitZ());
  hinge.angle_limit.lower = -1.0;
  hinge.angle_limit.upper = 0.5;
  w.model.joints.push_back(hinge);
  const double I = 2.0 / 12.0, omega0 = 2.0;
  w.state.bodies[plate].angular_velocity = Vec3(0, 0, omega0);
  Simulator sim(w.model, w.state, test::step_settings(0.01, Vec3::Zero()));
  double total = 0.0, worst = -1.0;
  for (int n = 0; n < 100; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_EQ(r.joint_limit_rows, 2);
    total += r.joints[0].angle_limit_impulse;
    worst = std::max(worst, r.joints[0].angle);
    EXPECT_LE(r.joints[0].angle_limit_impulse, 0.0);  // an upper stop only pushes down
  }
  EXPECT_LE(worst, 0.5 + 1e-9);
  EXPECT_NEAR(sim.last_report().joints[0].angle, 0.5, 1e-9);
  EXPECT_NEAR(total, -I * omega0, 1e-9);
  EXPECT_NEAR(joint_rates(sim.state(), sim.model().joints[0]).angle, 0.0, 1e-9);
}

// A joint whose range is not about zero (a robot's, [-0.02, 3.75] rad) keeps its own zero
// through angle_offset: the plate starts at 1.87 rad (the frames coincide there), spins at
// 2 rad/s and stops at 3.75 rad, beyond pi, taking the same momentum as above.
TEST(JointLimits, AngleOffsetCarriesARangeBeyondPi) {
  test::World w;
  const int plate = w.add_box("plate", Vec3(1.0, 1.0, 0.2), 1.0, Vec3(0, 0, 2));
  Joint hinge = make_joint(w.state, JointType::Revolute, -1, plate, Vec3(0, 0, 2), Vec3::UnitZ());
  hinge.angle_offset = 0.5 * (-0.02 + 3.75);
  hinge.angle_limit = {-0.02, 3.75};
  w.model.joints.push_back(hinge);
  const double I = 2.0 / 12.0, omega0 = 2.0;
  w.state.bodies[plate].angular_velocity = Vec3(0, 0, omega0);
  Simulator sim(w.model, w.state, test::step_settings(0.01, Vec3::Zero()));
  EXPECT_DOUBLE_EQ(joint_coordinates(sim.state(), sim.model().joints[0]).angle, 1.865);
  double total = 0.0, worst = 0.0;
  for (int n = 0; n < 150; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    total += r.joints[0].angle_limit_impulse;
    worst = std::max(worst, r.joints[0].angle);
  }
  EXPECT_LE(worst, 3.75 + 1e-9);
  EXPECT_NEAR(sim.last_report().joints[0].angle, 3.75, 1e-9);
  EXPECT_NEAR(total, -I * omega0, 1e-9);
}

// A 1 kg rod 1 m long held horizontal by a hinge at one end and a lower angle stop at 0:
// the stop's impulse per step is the gravity moment m g L/2 times h, and the rod does not sag.
TEST(JointLimits, RestingStopCarriesTheGravityMoment) {
  test::World w;
  const int rod = w.add_box("rod", Vec3(0.1, 1.0, 0.1), 1.0, Vec3(0, 0.5, 1));
  Joint hinge = make_joint(w.state, JointType::Revolute, -1, rod, Vec3(0, 0, 1), Vec3::UnitX());
  hinge.angle_limit.lower = 0.0;  // gravity turns the rod towards negative angles about x
  w.model.joints.push_back(hinge);
  const double h = 0.01;
  Simulator sim(w.model, w.state, test::step_settings(h, Vec3(0, 0, -kG)));
  for (int n = 0; n < 50; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_NEAR(r.joints[0].angle, 0.0, 1e-9) << n;
    EXPECT_NEAR(r.joints[0].angle_limit_impulse, kG * 0.5 * h, 1e-9) << n;
  }
}

// A 2 kg slider on a frictionless rail tilted 30 degrees from the vertical stops at a
// displacement of 0.1 m: it never passes it, and resting there the stop carries m g cos(30) h.
TEST(JointLimits, PrismaticStopHoldsTheSlider) {
  test::World w;
  const int box = w.add_box("slider", Vec3(0.2, 0.2, 0.2), 2.0, Vec3(0, 0, 1));
  const Vec3 axis = Eigen::AngleAxisd(M_PI / 6, Vec3::UnitX()) * Vec3(0, 0, -1);
  Joint rail = make_joint(w.state, JointType::Prismatic, -1, box, Vec3(0, 0, 1), axis);
  rail.displacement_limit.upper = 0.1;
  w.model.joints.push_back(rail);
  const double h = 0.01;
  Simulator sim(w.model, w.state, test::step_settings(h, Vec3(0, 0, -kG)));
  for (int n = 0; n < 100; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_LE(r.joints[0].displacement, 0.1 + 1e-9) << n;
  }
  const StepReport& r = sim.last_report();
  EXPECT_NEAR(r.joints[0].displacement, 0.1, 1e-9);
  EXPECT_NEAR(r.joints[0].displacement_limit_impulse, -2.0 * kG * std::cos(M_PI / 6) * h, 1e-9);
  EXPECT_LE(r.joints[0].position_error, 1e-9);
}

// A swinging pendulum between stops at +-0.4 rad bounces between them without passing either
// (revolute about x, 1 kg rod 1 m; make_joint takes the pose it is built in, 0.3 rad from
// hanging, as angle 0, so it hangs at -0.3; released there at 4 rad/s).
TEST(JointLimits, SwingingPendulumStaysBetweenItsStops) {
  test::World w;
  const Quat tilt(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
  const int rod = w.add_box("rod", Vec3(0.1, 0.1, 1.0), 1.0, tilt * Vec3(0, 0, -0.5), tilt);
  Joint hinge = make_joint(w.state, JointType::Revolute, -1, rod, Vec3::Zero(), Vec3::UnitX());
  hinge.angle_limit = {-0.4, 0.4};
  w.model.joints.push_back(hinge);
  w.state.bodies[rod].angular_velocity = Vec3(4.0, 0, 0);
  w.state.bodies[rod].velocity = Vec3(4.0, 0, 0).cross(tilt * Vec3(0, 0, -0.5));
  Simulator sim(w.model, w.state, test::step_settings(0.005, Vec3(0, 0, -kG)));
  int upper_hits = 0, lower_hits = 0;
  for (int n = 0; n < 1000; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_LE(std::abs(r.joints[0].angle), 0.4 + 1e-9) << n;
    EXPECT_LE(r.joints[0].position_error, 5e-4) << n;  // the linearized rows at 4 rad/s
    upper_hits += r.joints[0].angle_limit_impulse < 0.0;
    lower_hits += r.joints[0].angle_limit_impulse > 0.0;
  }
  EXPECT_GT(upper_hits, 0);
  EXPECT_GT(lower_hits, 0);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// Every contact model takes joint limits: PEG's and LNC's slack rows (4.44) are coupled to
// the limit columns (test_constraint_problem.cpp, SlackRowsFeelTheJointLimitImpulses).
TEST(JointLimits, EveryContactModelAcceptsJointLimits) {
  Model model;
  model.bodies.resize(1);
  Joint j;
  j.name = "hinge";
  j.body_b = 0;
  j.angle_limit.upper = 0.5;
  model.joints.push_back(j);
  Settings s;
  for (ContactModel m : {ContactModel::Standard, ContactModel::Lnc, ContactModel::Peg}) {
    s.contact_model = m;
    EXPECT_EQ(check_settings(s, model), "") << to_string(m);
  }
}

}  // namespace
}  // namespace pegsim
