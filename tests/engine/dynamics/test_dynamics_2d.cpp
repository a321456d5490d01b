// Planar (2D) bodies: 3 DOF each (v_x, v_y, omega_z; z, omega_x, omega_y stay exactly 0),
// against analytic answers and invariants: the discrete parabola and constant spin of free
// motion, a square at rest on the ground, Coulomb sliding at mu g (exact with the +-t cone),
// a physical pendulum's period on a revolute joint, a prismatic slide on a tilted rail, and
// momentum through a frictionless collision (thesis §5.4's invariant, in 2D).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

Settings planar_settings(double h, Vec3 gravity = Vec3(0, -kG, 0)) {
  Settings s;
  s.h = h;
  s.gravity = gravity;
  s.friction_directions = 2;
  return s;
}

Quat about_z(double angle) {
  return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
}
double angle_of(const Quat& q) {
  return 2.0 * std::atan2(q.z(), q.w());
}

int add_polygon(test::World& w, const std::string& name, const Polygon& shape, double mass,
                const Vec2& position, double angle = 0.0, double mu = 0.5) {
  auto p = std::make_shared<const Polygon>(shape);
  const MassProperties mp = polygon_mass_properties(*p);
  Body b;
  b.name = name;
  b.shape = Shape::convex_polygon(p);
  b.mass = mass;
  b.inertia = mp.inertia * (mass / mp.volume);
  b.mu = mu;
  return w.add(b, Vec3(position.x(), position.y(), 0), about_z(angle));
}

int add_ground(test::World& w, double mu = 0.5) {
  Body b;
  b.name = "ground";
  b.shape = Shape::half_plane();
  b.is_static = true;
  b.mu = mu;
  return w.add(b, Vec3::Zero());
}

// The three components a planar body never has, exactly 0.
void expect_in_plane(const BodyState& s) {
  EXPECT_EQ(s.position.z(), 0.0);
  EXPECT_EQ(s.velocity.z(), 0.0);
  EXPECT_EQ(s.angular_velocity.x(), 0.0);
  EXPECT_EQ(s.angular_velocity.y(), 0.0);
  EXPECT_EQ(s.orientation.x(), 0.0);
  EXPECT_EQ(s.orientation.y(), 0.0);
}

// Semi-implicit Euler (6.2) with no contact: v_k = v_0 + k h g and
// x_k = x_0 + k h v_0 + h^2 g k (k + 1) / 2; omega is constant and theta_k = theta_0 + k h omega.
// Gravity with a z part and a torque-free spin must still leave z, omega_x, omega_y at 0.
TEST(PlanarDynamics, FreeFallIsTheDiscreteParabolaAndSpinIsConstant) {
  test::World w;
  const int hex = add_polygon(w, "hex", make_regular_polygon(6, 0.3), 2.0, Vec2(1, 2), 0.1);
  w.state.bodies[hex].velocity = Vec3(1.5, 2.0, 0);
  w.state.bodies[hex].angular_velocity = Vec3(0, 0, 3.0);
  const double h = 0.01;
  Simulator sim(w.model, w.state, planar_settings(h, Vec3(0, -kG, -4.0)));
  for (int k = 1; k <= 150; ++k) {
    ASSERT_FALSE(sim.step().failed);
    const BodyState& s = sim.state().bodies[hex];
    const double fall = h * h * kG * k * (k + 1) / 2.0;
    EXPECT_NEAR(s.position.x(), 1.0 + k * h * 1.5, 1e-12);
    EXPECT_NEAR(s.position.y(), 2.0 + k * h * 2.0 - fall, 1e-12);
    EXPECT_NEAR(s.velocity.y(), 2.0 - k * h * kG, 1e-12);
    EXPECT_EQ(s.angular_velocity.z(), 3.0);
    EXPECT_NEAR(std::remainder(angle_of(s.orientation) - (0.1 + 3.0 * k * h), 2 * M_PI), 0.0,
                1e-12);
    expect_in_plane(s);
  }
}

