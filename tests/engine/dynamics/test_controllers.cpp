// Controllers (stage 1; RPIsim's userFunction, thesis §6.5): a user controller runs once at the
// start of every step; a PD joint controller gives the analytic second-order response; timed
// wrenches act exactly in their interval; the applied wrenches in the report replay the run.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/controllers/pd_joint_controller.hpp"
#include "engine/controllers/wrench_schedule.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rates.hpp"
#include "engine/kinematics/trajectory.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

// Records the times it is called at and pushes body 0 with 1 N along x.
struct Recorder : Controller {
  std::vector<double>* times;
  explicit Recorder(std::vector<double>* t) : times(t) {}
  void control(const Model&, const State& state, const Settings&, WrenchSink& out) override {
    times->push_back(state.time);
    out.add(0, Vec3(1, 0, 0), Vec3::Zero());
  }
};

TEST(Controllers, UserControllerRunsAtTheStartOfEveryStep) {
  test::World w;
  w.add_sphere("ball", 0.1, 2.0, Vec3::Zero());
  std::vector<double> times;
  Simulator sim(w.model, w.state, test::step_settings(0.1));
  sim.add_controller(std::make_unique<Recorder>(&times));
  for (int n = 0; n < 5; ++n) {
    const StepReport& r = sim.step();
    EXPECT_EQ(r.applied_force[0], Vec3(1, 0, 0));  // the report holds the controller's wrench
  }
  ASSERT_EQ(times.size(), 5u);
  for (int n = 0; n < 5; ++n) EXPECT_NEAR(times[n], 0.1 * n, 1e-12);
  EXPECT_NEAR(sim.state().bodies[0].velocity.x(), 5 * 0.1 * 1.0 / 2.0, 1e-12);  // F t / m
}

TEST(Controllers, TrajectoriesGiveValueAndRate) {
  Trajectory c;
  c.value = 0.7;
  EXPECT_EQ(evaluate(c, 3.0).value, 0.7);
  EXPECT_EQ(evaluate(c, 3.0).rate, 0.0);
  Trajectory s;
  s.kind = Trajectory::Kind::Sinusoid;
  s.offset = 0.1, s.amplitude = 2.0, s.angular_frequency = 3.0, s.phase = 0.5;
  EXPECT_NEAR(evaluate(s, 0.4).value, 0.1 + 2.0 * std::sin(1.7), 1e-12);
  EXPECT_NEAR(evaluate(s, 0.4).rate, 6.0 * std::cos(1.7), 1e-12);
  Trajectory p;
  p.kind = Trajectory::Kind::Waypoints;
  p.waypoints = {{1.0, 0.0}, {2.0, 1.0}, {4.0, -1.0}};
  EXPECT_EQ(evaluate(p, 0.0).value, 0.0);  // held before the first
  EXPECT_NEAR(evaluate(p, 1.5).value, 0.5, 1e-15);
  EXPECT_NEAR(evaluate(p, 1.5).rate, 1.0, 1e-15);
  EXPECT_NEAR(evaluate(p, 3.0).value, 0.0, 1e-15);
  EXPECT_NEAR(evaluate(p, 3.0).rate, -1.0, 1e-15);
  EXPECT_EQ(evaluate(p, 9.0).value, -1.0);  // held after the last
  EXPECT_EQ(evaluate(p, 9.0).rate, 0.0);
}

