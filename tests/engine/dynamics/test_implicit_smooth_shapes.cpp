// Ellipses, ellipsoids and superquadrics under formulation geometrically-implicit (seed 001's
// (21)-(22) with their own surfaces, not the tessellations): rocking periods against the
// small-oscillation closed forms, a head-on collision against momentum conservation, and
// resting and sliding against statics and Coulomb's law.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/smooth_shapes.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kG;

// A body of mass m whose shape is the superquadric sum |x_i / a_i|^p <= 1 (in 2D the
// superellipse over x, y), tessellated for the other formulations.
Body smooth_body(const std::string& name, const Vec3& a, double p, double m, double mu,
                 bool planar) {
  Body b;
  b.name = name;
  b.mass = m;
  b.mu = mu;
  b.shape = make_smooth_shape(a, p, planar ? 64 : 32, planar);
  const MassProperties u = smooth_mass_properties(b.shape);
  b.inertia = m / u.volume * u.inertia;
  return b;
}

// The mean period of a signal's upward zero crossings (linear interpolation between samples).
double mean_period(const std::vector<double>& t, const std::vector<double>& x) {
  std::vector<double> crossings;
  for (std::size_t k = 1; k < x.size(); ++k)
    if (x[k - 1] < 0.0 && x[k] >= 0.0)
      crossings.push_back(t[k - 1] + (t[k] - t[k - 1]) * -x[k - 1] / (x[k] - x[k - 1]));
  if (crossings.size() < 2) return 0.0;
  return (crossings.back() - crossings.front()) / double(crossings.size() - 1);
}

// A body of semi-axes a (horizontal) and c (vertical, c < a) rocking on flat ground about its
// lowest point: the contact's radius of curvature is rho = a^2 / c, the CoM c above it, so the
// small oscillations have omega^2 = m g (rho - c) / (I + m c^2) rolling without slip, and
// m g (rho - c) / I on frictionless ground (the CoM then only moves vertically).
double rocking_period(double a, double c, double m, double inertia, bool slips) {
  const double rho = a * a / c;
  return 2.0 * std::numbers::pi /
         std::sqrt(m * kG * (rho - c) / (inertia + (slips ? 0.0 : m * c * c)));
}

struct Rocking {
  double period = 0.0;
  double worst_gap = 0.0;     // the most negative end-of-step gap
  double com_drift = 0.0;     // the largest horizontal CoM excursion
  double energy_rise = -1e9;  // the largest rise of the energy above its start
};

// An ellipse (2D, a = 1, b = 0.5, rocking in x-y) or an ellipsoid (1, 0.7, 0.5, rocking about
// y) released at rest tilted by 0.02 rad, touching the ground, for 4 s at h = 1e-3. The period
// grows with the amplitude (by 0.1 % at 0.02 rad, 0.5 % at 0.05: as its square) and hardly
// with h (0.003 % from h = 1e-3 to 2.5e-4).
Rocking rock(bool planar, double mu) {
  const double a = 1.0, c = 0.5, m = 2.0, tilt = 0.02, h = 1e-3;
  test::World w;
  if (planar)
    w.add_half_plane("ground", 1.0);
  else
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 1.0);
  const Vec3 axes = planar ? Vec3(a, c, c) : Vec3(a, 0.7, c);
  Body body = smooth_body("rocker", axes, 2.0, m, mu, planar);
  const Vec3 axis = planar ? Vec3::UnitZ() : Vec3::UnitY();
  const double height =
      std::sqrt(a * a * std::sin(tilt) * std::sin(tilt) + c * c * std::cos(tilt) * std::cos(tilt));
  const int id = w.add(body, planar ? Vec3(0, height, 0) : Vec3(0, 0, height),
                       Quat(Eigen::AngleAxisd(tilt, axis)));
  Settings s = test::implicit_settings(h, planar ? Vec3(0, -kG, 0) : Vec3(0, 0, -kG));
  if (planar) s.friction_directions = 2;
  Simulator sim(w.model, w.state, s);
  const std::size_t i = std::size_t(id);
  auto energy = [&] {
    const BodyState& b = sim.state().bodies[i];
    const Vec3 omega_body = b.orientation.conjugate() * b.angular_velocity;
    return 0.5 * m * b.velocity.squaredNorm() + 0.5 * omega_body.dot(body.inertia * omega_body) +
           m * kG * (planar ? b.position.y() : b.position.z());
  };
  const double e0 = energy();
  Rocking out;
  std::vector<double> t, angle;
  for (int k = 0; k < 4000; ++k) {
    const StepReport& r = sim.step();
    EXPECT_FALSE(r.failed) << k << ": " << r.failure;
    if (r.failed) break;
    for (const Contact& ct : r.contacts) out.worst_gap = std::min(out.worst_gap, ct.gap);
    const BodyState& b = sim.state().bodies[i];
    const Eigen::AngleAxisd turn(b.orientation);
    t.push_back(sim.state().time);
    angle.push_back(turn.angle() * turn.axis().dot(axis));
    out.com_drift = std::max(out.com_drift, std::abs(b.position.x()));
    out.energy_rise = std::max(out.energy_rise, energy() - e0);
  }
  out.period = mean_period(t, angle);
  return out;
}

