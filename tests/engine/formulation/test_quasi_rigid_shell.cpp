// The quasi-rigid shell of seed 001 §5 with tangential compliance: (p_ns, p_t, p_o) = h K delta +
// C (delta - delta^l) on delta = (delta_n, delta_t, delta_o), (37), against the statics of a
// body held on the shell, where the impulses are known in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/LU>

#include "../dynamics/test_world.hpp"
#include "engine/formulation/implicit_step.hpp"

namespace pegsim {
namespace {

using test::kG;

// A unit disc (m = 1, r = 1) on a shell over the half-plane y <= 0 (body b: the normal n =
// (0, -1) points from the disc onto the ground, t = (1, 0)). It starts on the undeformed
// surface and settles on the shell for a second (the damper takes the sway out); then the force
// F along x pushes its centre and the torque T about z cancels friction's moment (F r where
// friction holds the disc, mu m g r where it slides).
struct PlanarRun {
  ImplicitBody disc;
  ImplicitContact contact;
  double settled_x = 0.0;  // q_x when the push starts
  bool solved = true;
};

PlanarRun push_disc_on_shell(const Mat3& K, double force, double torque, double mu,
                             double seconds) {
  ImplicitBody ground;
  ground.is_static = true;
  ground.shape.kind = ImplicitFunction::Kind::HalfSpace;
  ground.shape.normal = Vec3::UnitY();
  ImplicitBody disc;
  disc.mass = 1.0;
  disc.inertia = Vec3(0.5, 0.5, 0.5).asDiagonal();
  disc.position = Vec3(0.0, 1.0, 0.0);
  std::vector<ImplicitBody> bodies{disc, ground};
  std::vector<ImplicitPair> pairs{{0, 1, mu, Vec3::Ones(), {}}};
  pairs[0].shell.stiffness = K;
  pairs[0].shell.damping = Vec3(20.0, 20.0, 0.0).asDiagonal();
  ImplicitStepOptions o;
  o.dimension = 2;
  o.h = 1e-3;
  o.gravity = Vec3(0.0, -kG, 0.0);
  o.solver.tolerance = 1e-12;
  std::vector<ImplicitContact> contacts;
  PlanarRun run;
  const int settle = 1000;
  for (int k = 0; k < settle + int(std::lround(seconds / o.h)); ++k) {
    if (k == settle) {
      run.settled_x = bodies[0].position.x();
      bodies[0].force = Vec3(force, 0.0, 0.0);
      bodies[0].torque = Vec3(0.0, 0.0, torque);
    }
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, o);
    EXPECT_TRUE(r.solved) << "step " << k << ": " << r.failure;
    if (!(run.solved = r.solved)) break;
  }
  run.disc = bodies[0];
  run.contact = contacts[0];
  return run;
}

// The coupled stiffness of the planar tests, on (n, t).
Mat3 coupled_stiffness() {
  Mat3 K = Mat3::Zero();
  K.topLeftCorner<2, 2>() << 1000.0, 200.0, 200.0, 500.0;
  return K;
}

// At rest the shell carries the disc's weight along n and the push along t (the ground's share
// of friction, +F along t): h K delta = h (m g, F), so delta = K^-1 (m g, F). Through K_nt the
// push changes how deep the disc sinks: delta_n = (K_tt m g - K_nt F) / det K = 9.3587 mm where
// the normal shell alone gives m g / K_nn = 9.81 mm.
TEST(QuasiRigidShell, AHeldDiscDeflectsTheShellByTheInverseStiffnessOfItsLoad) {
  const Mat3 K = coupled_stiffness();
  const double F = 3.0;
  const PlanarRun run = push_disc_on_shell(K, F, F, 0.5, 3.0);
  ASSERT_TRUE(run.solved);
  const Eigen::Vector2d delta = K.topLeftCorner<2, 2>().inverse() * Eigen::Vector2d(kG, F);
  EXPECT_NEAR(delta(0), 0.0093587, 1e-7);
  EXPECT_NEAR(run.contact.deflection, delta(0), 1e-7);
  EXPECT_NEAR(run.contact.deflection_t, delta(1), 1e-7);
  EXPECT_NEAR(run.contact.p_t, F * 1e-3, 1e-10) << "friction holds: it equals the push";
  EXPECT_NEAR(run.disc.position.y(), 1.0 - delta(0), 1e-7) << "on the deformed surface";
  EXPECT_NEAR(run.disc.position.x(), run.settled_x, 1e-9) << "the disc is held";
  EXPECT_NEAR(run.disc.velocity.norm(), 0.0, 1e-9);
  EXPECT_NEAR(run.contact.tangential_deflection().x(), delta(1), 1e-7);
}

// Pushed past mu m g the disc slides: friction stays mu m g (the friction law bounds p_t
// whatever the shell), the shell carries it, delta = K^-1 (m g, mu m g), and the disc
// accelerates at (F - mu m g) / m.
TEST(QuasiRigidShell, ASlidingDiscDeflectsTheShellByItsKineticFriction) {
  const Mat3 K = coupled_stiffness();
  const double F = 8.0, mu = 0.5;
  const PlanarRun run = push_disc_on_shell(K, F, mu * kG, mu, 2.0);
  ASSERT_TRUE(run.solved);
  const Eigen::Vector2d delta = K.topLeftCorner<2, 2>().inverse() * Eigen::Vector2d(kG, mu * kG);
  EXPECT_NEAR(run.contact.deflection, delta(0), 1e-7);
  EXPECT_NEAR(run.contact.deflection_t, delta(1), 1e-7);
  EXPECT_NEAR(run.contact.p_t, mu * run.contact.p_n, 1e-12);
  EXPECT_NEAR(run.disc.velocity.x(), 2.0 * (F - mu * kG), 2e-2) << "a = F / m - mu g";
  EXPECT_NEAR(run.disc.angular_velocity.z(), 0.0, 1e-5)
      << "the torque cancels friction's (but for the shell's last sway, ~1e-5 of m g)";
}

// In 3D: a ball (m = 2, r = 0.5) settled on a shell over the plane z <= 0 with K_tt = K_oo and
// no coupling, then pushed along (3, 4, 0) / 5 with the torque that cancels friction's moment. The
// shell's tangential deflection is the push over K_tt, whichever directions t and o the step
// picks, and delta_n = m g / K_nn.
TEST(QuasiRigidShell, ABallOnAnIsotropicShellDeflectsItAlongThePush) {
  ImplicitBody plane;
  plane.is_static = true;
  plane.shape.kind = ImplicitFunction::Kind::HalfSpace;
  ImplicitBody ball;
  ball.mass = 2.0;
  ball.inertia = Mat3::Identity() * 0.4 * 2.0 * 0.25;
  ball.shape.radii = Vec3::Constant(0.5);
  ball.position = Vec3(0.0, 0.0, 0.5);
  const Vec3 push = 4.0 * Vec3(0.6, 0.8, 0.0);
  std::vector<ImplicitBody> bodies{ball, plane};
  std::vector<ImplicitPair> pairs{{0, 1, 0.5, Vec3::Ones(), {}}};
  QuasiRigidShell& shell = pairs[0].shell;
  shell.stiffness = Vec3(2000.0, 800.0, 800.0).asDiagonal();
  shell.damping = Vec3(60.0, 40.0, 40.0).asDiagonal();
  ImplicitStepOptions o;
  o.h = 2e-3;
  o.solver.tolerance = 1e-12;
  std::vector<ImplicitContact> contacts;
  Vec3 settled = Vec3::Zero();
  for (int k = 0; k < 1500; ++k) {
    if (k == 500) {  // settled on the shell: push
      settled = bodies[0].position;
      bodies[0].force = push;
      bodies[0].torque = Vec3(0.0, 0.0, -0.5).cross(push);  // minus friction's moment
    }
    const ImplicitStepReport r = implicit_step(bodies, pairs, contacts, o);
    ASSERT_TRUE(r.solved) << "step " << k << ": " << r.failure;
  }
  const ImplicitContact& c = contacts[0];
  EXPECT_NEAR(c.deflection, 2.0 * kG / 2000.0, 1e-8);
  const Vec3 shear = c.tangential_deflection();
  EXPECT_NEAR((shear - push / 800.0).norm(), 0.0, 1e-8) << shear.transpose();
  EXPECT_NEAR(bodies[0].position.z(), 0.5 - c.deflection, 1e-8);
  EXPECT_NEAR((bodies[0].position - settled).head<2>().norm(), 0.0, 1e-9)
      << "friction holds the ball";
}

// A normal shell given as a matrix is the scalar shell: no tangential unknowns, the same step.
TEST(QuasiRigidShell, AShellWithoutTangentialEntriesAddsNoUnknowns) {
  ImplicitBody ground;
  ground.is_static = true;
  ground.shape.kind = ImplicitFunction::Kind::HalfSpace;
  std::vector<ImplicitBody> bodies{ImplicitBody{}, ground};
  bodies[0].position = Vec3(0.0, 0.0, 1.0);
  std::vector<ImplicitPair> pairs{{0, 1, 0.5, Vec3::Ones(), {}}};
  const int rigid = implicit_problem_size(bodies, pairs, 3);
  pairs[0].shell = QuasiRigidShell::normal(1000.0, 5.0, 0.1);
  EXPECT_FALSE(pairs[0].shell.tangential());
  EXPECT_EQ(implicit_problem_size(bodies, pairs, 3), rigid + 3);
  pairs[0].shell.stiffness(1, 1) = pairs[0].shell.stiffness(2, 2) = 400.0;
  EXPECT_TRUE(pairs[0].shell.tangential());
  EXPECT_EQ(implicit_problem_size(bodies, pairs, 3), rigid + 5);
  EXPECT_EQ(implicit_problem_size(bodies, pairs, 2), implicit_problem_size(bodies, {}, 2) + 8 + 4);
}

}  // namespace
}  // namespace pegsim
