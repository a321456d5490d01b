// Implicit PD drives (joint_drives.hpp): the effort taken at the end of the step follows the
// backward Euler recurrence of I x'' = kp (x_d - x) - kd x' to rounding, is stable at gains the
// explicit controller cannot take, holds a load at the static deflection, and gives the same
// steps under the Schur form and the mixed LCP.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "engine/kinematics/trajectory.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

// A plate (I = 1/6 kg m^2 about its hinge z through the centre, no gravity) driven towards a
// constant 1 rad.
struct Plate {
  test::World w;
  static constexpr double I = 2.0 / 12.0;
  Plate(double kp, double kd) {
    const int plate = w.add_box("plate", Vec3(1.0, 1.0, 0.2), 1.0, Vec3(0, 0, 2));
    w.model.joints.push_back(
        make_joint(w.state, JointType::Revolute, -1, plate, Vec3(0, 0, 2), Vec3::UnitZ()));
    PdJointSpec pd;
    pd.joint = 0;
    pd.kp = kp;
    pd.kd = kd;
    pd.target.value = 1.0;
    pd.implicit = true;
    w.model.controllers.pd_joints.push_back(pd);
  }
};

// Backward Euler of I x'' = kp (1 - x) - kd x':
//   I (v_{n+1} - v_n) = h (kp (1 - x_n - h v_{n+1}) - kd v_{n+1}),  x_{n+1} = x_n + h v_{n+1},
// and the effort of step n+1 is kp (1 - x_{n+1}) - kd v_{n+1}.
TEST(JointDrives, ImplicitEffortFollowsTheBackwardEulerRecurrence) {
  const double kp = 6.0, kd = 0.6, h = 0.01;
  Plate p(kp, kd);
  Simulator sim(p.w.model, p.w.state, test::step_settings(h, Vec3::Zero()));
  double x = 0.0, v = 0.0, worst = 0.0, worst_effort = 0.0;
  for (int n = 0; n < 500; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    v = (Plate::I * v + h * kp * (1.0 - x)) / (Plate::I + h * kd + h * h * kp);
    x += h * v;
    worst = std::max(worst, std::abs(r.joints[0].angle - x));
    worst_effort =
        std::max(worst_effort, std::abs(r.joints[0].drive_effort - (kp * (1.0 - x) - kd * v)));
  }
  EXPECT_LE(worst, 1e-10);
  EXPECT_LE(worst_effort, 1e-8);
  EXPECT_NEAR(x, 1.0, 1e-3);  // it settles
  // No applied wrench: the drive's effort is the joint row's, not an external torque.
  EXPECT_EQ(sim.last_report().applied_torque[0], Vec3::Zero());
}

// Gains at which the explicit effort overshoots without bound (h kd / I = 600 > 2): the implicit
// one reaches the target without overshoot and stays there.
TEST(JointDrives, StiffGainsAreStable) {
  const double kp = 1e6, kd = 1e4, h = 0.01;
  Plate p(kp, kd);
  Simulator sim(p.w.model, p.w.state, test::step_settings(h, Vec3::Zero()));
  double peak = 0.0;
  for (int n = 0; n < 200; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    peak = std::max(peak, r.joints[0].angle);
  }
  EXPECT_LE(peak, 1.0 + 1e-9);
  EXPECT_NEAR(sim.last_report().joints[0].angle, 1.0, 1e-9);
  EXPECT_NEAR(sim.state().bodies[0].angular_velocity.norm(), 0.0, 1e-8);
}

// A 1 kg rod 1 m long, hinged about x at one end and held horizontal by a drive towards 0: at
// rest the drive carries the gravity moment, kp (0 - x) = m g d cos x with d = 0.5 m, so the
// rod droops to the root of that equation and the effort is m g d cos x.
TEST(JointDrives, HoldsALoadAtTheStaticDeflection) {
  test::World w;
  const int rod = w.add_box("rod", Vec3(0.1, 1.0, 0.1), 1.0, Vec3(0, 0.5, 1));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, rod, Vec3(0, 0, 1), Vec3::UnitX()));
  PdJointSpec pd;
  pd.joint = 0;
  pd.kp = 200.0;
  pd.kd = 20.0;
  pd.implicit = true;
  w.model.controllers.pd_joints.push_back(pd);
  const double mgd = 9.81 * 0.5;
  double x = 0.0;  // root of kp (-x) = mgd cos x by fixed point (a contraction: mgd / kp < 1)
  for (int k = 0; k < 100; ++k) x = -mgd * std::cos(x) / pd.kp;
  Simulator sim(w.model, w.state, test::step_settings(0.01, Vec3(0, 0, -9.81)));
  for (int n = 0; n < 500; ++n) ASSERT_FALSE(sim.step().failed);
  const JointStepReport& j = sim.last_report().joints[0];
  EXPECT_NEAR(j.angle, x, 1e-9);
  EXPECT_NEAR(j.drive_effort, mgd * std::cos(x), 1e-7);
}