// A unit square set on the ground stays there: gap 0 to solver precision, no motion.
TEST(PlanarDynamics, SquareRestsOnTheGround) {
  test::World w;
  add_ground(w);
  const int box = add_polygon(w, "box", make_rectangle(1, 1), 1.0, Vec2(0.3, 0.5));
  Simulator sim(w.model, w.state, planar_settings(0.01));
  for (int k = 0; k < 200; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed);
    for (const Contact& c : r.contacts) EXPECT_NEAR(c.gap, 0.0, 1e-12);
  }
  const BodyState& s = sim.state().bodies[box];
  EXPECT_NEAR(s.position.y(), 0.5, 1e-12);
  EXPECT_NEAR(s.position.x(), 0.3, 1e-12);
  EXPECT_LE(s.velocity.norm(), 1e-12);
  EXPECT_LE(std::abs(s.angular_velocity.z()), 1e-12);
  expect_in_plane(s);
}

// Coulomb sliding: with the exact 2D cone each step removes mu g h of speed, so the block
// stops after v0 / (mu g) having gone v0^2 / (2 mu g), up to the O(h) of the discrete sum.
TEST(PlanarDynamics, SlidingBlockDeceleratesAtMuG) {
  test::World w;
  const double mu = 0.4, v0 = 3.0, h = 0.002;
  add_ground(w, mu);
  const int block = add_polygon(w, "block", make_rectangle(1.0, 0.5), 2.0, Vec2(0, 0.25), 0, mu);
  w.state.bodies[block].velocity = Vec3(v0, 0, 0);
  Simulator sim(w.model, w.state, planar_settings(h));
  double previous = v0;
  int sliding_steps = 0;
  for (int k = 0; k < 500; ++k) {
    ASSERT_FALSE(sim.step().failed);
    const double v = sim.state().bodies[block].velocity.x();
    if (previous > mu * kG * h) {  // a step that cannot stop the block
      EXPECT_NEAR((previous - v) / h, mu * kG, 1e-8) << "step " << k;
      ++sliding_steps;
    }
    previous = v;
  }
  const BodyState& s = sim.state().bodies[block];
  EXPECT_LE(std::abs(s.velocity.x()), 1e-9);
  EXPECT_NEAR(sliding_steps * h, v0 / (mu * kG), 2 * h);
  const double distance = v0 * v0 / (2 * mu * kG);
  EXPECT_NEAR(s.position.x(), distance, v0 * h);
  RecordProperty("stopping_distance",
                 std::to_string(s.position.x()) + " vs " + std::to_string(distance));
  EXPECT_NEAR(s.position.y(), 0.25, 1e-9);
  EXPECT_LE(std::abs(s.angular_velocity.z()), 1e-9);
  expect_in_plane(s);
}

// Small oscillations of a physical pendulum on a revolute joint about z:
// T = 2 pi sqrt(I_O / (m g d)), I_O = m (L^2 + w^2) / 12 + m d^2, d = L / 2.
TEST(PlanarDynamics, PendulumOnARevoluteJointHasTheAnalyticPeriod) {
  test::World w;
  const double theta0 = 0.05, h = 0.0005;
  const int rod = add_polygon(w, "rod", make_rectangle(0.1, 1.0), 1.0,
                              (about_z(theta0) * Vec3(0, -0.5, 0)).head<2>(), theta0);
  w.model.joints.push_back(
      make_joint(w.state, JointType::Revolute, -1, rod, Vec3::Zero(), Vec3::UnitZ()));
  const double I_O = (1.0 + 0.01) / 12.0 + 0.25;
  const double period = 2.0 * M_PI * std::sqrt(I_O / (kG * 0.5));
  Simulator sim(w.model, w.state, planar_settings(h));
  std::vector<double> crossings;
  double previous = joint_coordinates(sim.state(), sim.model().joints[0]).angle;
  double worst_error = 0.0;
  while (sim.state().time < 3.5 * period) {
    ASSERT_FALSE(sim.step().failed);
    const double angle = joint_coordinates(sim.state(), sim.model().joints[0]).angle;
    if (previous < 0.0 && angle >= 0.0)
      crossings.push_back(sim.state().time - h * angle / (angle - previous));
    previous = angle;
    worst_error = std::max(worst_error, joint_error(sim.state(), sim.model().joints[0]).position);
  }
  ASSERT_GE(crossings.size(), 3u);
  const double measured = (crossings.back() - crossings.front()) / (crossings.size() - 1);
  EXPECT_NEAR(measured / period, 1.0, 2e-3) << measured << " vs " << period;
  EXPECT_LE(worst_error, 1e-6);
  expect_in_plane(sim.state().bodies[rod]);
  RecordProperty("period", std::to_string(measured) + " vs " + std::to_string(period));
  RecordProperty("joint_error", std::to_string(worst_error));
}

