// The volumetric contact model (seed 002 (3.1)) as whole steps: a body rests where its layer
// carries its weight, F = k_v V = m g; a ball's bounce follows F = k_v V(depth) (1 + a v) as a
// fine integration of that law gives it; a block slides down an incline at g (sin t - mu cos t)
// without turning or drifting, and rests below the break-away angle.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "../dynamics/test_world.hpp"
#include "bodies_2d.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim {
namespace {

constexpr double g = 9.81;

Settings volumetric_settings(double h, const Vec3& gravity) {
  Settings s = test::step_settings(h, gravity);
  s.contact_model = ContactModel::Volumetric;
  return s;
}

void set_layer(test::World& w, int body, double stiffness, double damping = 0.0) {
  w.model.bodies[body].layer = {stiffness, damping};
}

// A unit cube on the ground, both layers 2e9 N/m^3 (the pair's 1e9 in series): it rests
// 1 m^2 x d deep with k_v d = m g, d = 9.81e-9 m.
TEST(VolumetricModel, ACubeRestsWhereItsLayerCarriesItsWeight) {
  test::World w;
  const int ground = w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const int cube = w.add_box("cube", Vec3::Ones(), 1.0, Vec3(0, 0, 0.5));
  set_layer(w, ground, 2e9);
  set_layer(w, cube, 2e9);
  Simulator sim(w.model, w.state, volumetric_settings(1e-3, Vec3(0, 0, -g)));
  const StepReport* last = nullptr;
  for (int k = 0; k < 500; ++k) {
    last = &sim.step();
    ASSERT_FALSE(last->failed) << last->failure;
  }
  const double depth = g / 1e9;
  EXPECT_NEAR(sim.state().bodies[cube].position.z(), 0.5 - depth, 1e-3 * depth);
  const StepReport& r = *last;
  ASSERT_EQ(r.contacts.size(), 1u);
  EXPECT_NEAR(r.contacts[0].volume, depth, 1e-3 * depth);
  EXPECT_NEAR(r.contacts[0].gap, -depth, 1e-3 * depth);
  EXPECT_NEAR(r.contacts[0].volume_rate, 1.0, 1e-12);
  EXPECT_NEAR(r.normal_impulse[0], g * 1e-3, 1e-6 * g * 1e-3);
  EXPECT_LE(sim.state().bodies[cube].velocity.norm(), 1e-9);
  EXPECT_LE(sim.state().bodies[cube].angular_velocity.norm(), 1e-9);
}

// In the plane: a unit square on the half-plane y <= 0, both layers 2e7 N/m^2: 1 m x d deep
// with k_v d = m g, d = 9.81e-7 m.
TEST(VolumetricModel, ASquareRestsWhereItsLayerCarriesItsWeight) {
  test::World w;
  const int ground = w.add_half_plane("ground", 0.5);
  const int square = test::add_polygon(w, "square", make_rectangle(1, 1), 1.0, Vec2(0, 0.5));
  set_layer(w, ground, 2e7);
  set_layer(w, square, 2e7);
  Settings s = test::planar_settings(ContactModel::Volumetric, g);
  s.h = 1e-3;
  Simulator sim(w.model, w.state, s);
  const StepReport* last = nullptr;
  for (int k = 0; k < 500; ++k) {
    last = &sim.step();
    ASSERT_FALSE(last->failed) << last->failure;
  }
  const double depth = g / 1e7;
  EXPECT_NEAR(sim.state().bodies[square].position.y(), 0.5 - depth, 1e-3 * depth);
  EXPECT_NEAR(last->contacts.at(0).volume, depth, 1e-3 * depth);
  EXPECT_LE(sim.state().bodies[square].velocity.norm(), 1e-9);
}

// The reference bounce: m x'' = -k V(x) (1 + a x') while positive, x the depth of a ball of
// radius R in a half-space, V = pi x^2 (R - x / 3), from x = 0 at speed v0, by classical
// Runge-Kutta with a step 1e-4 of the contact time.
struct Bounce {
  double duration = 0.0, deepest = 0.0, exit_speed = 0.0;
};

Bounce reference_bounce(double m, double R, double k, double a, double v0) {
  auto accel = [&](double x, double v) {
    const double V = std::numbers::pi * x * x * (R - x / 3.0);
    return -std::max(0.0, k * V * (1.0 + a * v)) / m;
  };
  const double scale = std::cbrt(3.0 * m * v0 * v0 / (2.0 * k * std::numbers::pi * R)) / v0;
  const double dt = 1e-4 * scale;
  double x = 0.0, v = v0, t = 0.0;
  Bounce b;
  while (true) {
    const double k1x = v, k1v = accel(x, v);
    const double k2x = v + 0.5 * dt * k1v, k2v = accel(x + 0.5 * dt * k1x, v + 0.5 * dt * k1v);
    const double k3x = v + 0.5 * dt * k2v, k3v = accel(x + 0.5 * dt * k2x, v + 0.5 * dt * k2v);
    const double k4x = v + dt * k3v, k4v = accel(x + dt * k3x, v + dt * k3v);
    const double nx = x + dt / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x);
    const double nv = v + dt / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (nx <= 0.0) {  // out: the crossing by linear interpolation
      b.duration = t + dt * x / (x - nx);
      b.exit_speed = -nv;
      return b;
    }
    x = nx, v = nv, t += dt;
    b.deepest = std::max(b.deepest, x);
  }
}

