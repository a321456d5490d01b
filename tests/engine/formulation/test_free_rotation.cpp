// The gyroscopic term of Newton–Euler (2.7) for a torque-free tumbling body: explicit as in
// thesis (2.30) it feeds energy into the body; backward Euler (Settings::gyroscopic
// "implicit") never does. Invariants: kinetic energy and |L| of a torque-free body are
// constant in the exact motion (Euler's equations).
#include <gtest/gtest.h>

#include <algorithm>

#include "../dynamics/test_world.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/formulation/free_rotation.hpp"

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
    EXPECT_LT((free_rotation(w.model.bodies[box], s, 0.1, g).angular_velocity - s.angular_velocity)
                  .norm(),
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
    const Vec3 x = R.transpose() * free_rotation(body, s, h, Gyroscopic::Implicit).angular_velocity;
    const Vec3 wb = R.transpose() * s.angular_velocity;
    const Vec3 f =
        body.inertia * (x - wb) + h * (x.cross(body.inertia * x) - R.transpose() * s.torque);
    EXPECT_LT(f.norm(), 1e-14);
    const double gap = (free_rotation(body, s, h, Gyroscopic::Explicit).angular_velocity -
                        free_rotation(body, s, h, Gyroscopic::Implicit).angular_velocity)
                           .norm();
    if (previous_gap > 0.0) {
      EXPECT_NEAR(previous_gap / gap, 4.0, 0.4);
    }
    previous_gap = gap;
  }
}

// The midpoint Lie algorithm (Gyroscopic::Midpoint): a torque-free body keeps its world
// angular momentum R J_b w_b and its kinetic energy, at any h |w|.
struct Drift {
  double momentum = 0.0;  // max over the run of |L(t) - L(0)| / |L(0)|, world L
  double energy = 0.0;    // max over the run of |T(t) / T(0) - 1|
  Vec3 final_w = Vec3::Zero();
  Quat final_q = Quat::Identity();
  bool failed = false;
};

Drift spin(Gyroscopic g, double h, const Vec3& w0, double duration) {
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  w.state.bodies[box].angular_velocity = w0;
  w.state.bodies[box].orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, -1, 2).normalized()));
  Settings s = test::step_settings(h);
  s.gyroscopic = g;
  Simulator sim(w.model, w.state, s);
  const Mat3 J = w.model.bodies[box].inertia;
  auto momentum = [&](const BodyState& b) {
    const Mat3 R = b.orientation.toRotationMatrix();
    return Vec3(R * J * R.transpose() * b.angular_velocity);
  };
  auto energy = [&](const BodyState& b) {
    const Mat3 R = b.orientation.toRotationMatrix();
    return 0.5 * b.angular_velocity.dot(R * J * R.transpose() * b.angular_velocity);
  };
  const Vec3 L0 = momentum(sim.state().bodies[box]);
  const double T0 = energy(sim.state().bodies[box]);
  Drift out;
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int k = 0; k < steps; ++k) {
    if (sim.step().failed) {
      out.failed = true;
      return out;
    }
    const BodyState& b = sim.state().bodies[box];
    out.momentum = std::max(out.momentum, (momentum(b) - L0).norm() / L0.norm());
    out.energy = std::max(out.energy, std::abs(energy(b) / T0 - 1.0));
  }
  out.final_w = sim.state().bodies[box].angular_velocity;
  out.final_q = sim.state().bodies[box].orientation;
  return out;
}

TEST(FreeRotation, MidpointKeepsWorldMomentumAndEnergyAtAnyStep) {
  // Near the unstable middle axis (|w| = 10 rad/s), 100 s, h |w| = 0.05 ... 2.
  const Vec3 w0(0.1, 10.0, 0.1);
  for (double hw : {0.05, 0.5, 1.0, 2.0}) {
    SCOPED_TRACE(hw);
    const Drift d = spin(Gyroscopic::Midpoint, hw / w0.norm(), w0, 100.0);
    ASSERT_FALSE(d.failed);
    EXPECT_LT(d.momentum, 1e-10);
    EXPECT_LT(d.energy, 1e-10);
  }
  // The backward Euler loses both at the same steps (h |w| = 1: over a third of L).
  const Drift implicit = spin(Gyroscopic::Implicit, 0.1, w0, 100.0);
  EXPECT_GT(implicit.momentum, 0.2);
}

TEST(FreeRotation, MidpointIsSecondOrder) {
  // The state at t = 1 s against a reference at h = 1e-4: halving h quarters the error.
  const Vec3 w0(1.0, 2.0, 3.0);
  const Drift ref = spin(Gyroscopic::Midpoint, 1e-4, w0, 1.0);
  auto error = [&](double h) {
    const Drift d = spin(Gyroscopic::Midpoint, h, w0, 1.0);
    return (d.final_w - ref.final_w).norm() + d.final_q.angularDistance(ref.final_q);
  };
  const double e1 = error(0.02), e2 = error(0.01);
  EXPECT_NEAR(e1 / e2, 4.0, 0.4) << e1 << " " << e2;
}

TEST(FreeRotation, MidpointRateSolvesItsEquation) {
  // w_{1/2} = J_b^-1 (L + L') / 2 with L' = exp(-h [w_{1/2}]x) L, to roundoff; the body turns
  // by w' + correction = R w_{1/2}, and w' is the end's body rate J_b^-1 L' in the end's frame.
  test::World w;
  const int box = w.add_box("box", Vec3(1, 2, 3), 1.0, Vec3::Zero());
  const Body& body = w.model.bodies[box];
  BodyState s = w.state.bodies[box];
  s.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  s.angular_velocity = Vec3(3.0, -1.0, 20.0);
  const Mat3 R = s.orientation.toRotationMatrix();
  const double h = 0.05;
  const FreeRotation f = free_rotation(body, s, h, Gyroscopic::Midpoint);
  const Vec3 half = R.transpose() * (f.angular_velocity + f.rotation_correction);
  const Vec3 L = body.inertia * (R.transpose() * s.angular_velocity);
  const Mat3 Q = Eigen::AngleAxisd(h * half.norm(), -half.normalized()).toRotationMatrix();
  const Mat3 R_end = R * Q.transpose();  // w' is in the frame of the step's end
  const Vec3 L_next = body.inertia * (R_end.transpose() * f.angular_velocity);
  EXPECT_LT((L_next - Q * L).norm(), 1e-12 * L.norm());
  EXPECT_LT((half - 0.5 * body.inertia.inverse() * (L + L_next)).norm(), 1e-12 * half.norm());
}

}  // namespace
}  // namespace pegsim
