// Polytopes and polygons under formulation geometrically-implicit as intersections of their face
// planes (seed 001 §4.3, Proposition 3, Remark 2 (a)): resting, Coulomb sliding and sticking on
// an incline against the closed forms, a tilted cube landing on an edge and settling face down,
// cubes stacked on cubes (both bodies intersections: k1 chosen from step to step), a sphere
// struck by a cube's edge along the line from the edge to its centre, and the same in 2D.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;
constexpr double kDeg = std::numbers::pi / 180.0;

// Every step solved, none ending with a gap below -1e-9 m; the largest rise of `energy` above
// its start.
template <typename Energy>
double run(Simulator& sim, int steps, Energy energy) {
  const double e0 = energy();
  double rise = -1e300;
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    EXPECT_FALSE(r.failed) << "step " << k << ": " << r.failure;
    if (r.failed) break;
    for (const Contact& c : r.contacts) EXPECT_GE(c.gap, -1e-9) << "step " << k;
    rise = std::max(rise, energy() - e0);
  }
  return rise;
}

// Kinetic plus gravitational energy of body i (gravity along -z, or -y in 2D).
double energy_of(const Simulator& sim, const Body& b, std::size_t i, bool planar = false) {
  const BodyState& s = sim.state().bodies[i];
  const Vec3 w = s.orientation.conjugate() * s.angular_velocity;
  return 0.5 * b.mass * s.velocity.squaredNorm() + 0.5 * w.dot(b.inertia * w) +
         b.mass * kG * (planar ? s.position.y() : s.position.z());
}

int add_square(test::World& w, const std::string& name, double side, double mass,
               const Vec3& position, double angle = 0.0, double mu = 0.5) {
  auto polygon = std::make_shared<Polygon>(make_rectangle(side, side));
  Body b;
  b.name = name;
  b.shape = Shape::convex_polygon(polygon);
  b.mass = mass;
  b.inertia = Mat3::Identity() * (mass * side * side / 6.0);
  b.mu = mu;
  return w.add(b, position, Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ())));
}

// A 1 m cube of 2 kg resting on the ground: it stays at z = 0.5 with p_n = m g h, on one contact.
TEST(ImplicitPolytopes, ACubeRestsOnTheGroundWithItsWeight) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int cube = w.add_box("cube", Vec3::Ones(), 2.0, Vec3(0, 0, 0.5));
  Simulator sim(w.model, w.state, test::implicit_settings(0.01, Vec3(0, 0, -kG)));
  for (int k = 0; k < 50; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    ASSERT_EQ(r.contacts.size(), 1u);
    EXPECT_NEAR(r.normal_impulse[0], 2.0 * kG * 0.01, 1e-9);
  }
  const BodyState& s = sim.state().bodies[std::size_t(cube)];
  EXPECT_NEAR(s.position.z(), 0.5, 1e-9);
  EXPECT_NEAR(s.position.x(), 0.0, 1e-12);
  EXPECT_LE(s.angular_velocity.norm(), 1e-9);
}

// The cube on ground tilted by 30 degrees (gravity turned instead): with mu = 0.3 it slides at
// g (sin 30 - mu cos 30) = 2.3564 m/s^2 from rest, face down, without tipping; with mu = 0.7 >
// tan 30 friction holds it.
TEST(ImplicitPolytopes, ACubeOnAnInclineSlidesOrStaysAsCoulombSays) {
  for (const double mu : {0.3, 0.7}) {
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
    const int cube = w.add_box("cube", Vec3::Ones(), 1.0, Vec3(0, 0, 0.5), Quat::Identity(), mu);
    const double theta = 30.0 * kDeg;
    Simulator sim(w.model, w.state,
                  test::implicit_settings(0.01, kG * Vec3(std::sin(theta), 0, -std::cos(theta))));
    for (int k = 0; k < 100; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
    }
    const BodyState& s = sim.state().bodies[std::size_t(cube)];
    const double a = std::max(0.0, kG * (std::sin(theta) - mu * std::cos(theta)));
    EXPECT_NEAR(s.velocity.x(), a * 1.0, 1e-9) << "mu " << mu;
    EXPECT_NEAR(s.position.z(), 0.5, 1e-9);
    EXPECT_LE(s.angular_velocity.norm(), 1e-9);
  }
}