// A ball (R = 0.5, 1 kg) thrown at 1 m/s onto the ground without gravity, the pair's k_v 1e9
// N/m^3: the contact lasts about 3 ms and reaches about 1.2 mm; with h = 2e-6 the step follows
// the law's own bounce, elastic (a = 0) and damped (a = 0.5 s/m).
TEST(VolumetricModel, ABallBouncesAsTheVolumeLawIntegratedFinelyDoes) {
  for (double a : {0.0, 0.5}) {
    test::World w;
    const int ground = w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.0);
    const int ball = w.add_sphere("ball", 0.5, 1.0, Vec3(0, 0, 0.5), 0.0);
    set_layer(w, ground, 2e9, a);
    set_layer(w, ball, 2e9, a);
    w.state.bodies[ball].velocity = Vec3(0, 0, -1.0);
    const double h = 2e-6;
    Simulator sim(w.model, w.state, volumetric_settings(h, Vec3::Zero()));
    double deepest = 0.0, first = -1.0, last = -1.0;
    for (int k = 0; k < 4000; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
      if (!r.contacts.empty()) {
        if (first < 0.0) first = sim.state().time - h;
        last = sim.state().time;
      }
      deepest = std::max(deepest, 0.5 - sim.state().bodies[ball].position.z());
    }
    const Bounce want = reference_bounce(1.0, 0.5, 1e9, a, 1.0);
    EXPECT_NEAR(deepest, want.deepest, 0.01 * want.deepest) << "a = " << a;
    EXPECT_NEAR(last - first, want.duration, 0.01 * want.duration) << "a = " << a;
    EXPECT_NEAR(sim.state().bodies[ball].velocity.z(), want.exit_speed, 0.01) << "a = " << a;
    if (a > 0.0) {
      EXPECT_LT(want.exit_speed, 0.97);  // the damping shows
    }
  }
}

// The seed's Test 1: a 1 x 0.5 x 0.5 m block of 1 kg, mu = 0.5, on a slope (gravity turned by
// the slope's angle t): on 30 degrees it slides at g (sin t - mu cos t) = 0.6571 m/s^2,
// straight and without turning; on 20 degrees (below atan 0.5 = 26.57) it stays.
// One second of the seed's Test 1 block (1 x 0.5 x 0.5 m, 1 kg, mu = 0.5) on a slope of
// `degrees` (gravity turned), started `depth` deep, with a stiction bristle k_s, c_s (0: none):
// the block's end state and its speed down the slope at 0.5 s.
struct SlopeRun {
  BodyState end;
  double v_half = 0.0;
};
SlopeRun block_on_slope(double degrees, double depth, double k_s = 0.0, double c_s = 0.0) {
  const double t = degrees * std::numbers::pi / 180.0;
  test::World w;
  w.add_plane("slope", Vec3::Zero(), Quat::Identity(), 0.5);
  const int block =
      w.add_box("block", Vec3(1, 0.5, 0.5), 1.0, Vec3(0, 0, 0.25 - depth), Quat::Identity(), 0.5);
  w.model.bodies[block].layer.stick_stiffness = k_s;
  w.model.bodies[block].layer.stick_damping = c_s;
  Simulator sim(w.model, w.state,
                volumetric_settings(1e-3, g * Vec3(std::sin(t), 0, -std::cos(t))));
  SlopeRun run;
  for (int k = 1; k <= 1000; ++k) {
    const StepReport& r = sim.step();
    EXPECT_FALSE(r.failed) << r.failure;
    if (k == 500) run.v_half = sim.state().bodies[block].velocity.x();
  }
  run.end = sim.state().bodies[block];
  return run;
}

