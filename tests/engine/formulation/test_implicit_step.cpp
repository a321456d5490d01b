// The geometrically implicit step (seed 001) against the paper's analytic cases.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/formulation/implicit_step.hpp"

namespace pegsim {
namespace {

ImplicitBody ground_line() {  // the half-plane y <= 0
  ImplicitBody g;
  g.is_static = true;
  g.shape.kind = ImplicitFunction::Kind::HalfSpace;
  g.shape.normal = Vec3::UnitY();
  return g;
}

// Example 1, (41)-(47): the unit disc (m = 1, I = 0.5) rolling without slip on the ground,
// nu0 = (-3, 0, 3), mu = 0.4, h = 0.01. Rolling is a solution of the continuous problem, so the
// disc keeps its kinetic energy 6.75 J, its height 1 and zero slip at the contact; the paper
// reports no energy loss within 1e-6 (where Stewart-Trinkle with a polygon loses energy).
TEST(ImplicitStep, Example1TheDiscRollsWithoutSlipAndKeepsItsEnergy) {
  std::vector<ImplicitBody> bodies{ground_line(), ImplicitBody{}};
  ImplicitBody& disc = bodies[1];
  disc.mass = 1.0;
  disc.inertia = Vec3(0.5, 0.5, 0.5).asDiagonal();
  disc.position = Vec3(0.0, 1.0, 0.0);
  disc.velocity = Vec3(-3.0, 0.0, 0.0);
  disc.angular_velocity = Vec3(0.0, 0.0, 3.0);
  const std::vector<ImplicitPair> pairs{{0, 1, 0.4, Vec3::Ones(), {}}};
  ImplicitStepOptions o;
  o.dimension = 2;
  o.h = 0.01;
  o.gravity = Vec3(0.0, -9.81, 0.0);
  std::vector<ImplicitContact> contacts;
  ASSERT_NEAR(implicit_kinetic_energy(bodies), 6.75, 1e-12);
  double worst_energy = 0.0, worst_height = 0.0, worst_slip = 0.0, worst_gap = 0.0;
  int most_iterations = 0;
  for (int k = 0; k < 1000; ++k) {  // 10 s
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, o);
    ASSERT_TRUE(r.solved) << "step " << k << ": " << r.failure << " (residual " << r.residual
                          << ")";
    most_iterations = std::max(most_iterations, r.iterations);
    const ImplicitBody& d = bodies[1];
    worst_energy = std::max(worst_energy, std::abs(implicit_kinetic_energy(bodies) - 6.75));
    worst_height = std::max(worst_height, std::abs(d.position.y() - 1.0));
    worst_slip = std::max(worst_slip, std::abs(d.velocity.x() + d.angular_velocity.z()));
    worst_gap = std::max(worst_gap, std::abs(contacts[0].gap));
  }
  EXPECT_LE(worst_energy, 1e-6);
  EXPECT_LE(worst_height, 1e-9);
  EXPECT_LE(worst_slip, 1e-9);
  EXPECT_LE(worst_gap, 1e-9) << "touching at the end of every step";
  EXPECT_NEAR(bodies[1].position.x(), -30.0, 1e-6);
  EXPECT_NEAR(contacts[0].p_n, 9.81 * 0.01, 1e-9) << "the weight over a step";
  EXPECT_NEAR(contacts[0].p_t, 0.0, 1e-9);
  EXPECT_NEAR(contacts[0].a2.y(), 0.0, 1e-9);
  EXPECT_NEAR(contacts[0].a2.x(), bodies[1].position.x(), 1e-9) << "under the centre";
  EXPECT_LE(most_iterations, 20);
}

// The disc thrown sliding without spin (nu0 = (-3, 0, 0)): friction mu m g slows it and spins
// it up until it rolls, at t = 3 / (mu g (1 + m r^2 / I)) = 0.2548 s, and from then on it rolls
// at v = -2, omega = 2 (angular momentum about the contact point, -3 = m v - I omega... kept:
// friction acts through that point). While it slides |p_t| = mu p_n (the cone's edge).
TEST(ImplicitStep, ASlidingDiscSpinsUpUntilItRollsAtTwoThirdsOfItsSpeed) {
  std::vector<ImplicitBody> bodies{ground_line(), ImplicitBody{}};
  ImplicitBody& disc = bodies[1];
  disc.inertia = Vec3(0.5, 0.5, 0.5).asDiagonal();
  disc.position = Vec3(0.0, 1.0, 0.0);
  disc.velocity = Vec3(-3.0, 0.0, 0.0);
  const double mu = 0.4, g = 9.81, h = 0.01;
  const std::vector<ImplicitPair> pairs{{0, 1, mu, Vec3::Ones(), {}}};
  ImplicitStepOptions o;
  o.dimension = 2;
  o.h = h;
  o.gravity = Vec3(0.0, -g, 0.0);
  std::vector<ImplicitContact> contacts;
  for (int k = 1; k <= 100; ++k) {
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, o);
    ASSERT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    const double t = k * h;
    if (t < 0.25) {  // sliding: v = -3 + mu g t, omega = mu m g r t / I
      EXPECT_NEAR(bodies[1].velocity.x(), -3.0 + mu * g * t, 1e-9) << k;
      EXPECT_NEAR(bodies[1].angular_velocity.z(), mu * g * t / 0.5, 1e-9) << k;
      EXPECT_NEAR(std::abs(contacts[0].p_t), mu * contacts[0].p_n, 1e-9) << k;
      EXPECT_GT(contacts[0].sigma, 0.0) << k;
    }
    EXPECT_NEAR(bodies[1].position.y(), 1.0, 1e-9) << k;
  }
  EXPECT_NEAR(bodies[1].velocity.x(), -2.0, 1e-9);
  EXPECT_NEAR(bodies[1].angular_velocity.z(), 2.0, 1e-9);
  EXPECT_NEAR(contacts[0].p_t, 0.0, 1e-9) << "rolling needs no friction";
  EXPECT_NEAR(implicit_kinetic_energy(bodies), 3.0, 1e-8);
}