// A block on a frictionless prismatic rail tilted by alpha slides with g sin(alpha):
// s_k = g sin(alpha) h^2 k (k + 1) / 2 (semi-implicit Euler), and never leaves the rail.
TEST(PlanarDynamics, PrismaticRailInThePlane) {
  test::World w;
  const double alpha = 0.4, h = 0.005;
  const Vec3 axis(std::cos(alpha), -std::sin(alpha), 0);
  const int block = add_polygon(w, "block", make_rectangle(0.2, 0.1), 1.0, Vec2(0, 0), -alpha);
  w.model.joints.push_back(
      make_joint(w.state, JointType::Prismatic, -1, block, Vec3::Zero(), axis));
  Simulator sim(w.model, w.state, planar_settings(h));
  for (int k = 1; k <= 200; ++k) {
    ASSERT_FALSE(sim.step().failed);
    const BodyState& s = sim.state().bodies[block];
    const double along = kG * std::sin(alpha) * h * h * k * (k + 1) / 2.0;
    EXPECT_NEAR(s.position.dot(axis), along, 1e-9 * (1 + along));
    EXPECT_LE(joint_error(sim.state(), sim.model().joints[0]).position, 1e-9);
    EXPECT_NEAR(angle_of(s.orientation), -alpha, 1e-12);
    expect_in_plane(s);
  }
}

// No gravity, no friction: a spinning square hits a heavier hexagon off-centre. Linear
// momentum and angular momentum about the origin, sum of m r x v + I_zz omega, are conserved
// through the inelastic impact (equal and opposite impulses on one line of action).
TEST(PlanarDynamics, FrictionlessCollisionConservesMomentum) {
  test::World w;
  const int a = add_polygon(w, "square", make_rectangle(0.5, 0.5), 1.5, Vec2(-1.0, 0.1), 0.2, 0.0);
  const int b =
      add_polygon(w, "hex", make_regular_polygon(6, 0.4), 4.0, Vec2(0.2, -0.15), 0.0, 0.0);
  w.state.bodies[a].velocity = Vec3(3.0, 0.2, 0);
  w.state.bodies[a].angular_velocity = Vec3(0, 0, 1.0);
  Simulator sim(w.model, w.state, planar_settings(0.005, Vec3::Zero()));
  auto momentum = [&](Vec3& linear, double& angular) {
    linear.setZero();
    angular = 0.0;
    for (int i : {a, b}) {
      const Body& body = sim.model().bodies[i];
      const BodyState& s = sim.state().bodies[i];
      linear += body.mass * s.velocity;
      angular += body.mass * s.position.cross(s.velocity).z() +
                 body.inertia(2, 2) * s.angular_velocity.z();
    }
  };
  Vec3 p0;
  double l0;
  momentum(p0, l0);
  int contact_steps = 0;
  for (int k = 0; k < 200; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed);
    contact_steps += r.problem_size > 0;
    Vec3 p;
    double l;
    momentum(p, l);
    EXPECT_NEAR((p - p0).norm(), 0.0, 1e-12);
    EXPECT_NEAR(l, l0, 1e-12);
    for (int i : {a, b}) expect_in_plane(sim.state().bodies[i]);
  }
  EXPECT_GT(contact_steps, 0);
  // After the impact the hexagon moves away from the square.
  EXPECT_GT(sim.state().bodies[b].velocity.x(), 0.1);
}

TEST(PlanarDynamics, APlanarModelNeedsTwoFrictionDirections) {
  test::World w;
  add_polygon(w, "box", make_rectangle(1, 1), 1.0, Vec2(0, 0));
  Settings s = planar_settings(0.01);
  s.friction_directions = 7;
  EXPECT_NE(check_settings(s, w.model).find("friction_directions must be 2"), std::string::npos);
  EXPECT_THROW(Simulator(w.model, w.state, s), std::invalid_argument);
}

}  // namespace
}  // namespace pegsim