TEST(VolumetricModel, ABlockSlidesDownAnInclineAtTheCoulombRateAndRestsBelowBreakAway) {
  for (double degrees : {30.0, 20.0}) {
    const double t = degrees * std::numbers::pi / 180.0;
    const SlopeRun run = block_on_slope(degrees, 0.0);
    const BodyState& s = run.end;
    const double want = std::max(0.0, g * (std::sin(t) - 0.5 * std::cos(t)));
    EXPECT_NEAR((s.velocity.x() - run.v_half) / 0.5, want, 1e-3 * g) << degrees;
    EXPECT_LE(std::abs(s.velocity.y()) + std::abs(s.position.y()), 1e-9) << degrees;
    EXPECT_LE(Eigen::AngleAxisd(s.orientation).angle(), 1e-5) << degrees;
    if (want == 0.0) {
      EXPECT_LE(s.velocity.norm(), 1e-6) << degrees;
    }
  }
}

// A ball rolling on level ground keeps its speed: turning it only slides its surface along
// itself, so its layer adds no resistance to rolling (a = 0), and v = omega R throughout (a
// layer resisting tilt as under a flat face, k_v h (tr P - P) omega, slowed it by 3 % in 2 s).
TEST(VolumetricModel, ABallRollsOnWithoutLosingSpeed) {
  const double R = 0.5, v0 = 2.0, h = 1e-3;
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  const double depth = std::sqrt(g / (0.5e9 * std::numbers::pi * R));  // k_v pi R d^2 = m g
  const int ball = w.add_sphere("ball", R, 1.0, Vec3(0, 0, R - depth));
  w.state.bodies[ball].velocity = Vec3(v0, 0, 0);
  w.state.bodies[ball].angular_velocity = Vec3(0, v0 / R, 0);
  Simulator sim(w.model, w.state, volumetric_settings(h, Vec3(0, 0, -g)));
  for (int k = 0; k < 2000; ++k) ASSERT_FALSE(sim.step().failed) << k;
  const BodyState& s = sim.state().bodies[ball];
  EXPECT_NEAR(s.velocity.x(), v0, 1e-4 * v0);
  // Rolling without slip about a contact point within the depth (d / R = 2e-4) of the surface.
  EXPECT_NEAR(s.angular_velocity.y() * R, s.velocity.x(), 5e-4 * v0);
  EXPECT_NEAR(s.position.x(), 2.0 * v0, 1e-4 * 2.0 * v0);
}

// The seed's Test 2: a disc (a 128-gon prism, R = 0.25, H = 0.05, 1 kg, mu = 0.6) spinning at
// 5 pi rad/s on the ground. Coulomb's law over the flat patch, torque mu m g 2R/3, stops it
// linearly at 3 R omega_0 / (4 mu g) = 0.5004 s; it stays where it is, upright.
TEST(VolumetricModel, ASpinningDiscStopsAtTheCoulombTime) {
  const double R = 0.25, H = 0.05, mu = 0.6, omega0 = 5.0 * std::numbers::pi, h = 1e-3;
  const Polytope disc = make_cylinder(128, R, H);
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
  const double k = 0.5e9, area = polytope_mass_properties(disc).volume / H;
  const int body =
      w.add_polytope("disc", disc, 1.0, Vec3(0, 0, H / 2 - g / (k * area)), Quat::Identity(), mu);
  w.state.bodies[body].angular_velocity = Vec3(0, 0, omega0);
  Simulator sim(w.model, w.state, volumetric_settings(h, Vec3(0, 0, -g)));
  const double alpha = 4.0 * mu * g / (3.0 * R), stop = omega0 / alpha;
  double stopped_at = -1.0;
  for (int k_step = 1; k_step <= 700; ++k_step) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << r.failure;
    const double omega = sim.state().bodies[body].angular_velocity.z(), t = k_step * h;
    if (t < stop - 0.01) {
      EXPECT_NEAR(omega, omega0 - alpha * t, 5e-4 * omega0) << t;  // the 128-gon: 2e-4 steeper
      // The torque on the disc: -mu m g 2R/3 over the step.
      ASSERT_EQ(r.torsional_impulse.size(), 1u);
      EXPECT_NEAR(r.torsional_impulse[0], -mu * g * 2.0 * R / 3.0 * h, 5e-4 * mu * g * R * h);
    } else if (stopped_at < 0.0 && omega <= 1e-9) {
      stopped_at = t;
    }
  }
  EXPECT_NEAR(stopped_at, stop, 1.5e-3) << "theory " << stop;  // within a step
  const BodyState& s = sim.state().bodies[body];
  EXPECT_LE(s.angular_velocity.norm(), 1e-9);
  EXPECT_LE(s.position.head<2>().norm() + s.velocity.norm(), 1e-9);
  EXPECT_LE((s.orientation * Vec3::UnitZ() - Vec3::UnitZ()).norm(), 1e-9);
}