// Both rocking periods within 0.25 %, no step ending inside the ground, the energy never
// above its start, and on frictionless ground the centre on its vertical.
void expect_rocking(bool planar, double inertia) {
  const double m = 2.0;
  const Rocking rolls = rock(planar, 1.0), slides = rock(planar, 0.0);
  const double rolling = rocking_period(1.0, 0.5, m, inertia, false);
  const double sliding = rocking_period(1.0, 0.5, m, inertia, true);
  EXPECT_NEAR(rolls.period, rolling, 0.0025 * rolling);
  EXPECT_NEAR(slides.period, sliding, 0.0025 * sliding);
  EXPECT_LE(slides.com_drift, 1e-9) << "no horizontal force on frictionless ground";
  for (const Rocking& r : {rolls, slides}) {
    EXPECT_GE(r.worst_gap, -1e-8);
    EXPECT_LE(r.energy_rise, 1e-9);
  }
}

TEST(ImplicitSmoothShapes, AnEllipseRocksAtTheRollingAndTheSlidingPeriods) {
  expect_rocking(true, 2.0 * (1.0 + 0.25) / 4.0);  // lamina: m (a^2 + b^2) / 4: 1.2285, 0.9156 s
}

TEST(ImplicitSmoothShapes, AnEllipsoidRocksAtTheRollingAndTheSlidingPeriods) {
  expect_rocking(false, 2.0 * (1.0 + 0.25) / 5.0);  // about y: m (a^2 + c^2) / 5: 1.1582, 0.8190 s
}

// A superquadric (p = 4, a rounded cube of half-width 0.5) on ground tilted by 20 degrees
// (gravity turned instead): with mu = 0.2 < tan 20 it slides, and once the rocking friction
// starts has died away it accelerates at g (sin 20 - mu cos 20) = 1.5115 m/s^2. On 10 degrees
// with mu = 0.5 friction holds it: it rocks about its rest tilt without slipping (rolling
// without slip dissipates nothing, so the rocking lasts). (Steeper than 19.5 degrees it could not:
// no point of the p = 4 surface has its normal that far from the line to the centre, so held by
// friction it tumbles.)
TEST(ImplicitSmoothShapes, ASuperquadricOnAnInclineSlidesOrStaysAsCoulombSays) {
  // vx: the velocity down the slope; slip: the largest speed of the body's contact point in the
  // ground's plane over the last second.
  auto run = [&](double degrees, double mu, std::vector<double>& vx, double& worst_gap,
                 double& slip) {
    const double angle = degrees * std::numbers::pi / 180.0;
    const Vec3 gravity = kG * Vec3(std::sin(angle), 0.0, -std::cos(angle));
    test::World w;
    w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
    const int id =
        w.add(smooth_body("block", Vec3::Constant(0.5), 4.0, 1.0, mu, false), Vec3(0.0, 0.0, 0.5));
    Simulator sim(w.model, w.state, test::implicit_settings(1e-3, gravity));
    worst_gap = slip = 0.0;
    for (int k = 0; k < 3000; ++k) {
      const StepReport& r = sim.step();
      EXPECT_FALSE(r.failed) << k << ": " << r.failure;
      if (r.failed) break;
      for (const Contact& c : r.contacts) worst_gap = std::min(worst_gap, c.gap);
      const BodyState& b = sim.state().bodies[std::size_t(id)];
      vx.push_back(b.velocity.x());
      if (k >= 2000 && r.contacts.size() == 1) {
        const Vec3 point =
            b.velocity + b.angular_velocity.cross(r.contacts[0].point_a - b.position);
        slip = std::max(slip, point.head<2>().norm());
      }
    }
    return sim.state().bodies[std::size_t(id)];
  };
  std::vector<double> vx;
  double worst_gap = 0.0, slip = 0.0;
  run(20.0, 0.2, vx, worst_gap, slip);
  ASSERT_EQ(vx.size(), 3000u);
  const double a = (vx[2999] - vx[1999]) / 1.0;
  const double angle = 20.0 * std::numbers::pi / 180.0;
  EXPECT_NEAR(a, kG * (std::sin(angle) - 0.2 * std::cos(angle)), 0.005 * 1.5115);
  EXPECT_GE(worst_gap, -1e-8);
  vx.clear();
  const BodyState held = run(10.0, 0.5, vx, worst_gap, slip);
  EXPECT_LE(slip, 1e-6) << "it rocks on the spot, rolling without slip";
  EXPECT_LE(std::abs(held.position.x()), 0.01);
  EXPECT_GE(worst_gap, -1e-8);
}

