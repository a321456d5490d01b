// Bodies that appear during a run (Body::appear_time), as the bodies poured one by one in
// thesis §5.2.3-5.2.4: before appear_time a body is absent (not integrated, in no broad
// phase, contact or overlap); from it on it moves like any other.
#include <gtest/gtest.h>

#include "engine/dynamics/simulator.hpp"
#include "engine/metrics/overlap.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

// Cube A falls from z = 0 from t = 0; cube B waits inside A's starting place and appears at
// t = 0.5 s, when A is 1.25 m lower, moving at 1 m/s along x.
struct Pour {
  test::World w;
  int a, b;
  Settings s;
  Pour() {
    a = w.add_box("a", Vec3(0.4, 0.4, 0.4), 1.0, Vec3::Zero());
    b = w.add_box("b", Vec3(0.3, 0.3, 0.3), 1.0, Vec3(0.05, 0, 0.02));
    w.model.bodies[b].appear_time = 0.5;
    w.state.bodies[b].velocity = Vec3(1, 0, 0);
    s.h = 0.01;
  }
};

// Semi-implicit Euler free fall from rest after k steps of h: z = -g h^2 k (k + 1) / 2, the
// discrete form of g t^2 / 2 (test_free_motion.cpp, thesis (2.36)).
double discrete_drop(double g, double h, int k) {
  return g * h * h * k * (k + 1) / 2.0;
}

TEST(AppearTime, AnAbsentBodyWaitsAtItsPoseThenFallsFromAppearTime) {
  Pour p;
  Simulator sim(p.w.model, p.w.state, p.s);
  const double g = 9.81, h = p.s.h;
  // At t = 0 B sits inside A, but it is absent: no overlap, no contact.
  EXPECT_EQ(total_overlap(sim.model(), sim.state()).volume, 0.0);
  for (int k = 1; k <= 100; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed);
    EXPECT_TRUE(r.contacts.empty()) << "step " << k;  // B never touches A
    const BodyState& A = sim.state().bodies[p.a];
    const BodyState& B = sim.state().bodies[p.b];
    EXPECT_NEAR(A.position.z(), -discrete_drop(g, h, k), 1e-12) << "step " << k;
    const int since = k - 50;  // steps B has taken (it moves in the step starting at 0.5 s)
    if (since <= 0) {
      EXPECT_EQ(B.position, Vec3(0.05, 0, 0.02)) << "step " << k;
      EXPECT_EQ(B.velocity, Vec3(1, 0, 0)) << "step " << k;  // the velocity it will appear with
    } else {
      const double tau = sim.state().time - 0.5;
      EXPECT_NEAR(B.position.z(), 0.02 - discrete_drop(g, h, since), 1e-12) << "step " << k;
      // ... which is g tau^2 / 2 up to the method's g h tau / 2 (thesis (2.36)).
      EXPECT_NEAR(B.position.z(), 0.02 - g * tau * tau / 2 - g * h * tau / 2, 1e-12);
      EXPECT_NEAR(B.position.x(), 0.05 + tau, 1e-12);
    }
  }
}

TEST(AppearTime, TheSameRunTwiceIsBitForBitTheSame) {
  Pour p;
  Simulator one(p.w.model, p.w.state, p.s), two(p.w.model, p.w.state, p.s);
  for (int k = 0; k < 80; ++k) {
    one.step();
    two.step();
  }
  for (std::size_t i = 0; i < p.w.model.bodies.size(); ++i) {
    EXPECT_EQ(one.state().bodies[i].position, two.state().bodies[i].position);
    EXPECT_EQ(one.state().bodies[i].orientation.coeffs(),
              two.state().bodies[i].orientation.coeffs());
  }
}

// A body that appears where another lies collides with it from its first step on.
TEST(AppearTime, APresentBodyCollidesFromItsFirstStep) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int box = w.add_box("box", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5 + 0.01));
  w.model.bodies[box].appear_time = 0.05;
  Settings s;
  s.h = 0.01;
  Simulator sim(w.model, w.state, s);
  for (int k = 0; k < 5; ++k) EXPECT_TRUE(sim.step().contacts.empty()) << k;
  EXPECT_FALSE(sim.step().contacts.empty());  // the step starting at t = 0.05
}

TEST(AppearTime, AJointedBodyCannotAppearLater) {
  test::World w;
  const int a = w.add_box("a", Vec3(1, 1, 1), 1.0, Vec3::Zero());
  w.model.bodies[a].appear_time = 1.0;
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, a, Vec3::Zero(), Vec3::UnitZ()));
  EXPECT_THROW(Simulator(w.model, w.state, Settings{}), std::invalid_argument);
}

}  // namespace
}  // namespace pegsim