// A plate on a hinge (no gravity), I = 1/6 kg m^2, under PD control towards a constant 1 rad:
// I x'' = kp (1 - x) - kd x' with kp = 6, kd = 0.6, so omega_n = 6 rad/s and zeta = 0.3. The
// controller acts at the start of each step (explicit), the joint integrates semi-implicitly:
//   x'_{n+1} = x'_n + h (kp (1 - x_n) - kd x'_n) / I,  x_{n+1} = x_n + h x'_{n+1},
// which the run follows to rounding; that recurrence is within O(h) of the analytic response
//   x(t) = 1 - exp(-zeta wn t) (cos(wd t) + zeta / sqrt(1 - zeta^2) sin(wd t)).
TEST(Controllers, PdJointTracksAConstantTargetWithTheSecondOrderResponse) {
  test::World w;
  const int plate = w.add_box("plate", Vec3(1.0, 1.0, 0.2), 1.0, Vec3(0, 0, 2));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, plate, Vec3(0, 0, 2), Vec3::UnitZ()));
  PdJointSpec pd;
  pd.joint = 0;
  pd.kp = 6.0;
  pd.kd = 0.6;
  pd.target.value = 1.0;
  w.model.controllers.pd_joints.push_back(pd);
  const double h = 0.001, I = 2.0 / 12.0;
  const double wn = std::sqrt(pd.kp / I), zeta = pd.kd / (2.0 * std::sqrt(pd.kp * I));
  const double wd = wn * std::sqrt(1.0 - zeta * zeta);
  Simulator sim(w.model, w.state, test::step_settings(h));
  double x = 0.0, v = 0.0, worst_discrete = 0.0, worst_analytic = 0.0, peak = 0.0;
  for (int n = 1; n <= 3000; ++n) {
    ASSERT_FALSE(sim.step().failed);
    v += h * (pd.kp * (1.0 - x) - pd.kd * v) / I;
    x += h * v;
    const double angle = sim.last_report().joints[0].angle;
    const double t = n * h;
    const double analytic =
        1.0 - std::exp(-zeta * wn * t) *
                  (std::cos(wd * t) + zeta / std::sqrt(1.0 - zeta * zeta) * std::sin(wd * t));
    worst_discrete = std::max(worst_discrete, std::abs(angle - x));
    worst_analytic = std::max(worst_analytic, std::abs(angle - analytic));
    peak = std::max(peak, angle);
  }
  EXPECT_LE(worst_discrete, 1e-9);
  EXPECT_LE(worst_analytic, 5e-3);
  // Overshoot exp(-pi zeta / sqrt(1 - zeta^2)) = 37.2 %.
  EXPECT_NEAR(peak - 1.0, std::exp(-M_PI * zeta / std::sqrt(1.0 - zeta * zeta)), 5e-3);
  std::printf("PD step response: |x - recurrence| <= %.1e, |x - analytic| <= %.1e rad\n",
              worst_discrete, worst_analytic);
}

// The PD effort saturates at max_effort and acts between the two bodies only: equal and
// opposite torques, so a free pair keeps its total angular momentum.
TEST(Controllers, PdEffortIsClampedAndActsBetweenTheBodies) {
  test::World w;
  const int a = w.add_box("a", Vec3(1.0, 1.0, 0.1), 1.0, Vec3(0, 0, 0));
  const int b = w.add_box("b", Vec3(1.0, 1.0, 0.1), 1.0, Vec3(0, 0, 0.2));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, a, b, Vec3(0, 0, 0.1), Vec3::UnitZ()));
  PdJointSpec pd;
  pd.joint = 0;
  pd.kp = 100.0;
  pd.max_effort = 0.5;
  pd.target.value = 1.0;
  w.model.controllers.pd_joints.push_back(pd);
  PdJointController probe(pd);
  EXPECT_EQ(probe.effort(w.model, w.state), 0.5);
  Simulator sim(w.model, w.state, test::step_settings(0.01));
  for (int n = 0; n < 50; ++n) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed);
    EXPECT_NEAR((r.applied_torque[a] + r.applied_torque[b]).norm(), 0.0, 1e-15);
  }
  const Vec3 L = sim.state().bodies[a].angular_velocity + sim.state().bodies[b].angular_velocity;
  EXPECT_LE(L.norm(), 1e-9);
  EXPECT_GT(sim.last_report().joints[0].angle, 0.1);
}

// A PD controller on a prismatic joint drives a slider to a target displacement.
TEST(Controllers, PdOnAPrismaticJointReachesItsTarget) {
  test::World w;
  const int box = w.add_box("slider", Vec3(0.2, 0.2, 0.2), 2.0, Vec3(0, 0, 1));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Prismatic, -1, box, Vec3(0, 0, 1), Vec3::UnitX()));
  PdJointSpec pd;
  pd.joint = 0;
  pd.kp = 50.0;
  pd.kd = 20.0;  // zeta = 20 / (2 sqrt(50 * 2)) = 1: critically damped
  pd.target.value = 0.3;
  w.model.controllers.pd_joints.push_back(pd);
  Simulator sim(w.model, w.state, test::step_settings(0.001));
  for (int n = 0; n < 5000; ++n) ASSERT_FALSE(sim.step().failed);
  EXPECT_NEAR(sim.last_report().joints[0].displacement, 0.3, 1e-6);
  EXPECT_LE(sim.last_report().joints[0].position_error, 1e-9);
}