// Two ellipsoids meet off-centre in zero gravity (masses 1 and 3, turned, one spinning): the
// impulses are equal and opposite at one point, so the total momentum is that of the start,
// to rounding, and the bodies never overlap. The angular momentum about the origin changes by
// h (v_b - v_a) x p over a step of impulse p (each body moves by h v at the end of the step,
// after which the impulse's arm is measured): kept to first order in h.
TEST(ImplicitSmoothShapes, TwoEllipsoidsCollideKeepingMomentumAndAngularMomentum) {
  auto collide = [](double h, double mu, double& worst_gap, double& most_impulse) {
    test::World w;
    const int a = w.add(smooth_body("a", Vec3(0.5, 0.3, 0.3), 2.0, 1.0, mu, false),
                        Vec3(-1.0, 0.0, 0.0), Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())));
    const int b = w.add(smooth_body("b", Vec3(0.4, 0.4, 0.25), 2.0, 3.0, mu, false),
                        Vec3(1.0, 0.05, 0.1), Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX())));
    w.state.bodies[std::size_t(a)].velocity = Vec3(2.0, 0.0, 0.0);
    w.state.bodies[std::size_t(a)].angular_velocity = Vec3(0.0, 0.0, 1.0);
    w.state.bodies[std::size_t(b)].velocity = Vec3(-1.0, 0.0, 0.0);
    Simulator sim(w.model, w.state, test::implicit_settings(h, Vec3::Zero()));
    auto momenta = [&](Vec3& p, Vec3& l) {
      p.setZero();
      l.setZero();
      for (const int i : {a, b}) {
        const Body& body = sim.model().bodies[std::size_t(i)];
        const BodyState& s = sim.state().bodies[std::size_t(i)];
        const Mat3 R = s.orientation.toRotationMatrix();
        p += body.mass * s.velocity;
        l += body.mass * s.position.cross(s.velocity) +
             R * body.inertia * R.transpose() * s.angular_velocity;
      }
    };
    Vec3 p0, l0, p, l;
    momenta(p0, l0);
    double worst_l = 0.0;
    worst_gap = most_impulse = 0.0;
    for (long k = std::lround(1.0 / h); k > 0; --k) {
      const StepReport& r = sim.step();
      EXPECT_FALSE(r.failed) << r.failure;
      if (r.failed) break;
      for (std::size_t c = 0; c < r.contacts.size(); ++c) {
        worst_gap = std::min(worst_gap, r.contacts[c].gap);
        most_impulse = std::max(most_impulse, r.normal_impulse[c]);
      }
      momenta(p, l);
      worst_l = std::max(worst_l, (l - l0).norm());
      EXPECT_LE((p - p0).norm(), 1e-9);
    }
    return worst_l;
  };
  double gap = 0.0, impulse = 0.0, fine_gap = 0.0, fine_impulse = 0.0;
  collide(1e-3, 0.3, gap, impulse);  // with friction
  EXPECT_GT(impulse, 0.1) << "they met";
  EXPECT_GE(gap, -1e-8);
  const double coarse = collide(1e-3, 0.0, gap, impulse);
  const double fine = collide(1e-4, 0.0, fine_gap, fine_impulse);
  EXPECT_GT(fine_impulse, 0.1);
  EXPECT_LE(coarse, 5e-3);
  EXPECT_LE(fine, 0.15 * coarse) << "first order in h";
  EXPECT_GE(std::min(gap, fine_gap), -1e-8);
}

}  // namespace
}  // namespace pegsim