// In 3D the same with a solid sphere (I = 2/5 m r^2): it rolls from v = 5/7 v0 on, after
// t = 2 v0 / (7 mu g); the contact point stays under the centre, the sphere on the plane.
TEST(ImplicitStep, ASlidingSphereRollsAtFiveSeventhsOfItsSpeed) {
  ImplicitBody plane;
  plane.is_static = true;
  plane.shape.kind = ImplicitFunction::Kind::HalfSpace;
  ImplicitBody ball;
  ball.mass = 2.0;
  ball.inertia = Mat3::Identity() * 0.4 * 2.0 * 0.25;  // r = 0.5
  ball.shape.radii = Vec3::Constant(0.5);
  ball.position = Vec3(0.0, 0.0, 0.5);
  ball.velocity = Vec3(2.0, 1.0, 0.0);
  std::vector<ImplicitBody> bodies{plane, ball};
  const double mu = 0.3, g = 9.81;
  const std::vector<ImplicitPair> pairs{{0, 1, mu, Vec3(1.0, 1.0, 0.1), {}}};
  ImplicitStepOptions o;
  o.h = 0.005;
  std::vector<ImplicitContact> contacts;
  const Vec3 v0 = ball.velocity;
  const double t_roll = 2.0 * v0.norm() / (7.0 * mu * g);
  double worst_gap = 0.0;
  for (int k = 1; k <= 200; ++k) {
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, o);
    ASSERT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    worst_gap = std::max(worst_gap, std::abs(contacts[0].gap));
    if (k * o.h < t_roll - o.h) {
      // Sliding: friction mu m g against the slip, which keeps the initial direction.
      EXPECT_NEAR((bodies[1].velocity - v0).norm(), mu * g * k * o.h, 1e-8) << k;
      EXPECT_NEAR(std::hypot(contacts[0].p_t, contacts[0].p_o), mu * contacts[0].p_n, 1e-9);
    }
  }
  EXPECT_LE(worst_gap, 1e-9);
  EXPECT_NEAR(bodies[1].position.z(), 0.5, 1e-9);
  EXPECT_LE((bodies[1].velocity - 5.0 / 7.0 * v0).norm(), 1e-8);
  const Vec3 w = bodies[1].angular_velocity;
  EXPECT_LE((bodies[1].velocity + w.cross(Vec3(0.0, 0.0, -0.5))).norm(), 1e-8) << "rolling";
  EXPECT_NEAR(contacts[0].a1.z(), 0.0, 1e-9);
  EXPECT_LE((contacts[0].a2.head<2>() - bodies[1].position.head<2>()).norm(), 1e-9);
}