// A cube dropped from 0.3 m turned 30 degrees about x and 20 about y lands on a corner or an
// edge, tumbles and settles with a face down at z = 0.5: no step ends inside the ground and the
// energy never rises above its start. A face on the ground is one contact point, so spinning on
// it is resisted only by the torsional friction of (5): e_r is the torsion radius, here the mean
// distance of a unit square's points from its centre, 0.3826 m (without it the cube lands
// spinning at 0.61 rad/s and keeps spinning).
TEST(ImplicitPolytopes, ATiltedCubeLandsOnACornerAndSettlesFaceDown) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const Quat q = Quat(Eigen::AngleAxisd(30.0 * kDeg, Vec3::UnitX())) *
                 Quat(Eigen::AngleAxisd(20.0 * kDeg, Vec3::UnitY()));
  const int cube = w.add_box("cube", Vec3::Ones(), 1.0, Vec3(0, 0, 1.1), q);
  w.model.bodies[std::size_t(cube)].torsion_radius = 0.3826;
  Simulator sim(w.model, w.state, test::implicit_settings(0.005, Vec3(0, 0, -kG)));
  const Body& b = w.model.bodies[std::size_t(cube)];
  const double rise = run(sim, 600, [&] { return energy_of(sim, b, std::size_t(cube)); });
  EXPECT_LE(rise, 1e-9);
  const BodyState& s = sim.state().bodies[std::size_t(cube)];
  EXPECT_NEAR(s.position.z(), 0.5, 1e-6);
  EXPECT_LE(s.velocity.norm() + s.angular_velocity.norm(), 1e-6);
  // Face down: one of the body's axes along the vertical.
  const Mat3 R = s.orientation.toRotationMatrix();
  EXPECT_NEAR(R.row(2).cwiseAbs().maxCoeff(), 1.0, 1e-6);
}

// Two cubes dropped 1 cm, the upper one shifted by 0.3 m and turned 45 degrees about z: the
// cubes' pair is two intersections of six planes (the normalized multipliers, no k1). They come
// to rest at z = 0.5 and 1.5 with no step ending in an overlap, the upper one where it landed.
TEST(ImplicitPolytopes, ACubeStackedOnACubeComesToRest) {
  for (const double mu : {0.0, 0.5}) {
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
    const int c1 = w.add_box("c1", Vec3::Ones(), 1.0, Vec3(0, 0, 0.51), Quat::Identity(), mu);
    const int c2 = w.add_box("c2", Vec3::Ones(), 1.0, Vec3(0.3, 0, 1.52),
                             Quat(Eigen::AngleAxisd(45.0 * kDeg, Vec3::UnitZ())), mu);
    Simulator sim(w.model, w.state, test::implicit_settings(0.01, Vec3(0, 0, -kG)));
    auto energy = [&] {
      double e = 0.0;
      for (int i : {c1, c2}) e += energy_of(sim, w.model.bodies[std::size_t(i)], std::size_t(i));
      return e;
    };
    EXPECT_LE(run(sim, 100, energy), 1e-9) << "mu " << mu;
    const BodyState &s1 = sim.state().bodies[std::size_t(c1)],
                    &s2 = sim.state().bodies[std::size_t(c2)];
    EXPECT_NEAR(s1.position.z(), 0.5, 1e-8);
    EXPECT_NEAR(s2.position.z(), 1.5, 1e-8);
    EXPECT_NEAR(s2.position.x(), 0.3, 1e-8);
    EXPECT_LE(s1.velocity.norm() + s2.velocity.norm(), 1e-8);
  }
}

