// Coulomb friction whatever the heading (formulation/friction_basis.hpp): with the linearized
// cone turned to serve the motion, a block sliding on a plane keeps its heading and
// decelerates at mu g, a block on an incline slides at g (sin theta - mu cos theta) straight
// down the fall line, and one with mu >= tan theta stays put, for every direction of motion
// relative to the world axes. The analytic answers are those of the step itself: the
// velocity-level update v_k = v_0 - k h a (exact for a constant deceleration a) and
// x_k = x_{k-1} + h v_k.
#include <gtest/gtest.h>

#include <cmath>

#include "../dynamics/test_world.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/formulation/friction_basis.hpp"

namespace pegsim {
namespace {

using test::kG;
constexpr double kDeg = M_PI / 180.0;

double degrees_between(const Vec3& a, const Vec3& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) / kDeg;
}

TEST(FrictionBasis, OpposesTheTangentialSlipAndFallsBackAtRest) {
  const Vec3 n(0, 0, 1);
  const Vec3 t0 = friction_basis(n, Vec3(3.0, 4.0, -7.0));
  EXPECT_NEAR((t0 - Vec3(-0.6, -0.8, 0.0)).norm(), 0.0, 1e-15);
  EXPECT_EQ(friction_basis(n, Vec3(0, 0, -1)), any_perpendicular(n));
}

// A 0.4 m cube on level ground (mu 0.5), pushed at 2 m/s along the heading `deg`.
struct Slide {
  Vec3 direction;  // unit heading of the push
  Vec3 stop;       // displacement where it came to rest
  double speed_at_half = 0.0;
  bool failed = false;
};

Slide push_cube(double deg, int directions, double h) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int cube =
      w.add_box("cube", Vec3(0.4, 0.4, 0.4), 2.0, Vec3(0, 0, 0.2), Quat::Identity(), 0.5);
  Slide out;
  out.direction = Vec3(std::cos(deg * kDeg), std::sin(deg * kDeg), 0.0);
  w.state.bodies[cube].velocity = 2.0 * out.direction;
  Settings s = test::step_settings(h, Vec3(0, 0, -kG));
  s.friction_directions = directions;
  Simulator sim(w.model, w.state, s);
  const int steps = static_cast<int>(std::lround(1.0 / h));
  for (int k = 1; k <= steps; ++k) {
    if (sim.step().failed) {
      out.failed = true;
      return out;
    }
    if (k == steps / 4) out.speed_at_half = sim.state().bodies[cube].velocity.norm();
  }
  out.stop = sim.state().bodies[cube].position - Vec3(0, 0, 0.2);
  return out;
}

TEST(FrictionHeading, APushedCubeKeepsItsHeadingAndStopsWhereCoulombSays) {
  const double h = 0.01, a = 0.5 * kG, v0 = 2.0;
  // Velocity-level steps: v_k = v0 - k h a while positive, x = h sum v_k.
  double stop = 0.0;
  for (int k = 1; v0 - k * h * a > 0.0; ++k) stop += h * (v0 - k * h * a);
  ASSERT_NEAR(stop, v0 * v0 / (2 * a), h * v0);  // the continuous answer, within the step's own
  for (int deg = 0; deg < 360; deg += 15) {
    SCOPED_TRACE(deg);
    const Slide r = push_cube(deg, 7, h);
    ASSERT_FALSE(r.failed);
    EXPECT_LT(degrees_between(r.stop, r.direction), 0.1);
    EXPECT_NEAR(r.stop.norm(), stop, 0.005 * stop);
    // a from the speed a quarter of the way (0.25 s, still sliding): v = v0 - a t.
    EXPECT_NEAR((v0 - r.speed_at_half) / 0.25, a, 0.005 * a);
  }
}

TEST(FrictionHeading, FourDirectionsServeEveryHeadingToo) {
  const double h = 0.01, a = 0.5 * kG;
  for (int deg : {0, 20, 45, 70}) {
    SCOPED_TRACE(deg);
    const Slide r = push_cube(deg, 4, h);
    ASSERT_FALSE(r.failed);
    EXPECT_LT(degrees_between(r.stop, r.direction), 0.1);
    EXPECT_NEAR((2.0 - r.speed_at_half) / 0.25, a, 0.005 * a);
  }
}

// A 0.5 x 0.5 x 0.25 block on a 30 degree incline whose downhill direction points along the
// heading `deg` (the incline turned about the vertical), from rest, mu on both.
struct Incline {
  Vec3 downhill;      // unit, in the incline
  Vec3 displacement;  // after 2 s
  Vec3 velocity;      // after 2 s
  bool failed = false;
};

Incline block_on_incline(double deg, double mu, int directions) {
  const double theta = 30.0 * kDeg;
  const Quat turn(Eigen::AngleAxisd(deg * kDeg, Vec3::UnitZ()));
  // Tilt about y by -theta: the normal leans towards -x, so downhill is -x before the turn.
  const Quat tilt = turn * Quat(Eigen::AngleAxisd(-theta, Vec3::UnitY()));
  test::World w;
  w.add_plane("incline", Vec3::Zero(), tilt, mu);
  const Vec3 n = tilt * Vec3::UnitZ();
  const int block = w.add_box("block", Vec3(0.5, 0.5, 0.25), 1.0, 0.125 * n, tilt, mu);
  Settings s = test::step_settings(0.01, Vec3(0, 0, -kG));
  s.friction_directions = directions;
  Simulator sim(w.model, w.state, s);
  Incline out;
  out.downhill = turn * Vec3(-std::cos(theta), 0.0, -std::sin(theta));
  for (int k = 0; k < 200; ++k)
    if (sim.step().failed) {
      out.failed = true;
      return out;
    }
  out.displacement = sim.state().bodies[block].position - 0.125 * n;
  out.velocity = sim.state().bodies[block].velocity;
  return out;
}

TEST(FrictionHeading, ABlockSlidesDownTheFallLineAtCoulombsAcceleration) {
  const double theta = 30.0 * kDeg;
  const double a = kG * (std::sin(theta) - 0.3 * std::cos(theta));  // 2.3563 m/s^2
  for (int deg = 0; deg < 360; deg += 30) {
    SCOPED_TRACE(deg);
    const Incline r = block_on_incline(deg, 0.3, 7);
    ASSERT_FALSE(r.failed);
    EXPECT_LT(degrees_between(r.displacement, r.downhill), 0.1);
    EXPECT_NEAR(r.velocity.dot(r.downhill) / 2.0, a, 0.005 * a);  // v = a t, t = 2 s
  }
}

TEST(FrictionHeading, ABlockWithMuAboveTanThetaStaysPutWhateverItsHeading) {
  for (int deg = 0; deg < 360; deg += 30) {
    SCOPED_TRACE(deg);
    for (int directions : {4, 7}) {
      const Incline r = block_on_incline(deg, 0.6, directions);  // tan 30 = 0.577
      ASSERT_FALSE(r.failed);
      EXPECT_LT(r.displacement.norm(), 1e-6) << directions << " directions";
    }
  }
}

}  // namespace
}  // namespace pegsim
