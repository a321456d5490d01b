// The kinetic energy a step's impulses add against what removing the overlaps needs
// (dynamics/cross_energy.hpp; thesis §4.2.3), on hand-made contacts at known depths whose LCP
// answers are solved by hand.
#include <gtest/gtest.h>

#include "engine/dynamics/cross_energy.hpp"
#include "engine/formulation/constraint_problem.hpp"
#include "engine/solvers/solver.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

constexpr double kH = 0.01;
using test::kG;

// Frictionless boxes over a static block; contacts made by hand (test::World::at_centre and
// off-centre ones), solved by Lemke as the simulator's step does.
struct Scene {
  test::World w;
  int ground = 0;
  std::vector<Contact> contacts;
  ConstraintSet set;
  Settings settings;
  VecX free_velocity, velocity;

  Scene() {
    ground = w.add_box("ground", Vec3(4, 4, 1), 1.0, Vec3(0, 0, -0.5), Quat::Identity(), 0.0);
    w.model.bodies[ground].is_static = true;
    settings.h = kH;
    settings.gravity = Vec3(0, 0, -kG);
  }
  int box(double mass, const Vec3& position) {
    return w.add_box("box", Vec3(0.1, 0.1, 0.1), mass, position, Quat::Identity(), 0.0);
  }
  // A contact of A with B whose point on B lies `lever` from B's centre of mass.
  void contact(ConstraintKind kind, int a, int b, const Vec3& n, double gap,
               const Vec3& lever = Vec3::Zero()) {
    Contact c = w.at_centre(a, b, n, gap);
    c.point_a += lever;
    set.add(kind, {static_cast<int>(contacts.size())});
    contacts.push_back(c);
  }
  CrossEnergy solve() {
    ContactProblem problem;
    std::vector<int> primaries;
    assemble_constraint_problem(w.model, w.state, settings, contacts, set, primaries, problem);
    VecX z;
    SolverOptions options;
    const SolveReport report = make_solver("lemke")->solve(problem.lcp, z, options);
    EXPECT_TRUE(report.solved()) << report.message;
    contact_velocities(problem, z, velocity);
    free_velocity = problem.free_velocity;
    for (std::size_t g = 0; g < set.groups.size(); ++g)
      set.groups[g].impulse = z(static_cast<int>(g) * problem.block_size());
    CrossEnergyWorkspace work;
    return cross_energy(w.model, w.state, settings, contacts, set, free_velocity, velocity, work);
  }
};

double speed(double depth) {
  return depth / kH + kG * kH + Settings{}.tolerance;
}

// One box 2 mm into the ground, at rest: the step ends with v = d / h upwards (2.27), from the
// free -g h. gain = 1/2 m ((d/h)^2 - (g h)^2); need = 1/2 m (d/h + g h + tol)^2.
TEST(CrossEnergy, ABoxPushedOutOfTheGroundGainsWhatItsDepthNeeds) {
  Scene s;
  const double m = 3.0, d = 0.002;
  const int b = s.box(m, Vec3(0, 0, 0.05 - d));
  s.contact(ConstraintKind::Unilateral, s.ground, b, Vec3::UnitZ(), -d);
  const CrossEnergy e = s.solve();
  EXPECT_NEAR(s.velocity(6 * b + 2), d / kH, 1e-12);
  const double gain = 0.5 * m * ((d / kH) * (d / kH) - (kG * kH) * (kG * kH));
  EXPECT_NEAR(e.gain, gain, 1e-12 * std::abs(gain));
  EXPECT_NEAR(e.need, 0.5 * m * speed(d) * speed(d), 1e-12);
  EXPECT_LT(e.gain, e.need);
}

// A chain: box 1 is 2 mm into the ground, box 2 3 mm into box 1. Box 1 leaves at d1/h, box 2 at
// (d1 + d2)/h; the set {1, 2} needs D = d1 + d2 for all its mass, which bounds this aligned
// chain's gain.
TEST(CrossEnergy, AChainNeedsItsDepthsSummedOverTheSet) {
  Scene s;
  const double m1 = 2.0, m2 = 5.0, d1 = 0.002, d2 = 0.003;
  const int b1 = s.box(m1, Vec3(0, 0, 0.05 - d1));
  const int b2 = s.box(m2, Vec3(0, 0, 0.15 - d1 - d2));
  s.contact(ConstraintKind::Unilateral, s.ground, b1, Vec3::UnitZ(), -d1);
  s.contact(ConstraintKind::Unilateral, b1, b2, Vec3::UnitZ(), -d2);
  const CrossEnergy e = s.solve();
  const double v1 = d1 / kH, v2 = (d1 + d2) / kH, gh = kG * kH;
  EXPECT_NEAR(s.velocity(6 * b1 + 2), v1, 1e-12);
  EXPECT_NEAR(s.velocity(6 * b2 + 2), v2, 1e-12);
  const double gain = 0.5 * m1 * (v1 * v1 - gh * gh) + 0.5 * m2 * (v2 * v2 - gh * gh);
  EXPECT_NEAR(e.gain, gain, 1e-12 * std::abs(gain));
  EXPECT_NEAR(e.need, 0.5 * (m1 + m2) * speed(d1 + d2) * speed(d1 + d2), 1e-12);
  EXPECT_LT(e.gain, e.need);
}

