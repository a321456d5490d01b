// Joint-space damping (beyond RPIsim): the implicit damper of joint_damping.hpp against the
// analytic decay of I x'' = -c x', x'(t) = x'(0) exp(-c t / I), and its backward-Euler form
// x'_{n+1} = x'_n / (1 + c h / I).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rates.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

// A 1 kg plate 1 x 1 x 0.2 m spinning at 5 rad/s on a hinge along z through its centre:
// I_z = m (1 + 1) / 12.
TEST(JointDamping, RevoluteSpinDecaysAtTheAnalyticRate) {
  test::World w;
  const int plate = w.add_box("plate", Vec3(1.0, 1.0, 0.2), 1.0, Vec3(0, 0, 2));
  Joint hinge = make_joint(w.state, JointType::Revolute, -1, plate, Vec3(0, 0, 2), Vec3::UnitZ());
  const double c = 0.1, I = 2.0 / 12.0, h = 0.001, omega0 = 5.0;
  hinge.angular_damping = c;
  w.model.joints.push_back(hinge);
  w.state.bodies[plate].angular_velocity = Vec3(0, 0, omega0);
  Simulator sim(w.model, w.state, test::step_settings(h));
  double discrete = omega0;
  for (int n = 1; n <= 1000; ++n) {
    ASSERT_FALSE(sim.step().failed);
    discrete /= 1.0 + c * h / I;
    const double rate = joint_rates(sim.state(), sim.model().joints[0]).angle;
    EXPECT_NEAR(rate, discrete, 1e-9 * omega0) << n;
    EXPECT_LE((sim.state().bodies[plate].position - Vec3(0, 0, 2)).norm(), 1e-9) << n;
  }
  // Continuous answer at t = 1 s: exp(-0.6); backward Euler is within c^2 h t / (2 I^2).
  const double rate = joint_rates(sim.state(), sim.model().joints[0]).angle;
  const double exact = omega0 * std::exp(-c * 1.0 / I);
  EXPECT_NEAR(rate / exact, 1.0, 2e-4) << rate << " vs " << exact;
  EXPECT_GT(std::abs(rate / exact - 1.0), 1e-5);  // the O(h) difference is there: not explicit
}

// A 2 kg slider on a frictionless rail along x, no gravity, pushed at 3 m/s: v_{n+1} =
// v_n / (1 + c h / m), and a stiff damper (c h / m = 10) is stable where an explicit one blows up.
TEST(JointDamping, PrismaticSlideDecaysAndAStiffDamperStaysStable) {
  for (const double c : {0.5, 2000.0}) {
    test::World w;
    const int box = w.add_box("slider", Vec3(0.2, 0.2, 0.2), 2.0, Vec3(0, 0, 1));
    Joint rail = make_joint(w.state, JointType::Prismatic, -1, box, Vec3(0, 0, 1), Vec3::UnitX());
    rail.linear_damping = c;
    w.model.joints.push_back(rail);
    w.state.bodies[box].velocity = Vec3(3.0, 0, 0);
    const double h = 0.01, m = 2.0;
    Simulator sim(w.model, w.state, test::step_settings(h));
    double discrete = 3.0;
    for (int n = 1; n <= 200; ++n) {
      ASSERT_FALSE(sim.step().failed);
      discrete /= 1.0 + c * h / m;
      EXPECT_NEAR(sim.state().bodies[box].velocity.x(), discrete, 1e-9) << c << " " << n;
      EXPECT_NEAR(joint_rates(sim.state(), sim.model().joints[0]).displacement, discrete, 1e-9);
    }
  }
}

// Damping acts on the relative motion only: two plates on a damped hinge in space keep their
// total angular momentum about the hinge while their relative spin decays.
TEST(JointDamping, DampingBetweenTwoBodiesConservesMomentum) {
  test::World w;
  const int a = w.add_box("a", Vec3(1.0, 1.0, 0.1), 1.0, Vec3(0, 0, 0));
  const int b = w.add_box("b", Vec3(1.0, 1.0, 0.1), 1.0, Vec3(0, 0, 0.2));
  Joint hinge = make_joint(w.state, JointType::Revolute, a, b, Vec3(0, 0, 0.1), Vec3::UnitZ());
  hinge.angular_damping = 0.05;
  w.model.joints.push_back(hinge);
  w.state.bodies[a].angular_velocity = Vec3(0, 0, 4.0);
  w.state.bodies[b].angular_velocity = Vec3(0, 0, -2.0);
  Simulator sim(w.model, w.state, test::step_settings(0.005));
  for (int n = 0; n < 2000; ++n) ASSERT_FALSE(sim.step().failed);
  const double wa = sim.state().bodies[a].angular_velocity.z();
  const double wb = sim.state().bodies[b].angular_velocity.z();
  EXPECT_NEAR(wa + wb, 2.0, 1e-9);  // equal inertias: the mean spin is kept
  // Relative spin 6 rad/s decays by 1 / (1 + c h (1/I + 1/I)) per step, I = 1/6.
  const double expected = 6.0 * std::pow(1.0 + 0.05 * 0.005 * 12.0, -2000);
  EXPECT_NEAR(wa - wb, expected, 1e-6);
}

}  // namespace
}  // namespace pegsim