// A frictionless sphere of radius 0.2 falling at 1 m/s onto a static cube's top edge x = 0.5,
// z = 0.5, with its centre 0.1 m beyond the edge: the edge strikes it along the line from the
// edge to its centre, n = (0.1, 0, z - 0.5) / 0.2 at the end of each step with an impulse, so the
// change of velocity beyond gravity's is along n; the sphere then slides off the edge away from
// the cube.
TEST(ImplicitPolytopes, ACubesEdgeStrikesASphereAlongTheLineToItsCentre) {
  test::World w;
  const int cube = w.add_box("cube", Vec3::Ones(), 1.0, Vec3::Zero(), Quat::Identity(), 0.0);
  w.model.bodies[std::size_t(cube)].is_static = true;
  const double r = 0.2, dx = 0.1;
  const int ball = w.add_sphere("ball", r, 1.0,
                                Vec3(0.5 + dx, 0, 0.5 + std::sqrt(r * r - dx * dx) + 0.005), 0.0);
  w.state.bodies[std::size_t(ball)].velocity = Vec3(0, 0, -1.0);
  Simulator sim(w.model, w.state, test::implicit_settings(0.001, Vec3(0, 0, -kG)));
  bool struck = false;
  for (int k = 0; k < 300; ++k) {
    const Vec3 before = sim.state().bodies[std::size_t(ball)].velocity;
    const StepReport& step = sim.step();
    ASSERT_FALSE(step.failed) << step.failure;
    for (std::size_t c = 0; c < step.contacts.size(); ++c) {
      EXPECT_GE(step.contacts[c].gap, -1e-9);
      if (step.normal_impulse[c] <= 0.0) continue;
      // The normal from the edge point to the sphere's centre at the end of the step.
      const BodyState& s = sim.state().bodies[std::size_t(ball)];
      const Vec3 edge(0.5, s.position.y(), 0.5);
      const Vec3 n = (s.position - edge).normalized();
      const Vec3 normal = step.contacts[c].body_a == ball ? Vec3(-step.contacts[c].normal)
                                                          : step.contacts[c].normal;
      EXPECT_NEAR(normal.dot(n), 1.0, 1e-9) << "step " << k;
      EXPECT_NEAR((s.position - edge).norm(), r, 1e-9) << "touching the edge";
      const Vec3 dv = s.velocity - before - 0.001 * Vec3(0, 0, -kG);
      EXPECT_NEAR(dv.normalized().dot(n), 1.0, 1e-9) << "the impulse along n, step " << k;
      struck = true;
    }
  }
  EXPECT_TRUE(struck);
  const BodyState& s = sim.state().bodies[std::size_t(ball)];
  EXPECT_GT(s.velocity.x(), 0.1) << "slid off away from the cube";
}

