// Compounds under formulation geometrically-implicit: a non-convex body as the union of convex
// pieces (seed 001 §6.4's gear), one contact pair per piece within reach. A dumbbell of two
// spheres resting on both (each carrying half the weight) and landing tilted; an ellipse turned
// inside a compound rocking at the period of the same ellipse unturned.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/smooth_shapes.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// Two spheres of radius 0.2 m, centres 0.6 m apart along the body's x, 2 kg.
Body dumbbell(double mu) {
  Body b;
  b.name = "dumbbell";
  b.shape = Shape::compound_of(std::make_shared<Compound>(make_compound(
      {{Shape::sphere(0.2), Vec3(-0.3, 0, 0)}, {Shape::sphere(0.2), Vec3(0.3, 0, 0)}})));
  b.mass = 2.0;
  const double ball = 0.4 * 1.0 * 0.04;  // each sphere 1 kg about its own centre
  b.inertia = Vec3(2 * ball, 2 * ball + 2 * 0.09, 2 * ball + 2 * 0.09).asDiagonal();
  b.mu = mu;
  return b;
}

// Lying on the ground, the dumbbell rests on both spheres at z = 0.2, each contact carrying
// half its weight, m g h / 2.
TEST(ImplicitCompounds, ADumbbellRestsOnBothSpheresWithHalfItsWeightEach) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int id = w.add(dumbbell(0.5), Vec3(0, 0, 0.2));
  Simulator sim(w.model, w.state, test::implicit_settings(0.01, Vec3(0, 0, -kG)));
  for (int k = 0; k < 50; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    ASSERT_EQ(r.contacts.size(), 2u);
    // To m tol / h = 2e-8 N s: the gap rows hold to the solver's tolerance, 1e-10 m, and the
    // next step's impulse corrects what is left.
    for (double p : r.normal_impulse) EXPECT_NEAR(p, 0.5 * 2.0 * kG * 0.01, 2e-8);
  }
  EXPECT_NEAR(sim.state().bodies[std::size_t(id)].position.z(), 0.2, 1e-9);
  EXPECT_LE(sim.state().bodies[std::size_t(id)].angular_velocity.norm(), 1e-9);
}

// Dropped with one end 0.3 m lower, the dumbbell lands on that sphere, swings down onto the other
// and comes to rest on both, level: no step ends inside the ground, and the energy never rises
// above its start.
TEST(ImplicitCompounds, ADumbbellDroppedTiltedLandsOnOneEndThenTheOther) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const Body b = dumbbell(0.5);
  const double tilt = std::asin(0.3 / 0.6);
  const int id = w.add(b, Vec3(0, 0, 0.45), Quat(Eigen::AngleAxisd(tilt, Vec3::UnitY())));
  Simulator sim(w.model, w.state, test::implicit_settings(0.005, Vec3(0, 0, -kG)));
  auto energy = [&] {
    const BodyState& s = sim.state().bodies[std::size_t(id)];
    const Vec3 omega = s.orientation.conjugate() * s.angular_velocity;
    return 0.5 * b.mass * s.velocity.squaredNorm() + 0.5 * omega.dot(b.inertia * omega) +
           b.mass * kG * s.position.z();
  };
  const double e0 = energy();
  int most_pairs = 0;
  for (int k = 0; k < 600; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << k << ": " << r.failure;
    for (const Contact& c : r.contacts) EXPECT_GE(c.gap, -1e-9) << "step " << k;
    most_pairs = std::max(most_pairs, int(r.contacts.size()));
    EXPECT_LE(energy(), e0 + 1e-9) << "step " << k;
  }
  EXPECT_EQ(most_pairs, 2);
  const BodyState& s = sim.state().bodies[std::size_t(id)];
  EXPECT_NEAR(s.position.z(), 0.2, 1e-6);
  EXPECT_NEAR((s.orientation * Vec3::UnitX()).z(), 0.0, 1e-6) << "level";
  EXPECT_LE(s.velocity.norm() + s.angular_velocity.norm(), 1e-6);
}

// An ellipse of semi-axes 0.5 (x) and 1 (y) turned by 90 degrees inside a compound is the ellipse
// (1, 0.5) of ImplicitSmoothShapes: released tilted by 0.02 rad on rough ground it rocks at the
// small-oscillation period 2 pi / sqrt(m g (rho - c) / (I + m c^2)), rho = a^2 / c, 1.2285 s
// (to 0.25 %, the amplitude's share), with its turned axes in the function.
TEST(ImplicitCompounds, AnEllipseTurnedInsideACompoundRocksAtItsPeriod) {
  const double a = 1.0, c = 0.5, m = 2.0, tilt = 0.02, h = 1e-3;
  test::World w;
  w.add_half_plane("ground", 1.0);
  Body body;
  body.name = "rocker";
  const double quarter = std::numbers::pi / 2;
  body.shape = Shape::compound_of(std::make_shared<Compound>(
      make_compound({{make_smooth_shape(Vec3(c, a, c), 2.0, 64, true), Vec3::Zero(),
                      Quat(Eigen::AngleAxisd(quarter, Vec3::UnitZ()))}})));
  body.mass = m;
  const double inertia = m * (a * a + c * c) / 4.0;
  body.inertia = Vec3(1.0, 1.0, inertia).asDiagonal();
  body.mu = 1.0;
  const double height =
      std::sqrt(a * a * std::sin(tilt) * std::sin(tilt) + c * c * std::cos(tilt) * std::cos(tilt));
  const int id = w.add(body, Vec3(0, height, 0), Quat(Eigen::AngleAxisd(tilt, Vec3::UnitZ())));
  Settings s = test::implicit_settings(h, Vec3(0, -kG, 0));
  s.friction_directions = 2;
  Simulator sim(w.model, w.state, s);
  std::vector<double> crossings;
  double previous = tilt, worst_gap = 0.0;
  for (int k = 0; k < 4000; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    for (const Contact& ct : r.contacts) worst_gap = std::min(worst_gap, ct.gap);
    const Eigen::AngleAxisd turn(sim.state().bodies[std::size_t(id)].orientation);
    const double angle = turn.angle() * turn.axis().z();
    if (previous < 0.0 && angle >= 0.0)
      crossings.push_back(sim.state().time - h * angle / (angle - previous));
    previous = angle;
  }
  ASSERT_GE(crossings.size(), 2u);
  const double period = (crossings.back() - crossings.front()) / double(crossings.size() - 1);
  const double rho = a * a / c;
  const double expected =
      2.0 * std::numbers::pi / std::sqrt(m * kG * (rho - c) / (inertia + m * c * c));
  EXPECT_NEAR(period, expected, 0.0025 * expected);
  EXPECT_GE(worst_gap, -1e-8);
}

}  // namespace
}  // namespace pegsim
