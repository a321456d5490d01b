// The gyroscopic term of Newton–Euler (2.7) for a torque-free tumbling body: explicit as in
// thesis (2.30) it feeds energy into the body; backward Euler (Settings::gyroscopic
// "implicit") never does. Invariants: kinetic energy and |L| of a torque-free body are
// constant in the exact motion (Euler's equations).
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/dynamics/free_rotation.hpp"
#include "engine/dynamics/simulator.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

struct Tumble {
  double max_energy_ratio = 0.0;  // max over the run of T / T0
  double final_energy_ratio = 0.0;
  double final_momentum_ratio = 0.0;  // |L| / |L0|
  bool failed = false;
};

// A 1 x 2 x 3 box (principal inertias 13/12, 10/12, 5/12 for 1 kg) spinning near its axis of
// smallest inertia z, with no gravity and no contact.
Tumble tumble(Gyroscopic g, double h, const Vec3& w0, int steps) {
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  w.state.bodies[box].angular_velocity = w0;
  Settings s;
  s.gravity.setZero();
  s.h = h;
  s.gyroscopic = g;
  Simulator sim(w.model, w.state, s);
  const Mat3 J = w.model.bodies[box].inertia;
  auto energy = [&](const BodyState& b) {
    const Vec3 wb = b.orientation.toRotationMatrix().transpose() * b.angular_velocity;
    return 0.5 * wb.dot(J * wb);
  };
  auto momentum = [&](const BodyState& b) {
    const Vec3 wb = b.orientation.toRotationMatrix().transpose() * b.angular_velocity;
    return (J * wb).norm();
  };
  const double T0 = energy(sim.state().bodies[box]), L0 = momentum(sim.state().bodies[box]);
  Tumble out;
  for (int i = 0; i < steps; ++i) {
    if (sim.step().failed) {
      out.failed = true;
      return out;
    }
    out.max_energy_ratio = std::max(out.max_energy_ratio, energy(sim.state().bodies[box]) / T0);
  }
  out.final_energy_ratio = energy(sim.state().bodies[box]) / T0;
  out.final_momentum_ratio = momentum(sim.state().bodies[box]) / L0;
  return out;
}

TEST(FreeRotation, ImplicitGyroscopicTermNeverAddsEnergyToATumblingBody) {
  // h w = 0.1: the explicit term of (2.30) multiplies the wobble by about sqrt(1 + (h W)^2)
  // per step and the energy grows; backward Euler loses a little instead.
  const Vec3 w0(0.3, 0.2, 10.0);
  const Tumble ex = tumble(Gyroscopic::Explicit, 0.01, w0, 1000);
  const Tumble im = tumble(Gyroscopic::Implicit, 0.01, w0, 1000);
  ASSERT_FALSE(ex.failed);
  ASSERT_FALSE(im.failed);
  EXPECT_GT(ex.final_energy_ratio, 1.05);
  EXPECT_LE(im.max_energy_ratio, 1.0 + 1e-12);
  EXPECT_LE(im.final_momentum_ratio, 1.0 + 1e-12);
  // ... and its loss is a small fraction over 10 s.
  EXPECT_GT(im.final_energy_ratio, 0.9);
}

TEST(FreeRotation, ImplicitGyroscopicTermStaysBoundedWhereTheExplicitOneRunsAway) {
  // h w = 2 about the unstable middle axis (Dzhanibekov): the explicit step spins the body
  // up by orders of magnitude; the implicit one keeps T <= T0.
  const Vec3 w0(0.1, 100.0, 0.1);
  const Tumble ex = tumble(Gyroscopic::Explicit, 0.02, w0, 500);
  const Tumble im = tumble(Gyroscopic::Implicit, 0.02, w0, 500);
  EXPECT_TRUE(ex.failed || ex.max_energy_ratio > 100.0) << ex.max_energy_ratio;
  ASSERT_FALSE(im.failed);
  EXPECT_LE(im.max_energy_ratio, 1.0 + 1e-12);
}

TEST(FreeRotation, ConvergesToTheExactMotionAsTheStepShrinks) {
  // Spin about a principal axis is steady in the exact motion: w stays w0 (both treatments).
  // Off-axis, both are first order: halving h halves the energy error.
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  BodyState s = w.state.bodies[box];
  s.angular_velocity = Vec3(0, 0, 5);
  for (Gyroscopic g : {Gyroscopic::Explicit, Gyroscopic::Implicit})
    EXPECT_LT((free_angular_velocity(w.model.bodies[box], s, 0.1, g) - s.angular_velocity).norm(),
              1e-14);
  const Vec3 w0(1.0, 2.0, 3.0);
  const double e1 = std::abs(tumble(Gyroscopic::Implicit, 0.002, w0, 500).final_energy_ratio - 1);
  const double e2 = std::abs(tumble(Gyroscopic::Implicit, 0.001, w0, 1000).final_energy_ratio - 1);
  EXPECT_GT(e1, 0.0);
  EXPECT_NEAR(e1 / e2, 2.0, 0.2);
}

TEST(FreeRotation, ImplicitStepSolvesBackwardEulerAndDiffersFromTheExplicitByOrderH2) {
  // With torque and spin in a tilted body: the answer x satisfies the body-frame backward
  // Euler equation J_b (x - w_b) + h (x x J_b x - tau_b) = 0 to roundoff, and the two
  // treatments differ by O(h^2) (both are first order).
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  const Body& body = w.model.bodies[box];
  BodyState s = w.state.bodies[box];
  s.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  s.angular_velocity = Vec3(3.0, -1.0, 2.0);
  s.torque = Vec3(0.5, -1.0, 2.0);
  const Mat3 R = s.orientation.toRotationMatrix();
  double previous_gap = 0.0;
  for (double h : {0.02, 0.01}) {
    const Vec3 x = R.transpose() * free_angular_velocity(body, s, h, Gyroscopic::Implicit);
    const Vec3 wb = R.transpose() * s.angular_velocity;
    const Vec3 f = body.inertia * (x - wb) + h * (x.cross(body.inertia * x) - R.transpose() * s.torque);
    EXPECT_LT(f.norm(), 1e-14);
    const double gap = (free_angular_velocity(body, s, h, Gyroscopic::Explicit) -
                        free_angular_velocity(body, s, h, Gyroscopic::Implicit)).norm();
    if (previous_gap > 0.0) {
      EXPECT_NEAR(previous_gap / gap, 4.0, 0.4);
    }
    previous_gap = gap;
  }
}

}  // namespace
}  // namespace pegsim