// Example 2: the unit sphere on two fixed spheres (radius 10 at the origin, contact 1; radius 9
// at (0, 11.4, 0), contact 2) under the constant wrench (1, 2.6, -9.81, 0, 0, 0), e = (1, 1,
// 0.3), mu = 0.2, h = 0.01, starting at rest touching both. The paper gives no mass or inertia:
// m = 1 (the wrench's -9.81 is its weight) and a solid sphere, I = 0.4. The paper's Fig. 4-5:
// contact 1 slides from the start (its friction on the ellipsoidal cone's boundary), contact 2
// rolls until about 3.0 s and then slides; contact 1 separates near 3.2 s, contact 2 near 3.6 s,
// all with the fixed step (times read from its figure). Here: the same order, each event within
// 0.15 s of the paper's (measured: 2.94, 3.21, 3.70 s), and no penetration at the end of any step.
struct Example2Events {
  double slides2 = -1.0, leaves1 = -1.0, leaves2 = -1.0;
  double worst_penetration = 0.0, worst_cone1 = 0.0, worst_roll2 = 0.0;
};

// Example 2 for 4 s with the ellipsoidal law's e: when contact 2 starts sliding, when each
// contact separates, and the invariants on the way.
Example2Events example2(const Vec3& e) {
  ImplicitBody big, small, ball;
  big.is_static = small.is_static = true;
  big.shape.radii = Vec3::Constant(10.0);
  small.shape.radii = Vec3::Constant(9.0);
  small.position = Vec3(0.0, 11.4, 0.0);
  ball.inertia = Mat3::Identity() * 0.4;
  ball.position = Vec3(0.0, 6.62105263157895, 8.78417110772903);
  ball.force = Vec3(1.0, 2.6, -9.81);
  std::vector<ImplicitBody> bodies{big, small, ball};
  const double mu = 0.2;
  const std::vector<ImplicitPair> pairs{{0, 2, mu, e, {}}, {1, 2, mu, e, {}}};
  ImplicitStepOptions o;
  o.h = 0.01;
  o.gravity = Vec3::Zero();
  std::vector<ImplicitContact> c;
  Example2Events ev;
  for (int k = 1; k <= 400; ++k) {
    const ImplicitStepReport r = implicit_step(bodies, pairs, c, o);
    EXPECT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    if (!r.solved) break;
    const double t = k * o.h;
    for (const ImplicitContact& x : c)
      ev.worst_penetration = std::max(ev.worst_penetration, -x.gap);
    if (ev.slides2 < 0.0 && c[1].p_n > 0.0 && c[1].sigma > 1e-6) ev.slides2 = t;
    if (ev.leaves1 < 0.0 && c[0].gap > 1e-9) ev.leaves1 = t;
    if (ev.leaves2 < 0.0 && c[1].gap > 1e-9) ev.leaves2 = t;
    if (ev.leaves1 < 0.0) {  // contact 1 slides: sigma > 0 and the friction on the cone's boundary
      EXPECT_GT(c[0].sigma, 0.0) << t;
      double on_cone =
          c[0].p_t * c[0].p_t / (e.x() * e.x()) + c[0].p_o * c[0].p_o / (e.y() * e.y());
      if (e.z() > 0.0) on_cone += c[0].p_r * c[0].p_r / (e.z() * e.z());
      ev.worst_cone1 = std::max(ev.worst_cone1, std::abs(std::sqrt(on_cone) - mu * c[0].p_n));
    }
    if (ev.slides2 < 0.0) ev.worst_roll2 = std::max(ev.worst_roll2, std::abs(c[1].sigma));
  }
  std::printf(
      "e_r %.1f: contact 2 slides from %.2f s, contact 1 leaves at %.2f s, contact 2 at %.2f s\n",
      e.z(), ev.slides2, ev.leaves1, ev.leaves2);
  return ev;
}

TEST(ImplicitStep, Example2TheSphereOnTwoSpheresRollsSlidesAndLeavesAsInThePaper) {
  const Example2Events ev = example2(Vec3(1.0, 1.0, 0.3));
  EXPECT_NEAR(ev.slides2, 3.0, 0.15);
  EXPECT_NEAR(ev.leaves1, 3.2, 0.15);
  EXPECT_NEAR(ev.leaves2, 3.6, 0.15);
  EXPECT_LT(ev.slides2, ev.leaves1);
  EXPECT_LT(ev.leaves1, ev.leaves2);
  EXPECT_LE(ev.worst_cone1, 1e-9);
  EXPECT_LE(ev.worst_roll2, 1e-9) << "contact 2 rolls until it slides";
  EXPECT_LE(ev.worst_penetration, 1e-9);
}