// The same disc with the viscous law (volumetric_rows.hpp) at mu / v_s = 1 s/m, the thesis'
// (3.8): tau = -(m g / V) J_n omega = -(m R^2 / 2) g omega, so omega decays as exp(-g t), each
// step by 1 / (1 + h g) (implicit), and never stops (the thesis' disc, about 1 s).
TEST(VolumetricModel, TheViscousSpinLawDecaysExponentially) {
  const double R = 0.25, H = 0.05, mu = 0.6, omega0 = 5.0 * std::numbers::pi, h = 1e-3;
  const Polytope disc = make_cylinder(128, R, H);
  test::World w;
  const int ground = w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
  const double k = 0.5e9, area = polytope_mass_properties(disc).volume / H;
  const int body =
      w.add_polytope("disc", disc, 1.0, Vec3(0, 0, H / 2 - g / (k * area)), Quat::Identity(), mu);
  w.model.bodies[ground].layer.spin_speed = mu;
  w.state.bodies[body].angular_velocity = Vec3(0, 0, omega0);
  Simulator sim(w.model, w.state, volumetric_settings(h, Vec3(0, 0, -g)));
  for (int k_step = 1; k_step <= 1000; ++k_step) {
    ASSERT_FALSE(sim.step().failed);
    const double omega = sim.state().bodies[body].angular_velocity.z();
    EXPECT_NEAR(omega, omega0 / std::pow(1.0 + h * g, k_step), 1e-9 * omega0) << k_step;
  }
}

// Stiction bristles (seed 002 (3.4)-(3.6), (5.2)): the block on 20 degrees with a bristle of
// k_s = 1e4 N/m and c_s = 200 N s/m (critical for 1 kg) settles where the spring holds its
// weight's pull, m g sin 20 / k_s = 0.3355 mm down the slope, and stays (no creep); on 30
// degrees it breaks away and slides at the Coulomb rate as without bristles.
TEST(VolumetricModel, BristlesHoldTheBlockOnTheirSpringAndReleaseItAtTheLimit) {
  for (double degrees : {20.0, 30.0}) {
    const double t = degrees * std::numbers::pi / 180.0;
    const double depth = g * std::cos(t) / (0.5e9 * 0.5);  // k_v A d = m g cos t
    const SlopeRun run = block_on_slope(degrees, depth, 1e4, 200.0);
    const BodyState& s = run.end;
    if (degrees < 26.0) {
      EXPECT_NEAR(s.position.x(), g * std::sin(t) / 1e4, 1e-3 * g * std::sin(t) / 1e4);
      EXPECT_LE(s.velocity.norm(), 1e-6);
    } else {
      EXPECT_NEAR((s.velocity.x() - run.v_half) / 0.5, g * (std::sin(t) - 0.5 * std::cos(t)),
                  1e-3 * g);
    }
  }
}

TEST(VolumetricModel, SettingsAndScenesTheModelCannotRunAreRefused) {
  Settings s = volumetric_settings(1e-3, Vec3::Zero());
  s.formulation = Formulation::AnitescuPotra;
  EXPECT_NE(check_settings(s).find("volumetric needs formulation stewart-trinkle"),
            std::string::npos);
  s.formulation = Formulation::Ncp;
  EXPECT_NE(check_settings(s), "");
}

// The cap of depth d under a ball of radius R: V = pi d^2 (R - d / 3); the depth where the
// layer k_v V carries m g, by bisection.
double resting_depth(double R, double k, double weight) {
  double low = 0.0, high = R;
  for (int i = 0; i < 200; ++i) {
    const double d = 0.5 * (low + high);
    (k * std::numbers::pi * d * d * (R - d / 3.0) < weight ? low : high) = d;
  }
  return 0.5 * (low + high);
}