// A base carrying a slider on a prismatic joint, driven along waypoints, and an arm on a
// revolute joint, driven along a sinusoid.
struct Mechanism {
  test::World w;
  PdJointSpec slide, swing;
  explicit Mechanism(bool on_ground) {
    if (on_ground) w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
    const double z = on_ground ? 0.1 : 0.0;
    const int base = w.add_box("base", Vec3(1.0, 1.0, 0.2), 3.0, Vec3(0, 0, z));
    const int slider = w.add_box("slider", Vec3(0.2, 0.2, 0.2), 1.0, Vec3(0.3, 0.2, z + 0.3));
    const int arm = w.add_box("arm", Vec3(0.1, 0.1, 0.6), 0.5, Vec3(0, -0.35, z + 0.4));
    w.model.joints.push_back(make_joint(w.state, JointType::Prismatic, base, slider,
                                        Vec3(0.3, 0.2, z + 0.3), Vec3(1, 1, 0)));
    w.model.joints.push_back(make_joint(w.state, JointType::Revolute, base, arm,
                                        Vec3(0, -0.35, z + 0.1), Vec3::UnitX()));
    slide.joint = 0;
    slide.displacement = true;
    slide.kp = 50.0;
    slide.kd = 10.0;
    slide.implicit = true;
    slide.target.kind = Trajectory::Kind::Waypoints;
    slide.target.waypoints = {{0.0, 0.0}, {0.5, 0.3}, {1.0, -0.2}};
    swing.joint = 1;
    swing.kp = 30.0;
    swing.kd = 1.0;
    swing.implicit = true;
    swing.target.kind = Trajectory::Kind::Sinusoid;
    swing.target.amplitude = 0.8;
    swing.target.angular_frequency = 4.0;
    w.model.controllers.pd_joints = {slide, swing};
  }
};

// In free space the drives act between the bodies only: the total momentum stays zero, and
// the slider reaches its last waypoint.
TEST(JointDrives, DrivesBetweenBodiesConserveMomentum) {
  Mechanism m(false);
  Simulator sim(m.w.model, m.w.state, test::step_settings(0.005, Vec3::Zero()));
  const double masses[] = {3.0, 1.0, 0.5};
  double worst_momentum = 0.0;
  for (int n = 0; n < 600; ++n) {
    ASSERT_FALSE(sim.step().failed);
    Vec3 momentum = Vec3::Zero();
    for (int i = 0; i < 3; ++i) momentum += masses[i] * sim.state().bodies[i].velocity;
    worst_momentum = std::max(worst_momentum, momentum.norm());
  }
  EXPECT_LE(worst_momentum, 1e-10);
  EXPECT_NEAR(sim.last_report().joints[0].displacement, -0.2, 1e-3);
}

// On the ground (contact and friction with the base), the Schur form with Lemke and the mixed
// LCP with path, which keeps the drive rows as free rows, take the same steps.
TEST(JointDrives, SchurFormAndMixedLcpAgree) {
  Mechanism m(true);
  Settings schur = test::step_settings(0.005, Vec3(0, 0, -9.81));
  Settings mixed = schur;
  mixed.formulation = Formulation::MixedLcp;
  mixed.solver = "path";
  mixed.fallbacks = {};
  Simulator a(m.w.model, m.w.state, schur), b(m.w.model, m.w.state, mixed);
  double worst = 0.0;
  int mixed_solves = 0;
  for (int n = 0; n < 200; ++n) {  // 1 s: the slider's ramp up and its turn
    ASSERT_FALSE(a.step().failed);
    const StepReport& rb = b.step();
    ASSERT_FALSE(rb.failed) << rb.failure;
    mixed_solves += rb.problem_size > 0;
    for (int i = 1; i < 4; ++i)
      worst = std::max(worst, (a.state().bodies[i].position - b.state().bodies[i].position).norm());
  }
  EXPECT_EQ(mixed_solves, 200);  // the base rests on the ground: every step solves contacts
  EXPECT_LE(worst, 1e-8);
  std::printf("drives on the ground: schur vs mixed-lcp %.1e m\n", worst);
}

TEST(JointDrives, AnImplicitDriveTakesNoEffortBound) {
  Plate p(6.0, 0.6);
  p.w.model.controllers.pd_joints[0].max_effort = 1.0;
  EXPECT_THROW(Simulator(p.w.model, p.w.state, test::step_settings(0.01, Vec3::Zero())),
               std::invalid_argument);
}

}  // namespace
}  // namespace pegsim
