// Bodies on prismatic joints to the world under formulation geometrically-implicit, the paper's
// force-controlled gripper fingers (seed 001 §6.4): the joint's impulses hold every direction of
// the body's velocity but the axis. Against closed forms: a block sliding down a tilted slide, a
// finger pressing a fixed disc with a constant force.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A prismatic joint to the world along `axis` (world) for body b.
Joint slide(int b, const Vec3& axis) {
  Joint j;
  j.name = "slide";
  j.type = JointType::Prismatic;
  j.body_b = b;
  j.frame_a = Quat::FromTwoVectors(Vec3::UnitZ(), axis);
  return j;
}

// A block on a frictionless slide tilted 30 degrees, in 3D and in 2D: it moves along the slide at
// g sin 30 (semi-implicit Euler: v_k = a k h, x_K = a h^2 K (K + 1) / 2), without turning or
// leaving the line.
TEST(ImplicitSlides, ABlockSlidesDownATiltedSlideAtGSinTheta) {
  for (const bool planar : {false, true}) {
    test::World w;
    int block;
    if (planar) {
      Body b;
      b.name = "block";
      b.shape = Shape::convex_polygon(std::make_shared<Polygon>(make_rectangle(0.4, 0.2)));
      b.inertia = Mat3::Identity() * 0.02;
      block = w.add(b, Vec3::Zero(), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())));
    } else {
      block = w.add_box("block", Vec3(0.4, 0.2, 0.2), 1.0, Vec3::Zero(),
                        Quat(Eigen::AngleAxisd(0.3, Vec3::UnitY())));
    }
    const double theta = std::numbers::pi / 6;
    const Vec3 axis = planar ? Vec3(std::cos(theta), -std::sin(theta), 0)
                             : Vec3(std::cos(theta), 0, -std::sin(theta));
    w.model.joints.push_back(slide(block, axis));
    Settings s = test::implicit_settings(0.01, planar ? Vec3(0, -kG, 0) : Vec3(0, 0, -kG));
    if (planar) s.friction_directions = 2;
    const Quat q0 = w.state.bodies[std::size_t(block)].orientation;
    Simulator sim(w.model, w.state, s);
    const int steps = 100;
    for (int k = 0; k < steps; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
    }
    const BodyState& b = sim.state().bodies[std::size_t(block)];
    const double a = kG * std::sin(theta), h = 0.01;
    EXPECT_NEAR(b.velocity.dot(axis), a * steps * h, 1e-9) << planar;
    EXPECT_NEAR(b.position.dot(axis), a * h * h * steps * (steps + 1) / 2.0, 1e-9);
    EXPECT_NEAR((b.position - b.position.dot(axis) * axis).norm(), 0.0, 1e-12) << "on the line";
    EXPECT_NEAR(b.orientation.angularDistance(q0), 0.0, 1e-12) << "not turned";
  }
}

// A finger (a 0.1 x 0.4 rectangle, 0.5 kg) on a slide along x, pushed by 3 N into a static
// disc: it stops on the disc, which takes F h per step along x, and it neither turns nor leaves
// its line (the joint takes the moment of the off-centre contact).
TEST(ImplicitSlides, AFingerPushedIntoADiscStopsWithTheForceOnTheDisc) {
  test::World w;
  Body disc;
  disc.name = "disc";
  disc.shape = Shape::circle(0.2);
  disc.is_static = true;
  disc.mu = 0.0;
  w.add(disc, Vec3::Zero());
  Body f;
  f.name = "finger";
  f.shape = Shape::convex_polygon(std::make_shared<Polygon>(make_rectangle(0.1, 0.4)));
  f.mass = 0.5;
  f.inertia = Mat3::Identity() * 0.01;
  f.mu = 0.0;
  const int finger = w.add(f, Vec3(-0.4, 0.1, 0));
  w.model.joints.push_back(slide(finger, Vec3::UnitX()));
  Settings s = test::implicit_settings(0.01, Vec3::Zero());
  s.friction_directions = 2;
  Simulator sim(w.model, w.state, s);
  double last_impulse = 0.0;
  for (int k = 0; k < 150; ++k) {
    sim.apply_wrench(finger, Vec3(3.0, 0, 0), Vec3::Zero());
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    for (const Contact& c : r.contacts) EXPECT_GE(c.gap, -1e-9);
    last_impulse = r.normal_impulse.empty() ? 0.0 : r.normal_impulse[0];
  }
  const BodyState& b = sim.state().bodies[std::size_t(finger)];
  // At rest on the disc: the finger's right face (0.05 m from its centre, spanning y from -0.1
  // to 0.3) touches the circle at its leftmost point (-0.2, 0), so the centre is at x = -0.25.
  EXPECT_NEAR(b.position.x(), -0.25, 1e-9);
  EXPECT_NEAR(b.position.y(), 0.1, 1e-12);
  EXPECT_LE(b.velocity.norm() + b.angular_velocity.norm(), 1e-9);
  EXPECT_NEAR(last_impulse, 3.0 * 0.01, 1e-8);
}

}  // namespace
}  // namespace pegsim