// A ball dropped on a box's top face (a turned box, off its centre) rests where the common cap
// carries its weight, as on a plane, and rolls on across the face without losing speed.
TEST(VolumetricModel, ABallRestsAndRollsOnABoxAsOnAPlane) {
  const double R = 0.2, h = 1e-3;
  test::World w;
  const int box = w.add_box("box", Vec3(4, 3, 1), 1.0, Vec3(0, 0, 0.5),
                            Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ())));
  w.model.bodies[box].is_static = true;
  const int ball = w.add_sphere("ball", R, 1.0, Vec3(0.3, -0.2, 1.0 + R + 0.01));
  Simulator sim(w.model, w.state, volumetric_settings(h, Vec3(0, 0, -g)));
  for (int k = 0; k < 1500; ++k) ASSERT_FALSE(sim.step().failed) << k;
  const double depth = resting_depth(R, 0.5e9, g);  // the two 1e9 layers in series
  EXPECT_NEAR(sim.state().bodies[ball].position.z(), 1.0 + R - depth, 1e-3 * depth);
  EXPECT_LE(sim.state().bodies[ball].velocity.norm(), 1e-6);
  ASSERT_EQ(sim.last_report().contacts.size(), 1u);
  EXPECT_LE((sim.last_report().contacts[0].normal - Vec3::UnitZ()).norm(), 1e-12);
  // Rolling at v = omega R across the face for 0.5 s, step for step as on the plane z = 1.
  test::World flat;
  flat.add_plane("ground", Vec3(0, 0, 1), Quat::Identity(), 0.5);
  flat.add_sphere("ball", R, 1.0, Vec3::Zero());
  State on_box = sim.state(), on_plane = flat.state;
  on_plane.bodies[1] = on_box.bodies[ball];
  for (State* s : {&on_box, &on_plane}) {
    s->bodies.back().velocity = Vec3(2.0, 0, 0);
    s->bodies.back().angular_velocity = Vec3(0, 2.0 / R, 0);
  }
  Simulator roll(w.model, on_box, volumetric_settings(h, Vec3(0, 0, -g)));
  Simulator reference(flat.model, on_plane, volumetric_settings(h, Vec3(0, 0, -g)));
  for (int k = 0; k < 500; ++k) {
    ASSERT_FALSE(roll.step().failed) << k;
    ASSERT_FALSE(reference.step().failed) << k;
  }
  const BodyState &a = roll.state().bodies[ball], &b = reference.state().bodies[1];
  EXPECT_LE((a.position - b.position).norm(), 1e-12);
  EXPECT_LE((a.velocity - b.velocity).norm(), 1e-10);
  // Both keep v = omega R, within the slip of a contact point d / R = 9e-4 below the surface.
  EXPECT_NEAR(a.velocity.x(), 2.0, 2e-4 * 2.0);
}

// In the plane a disc rests on a square's edge where the common segment carries its weight:
// 2 sqrt(2 R d) d (2/3) ~ the segment's area, here taken exactly by bisection on the segment.
TEST(VolumetricModel, ADiscRestsOnASquare) {
  const double R = 0.2;
  test::World w;
  test::add_polygon(w, "block", make_rectangle(2, 1), 1.0, Vec2(0, -0.5), 0.0, true);
  Body disc;
  disc.name = "disc";
  disc.shape = Shape::circle(R);
  disc.mass = 1.0;
  disc.inertia = Vec3(0, 0, 0.5 * R * R).asDiagonal();
  const int b = w.add(disc, Vec3(0.3, R + 0.005, 0));
  Settings s = test::planar_settings(ContactModel::Volumetric, g);
  s.h = 1e-3;
  Simulator sim(w.model, w.state, s);
  for (int k = 0; k < 1500; ++k) ASSERT_FALSE(sim.step().failed) << k;
  // The segment of height d: R^2 acos(1 - d/R) - (R - d) sqrt(2 R d - d^2) = m g / k_v.
  auto segment = [&](double d) {
    return R * R * std::acos(1.0 - d / R) - (R - d) * std::sqrt(2.0 * R * d - d * d);
  };
  double low = 0.0, high = R;
  for (int i = 0; i < 200; ++i) {
    const double d = 0.5 * (low + high);
    (0.5e9 * segment(d) < g ? low : high) = d;
  }
  EXPECT_NEAR(sim.state().bodies[b].position.y(), R - low, 2e-3 * low);
  EXPECT_LE(sim.state().bodies[b].velocity.norm(), 1e-6);
}

}  // namespace
}  // namespace pegsim