// With Coulomb's law alone (e_r = 0: the contacts do not resist spinning about their normals)
// the same events in the same order; contact 1 slides on the cone's boundary and contact 2
// rolls until it slides. (Newton reaches contact 1's slow start of sliding only through the
// restart with the friction disc's edge rounded.)
TEST(ImplicitStep, Example2WithCoulombFrictionAloneTakesTheSameTransitions) {
  const Example2Events ev = example2(Vec3(1.0, 1.0, 0.0));
  EXPECT_GT(ev.slides2, 0.0);
  EXPECT_LT(ev.slides2, ev.leaves1);
  EXPECT_LT(ev.leaves1, ev.leaves2);
  EXPECT_LE(ev.worst_cone1, 1e-9);
  EXPECT_LE(ev.worst_roll2, 1e-9);
  EXPECT_LE(ev.worst_penetration, 1e-9);
}

// A spinning ellipsoid (semi-axes 0.6, 0.3, 0.2) dropped tilted onto a plane: the pair enters
// the problem while apart (p_n = 0), the impact is inelastic, and through the rocking that
// follows (rolling on a smooth body dissipates nothing) the body never ends a step inside the
// plane, the end-of-step closest points being solved with the rotated shape, and the total
// energy never grows from one step to the next.
TEST(ImplicitStep, ATumblingEllipsoidNeverEndsAStepInsideThePlaneNorGainsEnergy) {
  ImplicitBody plane;
  plane.is_static = true;
  plane.shape.kind = ImplicitFunction::Kind::HalfSpace;
  ImplicitBody body;
  body.shape.kind = ImplicitFunction::Kind::Ellipsoid;
  body.shape.radii = Vec3(0.6, 0.3, 0.2);
  body.mass = 2.0;
  const Vec3 r2 = body.shape.radii.cwiseProduct(body.shape.radii);
  body.inertia = Vec3(r2.y() + r2.z(), r2.x() + r2.z(), r2.x() + r2.y()).asDiagonal();
  body.inertia *= body.mass / 5.0;
  body.position = Vec3(0.0, 0.0, 1.0);
  body.orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 0.5).normalized()));
  body.angular_velocity = Vec3(1.0, -2.0, 3.0);
  std::vector<ImplicitBody> bodies{plane, body};
  const std::vector<ImplicitPair> pairs{{0, 1, 0.5, Vec3(1.0, 1.0, 0.1), {}}};
  ImplicitStepOptions o;
  o.h = 0.005;
  std::vector<ImplicitContact> c;
  double worst_penetration = 0.0, worst_gain = 0.0;
  int touched = -1;
  auto energy = [&] {
    return implicit_kinetic_energy(bodies) + 2.0 * 9.81 * bodies[1].position.z();
  };
  double before = energy();
  for (int k = 1; k <= 1200; ++k) {  // 6 s
    const ImplicitStepReport r = implicit_step(bodies, pairs, c, o);
    ASSERT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    worst_penetration = std::max(worst_penetration, -c[0].gap);
    if (touched < 0 && c[0].p_n > 0.0) touched = k;
    worst_gain = std::max(worst_gain, energy() - before);
    before = energy();
  }
  EXPECT_GT(touched, 50) << "it fell for a while first";
  EXPECT_LE(worst_penetration, 1e-9);
  EXPECT_LE(worst_gain, 1e-12) << "the Euler step with implicit contact only dissipates";
  EXPECT_LT(energy(), 2.0 * 9.81 * 1.0) << "the impact took energy";
}