// A 2 N push on a 0.5 kg ball during [0.1, 0.3) s at h = 0.01 acts on exactly the 20 steps that
// start in the interval, so the ball ends at 2 * 0.2 / 0.5 = 0.8 m/s; its point of application
// (0, 1, 0) in the body frame adds the moment R (0, 1, 0) x (2, 0, 0).
TEST(Controllers, TimedWrenchActsExactlyInItsInterval) {
  test::World w;
  w.add_sphere("ball", 0.1, 0.5, Vec3::Zero());
  WrenchSpec push;
  push.body = 0;
  push.force = Vec3(2, 0, 0);
  push.point = Vec3(0, 1, 0);
  push.start = 0.1;
  push.end = 0.3;
  w.model.controllers.wrenches.push_back(push);
  Simulator sim(w.model, w.state, test::step_settings(0.01));
  int active = 0;
  for (int n = 0; n < 50; ++n) {
    const double t = sim.state().time;
    const Vec3 arm = sim.state().bodies[0].orientation * Vec3(0, 1, 0);  // the ball turns
    const StepReport& r = sim.step();
    const bool on = r.applied_force[0].x() != 0.0;
    active += on;
    EXPECT_EQ(on, n >= 10 && n < 30) << "step starting at " << t;
    if (on) {
      EXPECT_LE((r.applied_torque[0] - arm.cross(Vec3(2, 0, 0))).norm(), 1e-12);
    }
  }
  EXPECT_EQ(active, 20);
  EXPECT_NEAR(sim.state().bodies[0].velocity.x(), 0.8, 1e-12);
}

// The report's applied wrench replays the run: a second simulator without controllers, given
// each step's recorded wrench with set_wrench, follows the controlled run bit for bit.
TEST(Controllers, RecordedWrenchesReplayAControlledRunExactly) {
  test::World w;
  const int rod = w.add_box("rod", Vec3(0.1, 0.1, 1.0), 1.0, Vec3(0, 0, -0.5));
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, rod, Vec3::Zero(), Vec3::UnitX()));
  PdJointSpec pd;
  pd.joint = 0;
  pd.kp = 50.0;
  pd.kd = 5.0;
  pd.target.kind = Trajectory::Kind::Sinusoid;
  pd.target.amplitude = 1.0;
  pd.target.angular_frequency = 1.0;  // sin(0.01 step) at h = 0.01, as Script 7
  w.model.controllers.pd_joints.push_back(pd);
  Settings s;
  s.h = 0.01;
  Simulator controlled(w.model, w.state, s);
  Model plain = w.model;
  plain.controllers = {};
  Simulator replay(plain, w.state, s);
  for (int n = 0; n < 300; ++n) {
    const StepReport& r = controlled.step();
    replay.set_wrench(rod, r.applied_force[rod], r.applied_torque[rod]);
    replay.step();
    ASSERT_EQ(replay.state().bodies[rod].position, controlled.state().bodies[rod].position) << n;
    ASSERT_EQ(replay.state().bodies[rod].orientation.coeffs(),
              controlled.state().bodies[rod].orientation.coeffs())
        << n;
  }
}

TEST(Controllers, SimulatorRefusesControllersOfMissingJointsOrBodies) {
  test::World w;
  w.add_sphere("ball", 0.1, 0.5, Vec3::Zero());
  Model m = w.model;
  PdJointSpec pd;
  pd.joint = 0;
  m.controllers.pd_joints.push_back(pd);
  EXPECT_THROW(Simulator(m, w.state, Settings{}), std::invalid_argument);
  m = w.model;
  WrenchSpec push;
  push.body = 3;
  m.controllers.wrenches.push_back(push);
  EXPECT_THROW(Simulator(m, w.state, Settings{}), std::invalid_argument);
}

}  // namespace
}  // namespace pegsim
