// The 2.5D model of seed 001's grasp (§6.4): planar bodies sliding on a supporting table, with
// the table's friction in the ellipsoidal law (5) against the body's weight N = m g. Against the
// closed forms of Coulomb friction: a disc sliding to rest, spinning to rest, and pushed by a
// force below and above mu N.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/dynamics/simulator.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A disc of radius 0.1 m and 2 kg on the table (no gravity in the plane), mu 0.3 against it, a
// torsion radius of 0.05 m.
struct Table {
  test::World w;
  int disc = 0;
  Table() {
    Body b;
    b.name = "disc";
    b.shape = Shape::circle(0.1);
    b.mass = 2.0;
    b.inertia = Mat3::Identity() * (0.5 * 2.0 * 0.01);
    b.support = {0.3, 0.05, kG};
    disc = w.add(b, Vec3::Zero());
  }
  Simulator simulator(double h) {
    Settings s = test::implicit_settings(h, Vec3::Zero());
    s.friction_directions = 2;
    return Simulator(w.model, w.state, s);
  }
  BodyState& start() { return w.state.bodies[std::size_t(disc)]; }
};

// Sliding at 2 m/s it decelerates at mu g = 2.943 m/s^2 and stops at t = 0.6796 s, then stays.
TEST(ImplicitSupport, ADiscSlidesToRestAtMuG) {
  Table t;
  t.start().velocity = Vec3(2.0, 0, 0);
  const double h = 1e-3, a = 0.3 * kG;
  Simulator sim = t.simulator(h);
  for (int k = 1; k <= 1000; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    const double v = sim.state().bodies[std::size_t(t.disc)].velocity.x();
    EXPECT_NEAR(v, std::max(0.0, 2.0 - a * k * h), 1e-9) << "step " << k;
  }
  // x = h sum_k v_k of semi-implicit Euler: v0^2 / (2a) less h v0 / 2 (and the last partial step).
  EXPECT_NEAR(sim.state().bodies[std::size_t(t.disc)].position.x(), 4.0 / (2.0 * a) - h,
              2e-3 * h + h);
}

// Spinning at 10 rad/s it slows at e_r mu m g / I = 29.43 rad/s^2 without moving its centre.
TEST(ImplicitSupport, ASpinningDiscStopsAtTheTorsionalRate) {
  Table t;
  t.start().angular_velocity = Vec3(0, 0, 10.0);
  const double h = 1e-3, alpha = 0.05 * 0.3 * 2.0 * kG / (0.5 * 2.0 * 0.01);
  Simulator sim = t.simulator(h);
  for (int k = 1; k <= 500; ++k) {
    ASSERT_FALSE(sim.step().failed);
    const BodyState& s = sim.state().bodies[std::size_t(t.disc)];
    EXPECT_NEAR(s.angular_velocity.z(), std::max(0.0, 10.0 - alpha * k * h), 1e-9) << k;
    EXPECT_LE(s.velocity.norm(), 1e-12);
  }
}

// Pushed by 5 N < mu m g = 5.886 N it stays; by 8 N it accelerates at (8 - 5.886) / 2.
TEST(ImplicitSupport, APushBelowMuNStaysAndAboveAccelerates) {
  for (const double force : {5.0, 8.0}) {
    Table t;
    Simulator sim = t.simulator(0.01);
    for (int k = 0; k < 100; ++k) {
      sim.apply_wrench(t.disc, Vec3(force, 0, 0), Vec3::Zero());
      ASSERT_FALSE(sim.step().failed);
    }
    const double a = std::max(0.0, (force - 0.3 * 2.0 * kG) / 2.0);
    EXPECT_NEAR(sim.state().bodies[std::size_t(t.disc)].velocity.x(), a * 1.0, 1e-9) << force;
  }
}

// Only the geometrically implicit formulation models the table: the others refuse the model,
// naming the body.
TEST(ImplicitSupport, OtherFormulationsRefuseIt) {
  Table t;
  Settings s = test::step_settings(0.01);
  s.friction_directions = 2;
  try {
    Simulator sim(t.w.model, t.w.state, s);
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("body 'disc' has support_friction"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pegsim