// Example 3, (48)-(55): the rigid unit disc (m = 1, I = 0.5) dropped from q_y = 1.5 onto a
// quasi-rigid ground (k = 1000, c = 0, no friction), h = 1e-4. The analytic motion: free fall
// to touch-down at t = 0.31928 s (v = 3.13209 m/s), the spring compresses, and
// - with delta_max = 0.05 the core is hit at t = 0.33554 s (v = 2.87941 m/s; the inelastic
//   impact leaves E = 10.5695 J of 14.715 J); from then on the disc rises to q_y = 1.07742 and
//   comes back to delta_max at rest, a period of 0.36621 s;
// - with delta_max = 1 the shell alone stops it at the deflection 0.10934 m and throws it back
//   to 1.5 m after 0.74414 s.
// The paper's first-order Euler step (6) dissipates O(h): free flight loses h g^2 / 2 J/s and
// the implicit spring (37) a fraction (omega h)^2 of its energy per step; so the energy never
// grows, and the figures converge to the analytic ones with h.
struct DropResult {
  double core_time = -1.0;  // first step with a core impulse
  int core_steps = 0;
  double max_deflection = 0.0, worst_gap = 0.0, worst_drift = 0.0, energy_rise = 0.0;
  double energy_after_core = 0.0;
  std::vector<double> apex_times, apex_heights, apex_energies;
};

DropResult drop_on_shell(double max_deflection, double h, double duration) {
  std::vector<ImplicitBody> bodies{ImplicitBody{}, ground_line()};
  ImplicitBody& disc = bodies[0];
  disc.mass = 1.0;
  disc.inertia = Vec3(0.5, 0.5, 0.5).asDiagonal();
  disc.position = Vec3(0.0, 1.5, 0.0);
  std::vector<ImplicitPair> pairs{{0, 1, 0.0, Vec3::Ones(), {}}};
  pairs[0].shell.stiffness(0, 0) = 1000.0;
  pairs[0].shell.max_deflection = max_deflection;
  ImplicitStepOptions o;
  o.dimension = 2;
  o.h = h;
  o.gravity = Vec3(0.0, -9.81, 0.0);
  o.solver.tolerance = 1e-10;
  std::vector<ImplicitContact> contacts;
  DropResult out;
  auto energy = [&] {
    const double d = contacts.empty() ? 0.0 : contacts[0].deflection;
    return implicit_kinetic_energy(bodies) + 9.81 * bodies[0].position.y() + 500.0 * d * d;
  };
  double last_energy = energy(), last_vy = 0.0;
  const int steps = int(std::lround(duration / h));
  for (int k = 0; k < steps; ++k) {
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, o);
    EXPECT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    if (!r.solved) return out;
    const double t = (k + 1) * h, e = energy(), vy = bodies[0].velocity.y();
    const ImplicitContact& c = contacts[0];
    if (c.p_core > 1e-12) {
      if (out.core_time < 0.0) out.core_time = t;
      ++out.core_steps;
      out.energy_after_core = e;
    }
    out.max_deflection = std::max(out.max_deflection, c.deflection);
    out.worst_gap = std::min(out.worst_gap, c.gap);
    out.worst_drift = std::max({out.worst_drift, std::abs(bodies[0].position.x()),
                                std::abs(bodies[0].angular_velocity.z())});
    out.energy_rise = std::max(out.energy_rise, e - last_energy);
    if (last_vy > 0.0 && vy <= 0.0) {
      out.apex_times.push_back(t);
      out.apex_heights.push_back(bodies[0].position.y());
      out.apex_energies.push_back(e);
    }
    last_energy = e;
    last_vy = vy;
  }
  return out;
}

TEST(ImplicitStep, Example3TheDiscHitsTheQuasiRigidCoreThenBouncesOnTheShell) {
  const DropResult r = drop_on_shell(0.05, 1e-4, 0.9);
  EXPECT_NEAR(r.core_time, 0.33554, 2e-4);
  EXPECT_LE(r.core_steps, 2) << "one impact, then the shell alone";
  EXPECT_LE(r.max_deflection, 0.05 + 1e-9);
  EXPECT_GE(r.worst_gap, -1e-9) << "the disc never inside the deformed ground";
  EXPECT_LE(r.worst_drift, 1e-12) << "q_x and omega stay 0";
  EXPECT_NEAR(r.energy_after_core, 10.5695, 0.01) << "the core impact costs 4.1455 J";
  EXPECT_LE(r.energy_rise, 1e-9) << "the Euler step never creates energy";
  ASSERT_GE(r.apex_times.size(), 2u);
  EXPECT_NEAR(r.apex_heights[0], 1.07742, 2e-3);
  EXPECT_NEAR(r.apex_times[1] - r.apex_times[0], 0.36621, 3e-3);
  EXPECT_LT(r.apex_energies[0] - r.apex_energies[1], 2e-3 * r.apex_energies[0])
      << "O(h) dissipation per bounce";
}