// Two boxes apart are two sets; the one whose gain is the larger fraction of its need is
// reported: the deeper one (gain / need = ((d/h)^2 - (g h)^2) / (d/h + g h + tol)^2 grows with d).
TEST(CrossEnergy, TheWorstSetIsReported) {
  Scene s;
  const double d_shallow = 0.001, d_deep = 0.004, m_shallow = 10.0, m_deep = 1.0;
  const int a = s.box(m_shallow, Vec3(-1, 0, 0.05 - d_shallow));
  const int b = s.box(m_deep, Vec3(1, 0, 0.05 - d_deep));
  s.contact(ConstraintKind::Unilateral, s.ground, a, Vec3::UnitZ(), -d_shallow);
  s.contact(ConstraintKind::Unilateral, s.ground, b, Vec3::UnitZ(), -d_deep);
  const CrossEnergy e = s.solve();
  const double v = d_deep / kH, gh = kG * kH;
  EXPECT_NEAR(e.gain, 0.5 * m_deep * (v * v - gh * gh), 1e-12);
  EXPECT_NEAR(e.need, 0.5 * m_deep * speed(d_deep) * speed(d_deep), 1e-12);
}

// Without overlap the impulses only remove energy (the bound: d = 0, so t = 0 meets every
// loaded primary): a box landing at 1 m/s on the ground.
TEST(CrossEnergy, ContactWithoutOverlapAddsNoEnergy) {
  Scene s;
  const double m = 2.0;
  const int b = s.box(m, Vec3(0, 0, 0.05));
  s.w.state.bodies[b].velocity = Vec3(0.3, 0, -1);
  s.contact(ConstraintKind::Unilateral, s.ground, b, Vec3::UnitZ(), 0.0);
  const CrossEnergy e = s.solve();
  const double vz = -1 - kG * kH;
  EXPECT_NEAR(e.gain, -0.5 * m * vz * vz, 1e-12);  // the normal speed is lost, the slide kept
  EXPECT_LT(e.gain, 0.0);
}

// §4.2.3's pathology in miniature: two X-constraints (written as I-constraints) on one pair,
// whose primaries face opposite ways (+z at x = +a, -z at x = -a) and both start d deep. No
// translation opens both; the LCP's answer turns the box at w = d / (h a) about y, with
// impulses lambda_1 + lambda_2 = I d / (h a^2), and adds 1/2 I w^2 - 1/2 m (g h)^2: with
// a = 2 mm, I / (m a^2) (d/h)^2 / (d/h + g h + tol)^2 = 187 times the translation estimate.
TEST(CrossEnergy, OpposedPrimariesOnOnePairGainFarMoreThanTheirDepthNeeds) {
  Scene s;
  const double m = 1.0, d = 0.002, a = 0.002;
  const int b = s.box(m, Vec3(0, 0, 1));
  s.contact(ConstraintKind::CrossContact, s.ground, b, Vec3::UnitZ(), -d, Vec3(a, 0, 0));
  s.contact(ConstraintKind::CrossContact, s.ground, b, -Vec3::UnitZ(), -d, Vec3(-a, 0, 0));
  const CrossEnergy e = s.solve();
  const double I = s.w.model.bodies[b].inertia(1, 1), w = d / (kH * a), gh = kG * kH;
  EXPECT_NEAR(I, m * 0.1 * 0.1 / 6.0, 1e-15);
  EXPECT_NEAR(s.velocity(6 * b + 2), 0.0, 1e-9);
  EXPECT_NEAR(s.velocity(6 * b + 4), -w, 1e-9 * w);
  EXPECT_NEAR(s.set.groups[0].impulse + s.set.groups[1].impulse, I * d / (kH * a * a), 1e-9);
  const double gain = 0.5 * I * w * w - 0.5 * m * gh * gh;
  EXPECT_NEAR(e.gain, gain, 1e-9 * gain);
  EXPECT_NEAR(e.need, 0.5 * m * speed(d) * speed(d), 1e-12);
  EXPECT_NEAR(e.gain / e.need, 187.4, 0.1);
  EXPECT_GT(e.gain, kCrossEnergyMargin * e.need);
}

}  // namespace
}  // namespace pegsim