// Anisotropic friction (the ellipsoidal law (5) with e_t != e_o): a cube with friction weights
// e_t = 1 along its x axis and e_o = 0.5 across, mu = 0.4, sliding at 2 m/s decelerates at
// e_t mu g = 3.924 m/s^2 along x and e_o mu g = 1.962 m/s^2 along y; sliding at 45 degrees, the
// friction of maximal dissipation is -mu p_n E^2 s / |E s|, not opposed to the velocity: the
// deceleration mu g (e_t^2 v_x, e_o^2 v_y) / |(e_t v_x, e_o v_y)| at the end-of-step velocity,
// (3.5098, 0.8775) m/s^2 in the first step of 1 ms.
TEST(ImplicitPolytopes, AnisotropicFrictionFollowsTheEllipsoidalLaw) {
  const double mu = 0.4, h = 0.001;
  auto slide = [&](const Vec3& v0, int steps) {
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
    const int cube = w.add_box("cube", Vec3::Ones(), 1.0, Vec3(0, 0, 0.5), Quat::Identity(), mu);
    w.model.bodies[std::size_t(cube)].friction_ellipse = {Vec3::UnitX(), 1.0, 0.5};
    w.state.bodies[std::size_t(cube)].velocity = v0;
    Simulator sim(w.model, w.state, test::implicit_settings(h, Vec3(0, 0, -kG)));
    for (int k = 0; k < steps; ++k) {
      const StepReport& r = sim.step();
      EXPECT_FALSE(r.failed) << r.failure;
    }
    return sim.state().bodies[std::size_t(cube)].velocity;
  };
  EXPECT_NEAR(slide(Vec3(2, 0, 0), 300).x(), 2.0 - 0.3 * mu * kG, 1e-8);
  EXPECT_NEAR(slide(Vec3(0, 2, 0), 300).y(), 2.0 - 0.3 * 0.5 * mu * kG, 1e-8);
  // The law holds at the end-of-step slip velocity v+ (the implicit step's s = W^T nu+).
  const Vec3 v0 = Vec3(1, 1, 0) * std::sqrt(2.0), v1 = slide(v0, 1);
  const Vec3 a = (v0 - v1) / h;
  const double norm = std::hypot(v1.x(), 0.5 * v1.y());
  EXPECT_NEAR(a.x(), mu * kG * v1.x() / norm, 1e-8);
  EXPECT_NEAR(a.y(), mu * kG * 0.25 * v1.y() / norm, 1e-8);
  EXPECT_NEAR(a.x(), 3.5098, 2e-3) << "the start's direction, to O(h)";
  EXPECT_NEAR(a.y(), 0.8775, 2e-3);
}

// 2D: a unit square on a half-plane tilted by 30 degrees slides at g (sin 30 - mu cos 30) with
// mu = 0.3 and stays with mu = 0.7; squares stacked three high (the upper pairs both polygons)
// come to rest at y = 0.5, 1.5, 2.5.
TEST(ImplicitPolytopes, SquaresSlideAndStackInThePlane) {
  for (const double mu : {0.3, 0.7}) {
    test::World w;
    w.add_half_plane("ground", mu);
    const int sq = add_square(w, "square", 1.0, 1.0, Vec3(0, 0.5, 0), 0.0, mu);
    const double theta = 30.0 * kDeg;
    Settings s = test::implicit_settings(0.01, kG * Vec3(std::sin(theta), -std::cos(theta), 0));
    s.friction_directions = 2;
    Simulator sim(w.model, w.state, s);
    for (int k = 0; k < 100; ++k) ASSERT_FALSE(sim.step().failed);
    const BodyState& b = sim.state().bodies[std::size_t(sq)];
    EXPECT_NEAR(b.velocity.x(), std::max(0.0, kG * (std::sin(theta) - mu * std::cos(theta))), 1e-9);
    EXPECT_NEAR(b.position.y(), 0.5, 1e-9);
  }
  test::World w;
  w.add_half_plane("ground", 0.5);
  const int s1 = add_square(w, "s1", 1.0, 1.0, Vec3(0, 0.51, 0));
  const int s2 = add_square(w, "s2", 1.0, 1.0, Vec3(0.3, 1.52, 0));
  const int s3 = add_square(w, "s3", 1.0, 1.0, Vec3(0.1, 2.53, 0));
  Settings s = test::implicit_settings(0.01, Vec3(0, -kG, 0));
  s.friction_directions = 2;
  Simulator sim(w.model, w.state, s);
  auto energy = [&] {
    double e = 0.0;
    for (int i : {s1, s2, s3})
      e += energy_of(sim, w.model.bodies[std::size_t(i)], std::size_t(i), true);
    return e;
  };
  EXPECT_LE(run(sim, 200, energy), 1e-9);
  const double heights[] = {0.5, 1.5, 2.5};
  int k = 0;
  for (int i : {s1, s2, s3}) {
    EXPECT_NEAR(sim.state().bodies[std::size_t(i)].position.y(), heights[k++], 1e-8);
    EXPECT_LE(sim.state().bodies[std::size_t(i)].velocity.norm(), 1e-8);
  }
}

}  // namespace
}  // namespace pegsim