TEST(ImplicitStep, Example3WithAThickShellTheDiscBouncesBackToItsHeight) {
  const DropResult r = drop_on_shell(1.0, 1e-4, 0.8);
  EXPECT_EQ(r.core_steps, 0) << "the core is never reached";
  EXPECT_NEAR(r.max_deflection, 0.10934, 5e-4);
  EXPECT_GE(r.worst_gap, -1e-9);
  EXPECT_LE(r.energy_rise, 1e-9);
  ASSERT_GE(r.apex_times.size(), 1u);
  EXPECT_NEAR(r.apex_times[0], 0.74414, 3e-3);
  EXPECT_NEAR(r.apex_heights[0], 1.5, 0.01);
}

// First order: a tenth of the step size brings the deepest deflection ten times closer.
TEST(ImplicitStep, Example3ConvergesToTheAnalyticDeflectionWithTheStepSize) {
  const double coarse = std::abs(drop_on_shell(1.0, 1e-4, 0.4).max_deflection - 0.10934008);
  const double fine = std::abs(drop_on_shell(1.0, 1e-5, 0.4).max_deflection - 0.10934008);
  EXPECT_LT(fine, coarse / 5.0) << coarse << " at h = 1e-4, " << fine << " at h = 1e-5";
  EXPECT_LT(fine, 5e-5);
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// A row of eight spheres (m = 1, r = 0.5) on the ground, frictionless, seven touching and the
// first coming at them at 1 m/s from 0.3 m away: the implicit step's impacts are
// perfectly inelastic, so the row ends moving as one at 1/8 m/s, with the x momentum kept and
// no sphere inside another or the ground. 15 pairs: 243 unknowns, solved by sparse LU; the same
// steps by dense LU give the same answer.
TEST(ImplicitStep, ARowOfSpheresSharesTheStrikersMomentumWithSparseAndDenseLuAlike) {
  std::vector<ImplicitBody> bodies{ImplicitBody{}};
  bodies[0].is_static = true;
  bodies[0].shape.kind = ImplicitFunction::Kind::HalfSpace;
  std::vector<ImplicitPair> pairs;
  for (int i = 0; i < 8; ++i) {
    ImplicitBody s;
    s.inertia = Mat3::Identity() * 0.1;
    s.shape.radii = Vec3::Constant(0.5);
    s.position = Vec3(i == 0 ? -0.3 : double(i), 0.0, 0.5);
    if (i == 0) s.velocity = Vec3(1.0, 0.0, 0.0);
    bodies.push_back(s);
    pairs.push_back({0, i + 1, 0.0, Vec3::Ones(), {}});
    if (i > 0) pairs.push_back({i, i + 1, 0.0, Vec3::Ones(), {}});
  }
  ImplicitStepOptions sparse;
  sparse.h = 0.01;
  ImplicitStepOptions dense = sparse;
  dense.solver.sparse_from = 1 << 30;
  ASSERT_GE(implicit_problem_size(bodies, pairs, 3), sparse.solver.sparse_from);
  std::vector<ImplicitBody> other = bodies;
  std::vector<ImplicitContact> contacts, other_contacts;
  double worst_gap = 0.0, worst_momentum = 0.0, worst_difference = 0.0;
  for (int k = 0; k < 60; ++k) {
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, sparse);
    ASSERT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    ASSERT_TRUE(implicit_step(other, pairs, other_contacts, dense).solved) << k;
    double momentum = 0.0;
    for (std::size_t i = 1; i < bodies.size(); ++i) {
      momentum += bodies[i].velocity.x();
      worst_difference =
          std::max(worst_difference, (bodies[i].position - other[i].position).norm());
    }
    worst_momentum = std::max(worst_momentum, std::abs(momentum - 1.0));
    for (const ImplicitContact& c : contacts) worst_gap = std::min(worst_gap, c.gap);
  }
  EXPECT_LE(worst_momentum, 1e-9);
  EXPECT_GE(worst_gap, -1e-9);
  EXPECT_LE(worst_difference, 1e-8);
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    EXPECT_NEAR(bodies[i].velocity.x(), 0.125, 1e-6) << i;
    EXPECT_NEAR(bodies[i].position.z(), 0.5, 1e-9) << i;
  }
}

}  // namespace
}  // namespace pegsim
