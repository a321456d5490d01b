// The NCP with the quadratic cone (thesis (2.18)-(2.20)) of a real pile: pour20 under
// formulation ncp, whose contact blocks are coupled through the cubes (M's off-diagonal blocks),
// unlike the particles of test_ncp.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/ncp_crossover.hpp"
#include "engine/solvers/ncp_linearized.hpp"
#include "engine/solvers/path.hpp"
#include "io/scene.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

// pour20's NCP of step `step`, answered by fischer-newton without fallback: z is the answer the
// step used, `solved` whether it met the tolerance. The steps before run under `history`: the NCP
// itself (under fischer-newton or path), or the LCP with Lemke (13 ms per step, where the NCP's
// own history costs up to seconds per step: the same pile, the cubes' state of the linearized
// cone).
enum class History { Ncp, LcpLemke };

struct NcpStep {
  Ncp ncp;
  VecX z;
  bool solved = false;
};

NcpStep pour20_ncp_step(int step, History history) {
  // The lattice pour the hard steps below were found on (tests/data/pour20_lattice.json).
  Scene scene = load_scene(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "pour20_lattice.json");
  Settings ncp = scene.settings;
  // The history the steps below were chosen from: cones from a fixed tangent, backward Euler.
  ncp.cone_orientation = ConeOrientation::Fixed;
  ncp.gyroscopic = Gyroscopic::Implicit;
  ncp.formulation = Formulation::Ncp;
  ncp.solver = "fischer-newton";
  ncp.fallbacks = {};
  ncp.on_failure = FailurePolicy::Continue;
  Settings before = ncp;
  if (history == History::LcpLemke) {
    before.formulation = Formulation::StewartTrinkle;
    before.solver = "lemke";
  }
  Simulator sim(scene.model, scene.initial, before);
  for (int k = 1; k < step; ++k) sim.step();
  sim.set_settings(ncp);
  const StepReport& r = sim.step();
  NcpStep out;
  if (r.ncp) out.ncp = *r.ncp;
  if (r.solution) out.z = *r.solution;
  out.solved = r.solve.solved();
  return out;
}

// Step 23 (two cubes on the floor, five contacts, 20 rows): Ncp::jacobian against central
// differences of Ncp::evaluate, at points around the step's answer moved off the cone's kinks
// (|p_t| > 0), where F is differentiable: rows (2.18), (2.19) couple p_n, u_t = G_t^T nu of
// every contact of the same cubes, and sigma; row (2.20) p_n and p_t.
TEST(NcpPile, JacobianMatchesFiniteDifferencesOnPour20) {
  const NcpStep rec = pour20_ncp_step(23, History::Ncp);
  const Ncp& ncp = rec.ncp;
  const int n = ncp.size();
  ASSERT_EQ(n, 20);
  ASSERT_EQ(rec.z.size(), n);
  // The contacts are coupled: some off-diagonal block of M is nonzero.
  double coupling = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i / 4 != j / 4) coupling = std::max(coupling, std::abs(m_entry(ncp.linear, i, j)));
  EXPECT_GT(coupling, 0.1);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> offset(-0.02, 0.02);
  constexpr double h = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    VecX z = rec.z;
    for (int i = 0; i < n; ++i) z(i) += offset(rng);
    for (const FrictionCone& c : ncp.cones) z(c.slip()) = std::abs(z(c.slip()));
    VecX w, F;
    ncp.evaluate(z, w, F);
    const MatX J = test::ncp_jacobian(ncp, z, w);
    for (int j = 0; j < n; ++j) {
      VecX zp = z, zm = z, wp, wm, Fp, Fm;
      zp(j) += h;
      zm(j) -= h;
      ncp.evaluate(zp, wp, Fp);
      ncp.evaluate(zm, wm, Fm);
      const VecX fd = (Fp - Fm) / (2.0 * h);
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(J(i, j), fd(i), 1e-7 * (1.0 + std::abs(fd(i))))
            << "trial " << trial << " row " << i << " column " << j;
    }
  }
}

// `path` on the NCP from zero with the simulator's defaults (tolerance 1e-10, 10 000
// iterations): it must report a solution within the iteration limit whose natural residual
// ((2.18)-(2.20) and the normal rows' complementarity) meets the tolerance, which it returns.
// `iterations`, if given, receives the report's count.
double solve_with_path(const Ncp& ncp, VecX& z, int* iterations = nullptr) {
  PathSolver path;
  SolverOptions options;
  const SolveReport report = path.solve_ncp(ncp, z, options);
  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());
  EXPECT_TRUE(report.solved()) << report.message << " residual " << report.residual;
  EXPECT_LE(natural_residual(ncp, z), tolerance);
  EXPECT_LT(report.iterations, options.max_iterations);
  if (iterations) *iterations = report.iterations;
  return tolerance;
}

// Step 39 of pour20 after a Lemke history (28 contacts, faces resting on faces, 112 rows):
// Fischer–Newton stalls at a false minimum of its merit, and `path`'s fixed-point sweeps ran out
// of 10 000 iterations on it (residual 1.6e-4) before the proximal Newton on Alart–Curnier's
// equations took over (now: solved in about 300 iterations, 0.04 s). The answer is checked by
// the NCP's natural residual ((2.18)-(2.20) and the normal rows' complementarity) and, directly,
// by the cone: p_n >= 0 and |p_t| <= mu p_n.
TEST(NcpPile, PathSolvesPour20Step39) {
  const NcpStep step = pour20_ncp_step(39, History::LcpLemke);
  const Ncp& ncp = step.ncp;
  EXPECT_EQ(ncp.size(), 112);
  EXPECT_FALSE(step.solved) << "Fischer-Newton alone now solves this step; pick a harder one";
  VecX z;
  const double tolerance = solve_with_path(ncp, z);
  for (const FrictionCone& c : ncp.cones) {
    EXPECT_GE(z(c.normal), 0.0);
    EXPECT_LE(z.segment(c.normal + 1, c.tangents).norm(), c.mu * z(c.normal) + tolerance);
  }
}

// The sides of a solution of pour20's pile: p_n >= 0, w_n >= 0, |p_t| <= mu p_n, and u_t = 0
// where the contact sticks strictly inside its cone, to what the tolerance t on the natural
// residual implies there: sigma <= t (slip row) and |mu p_n u_t + p_t sigma| <= t (2.18), so
// |u_t| <= t (1 + |p_t|) / (mu p_n). Returns how many stick.
int expect_solution_sides(const Ncp& ncp, const VecX& z, double tolerance) {
  VecX w;
  multiply_m(ncp.linear, z, w);
  w += ncp.linear.q;
  int sticking = 0;
  for (const FrictionCone& c : ncp.cones) {
    EXPECT_GE(z(c.normal), 0.0);
    EXPECT_GE(w(c.normal), -tolerance);
    const double pt = z.segment(c.normal + 1, c.tangents).norm();
    EXPECT_LE(pt, c.mu * z(c.normal) + tolerance);
    if (pt >= c.mu * z(c.normal) - 1e-3 || z(c.normal) < 1e-3) continue;
    ++sticking;  // strictly inside the cone: (2.18)-(2.20) leave u_t = 0
    EXPECT_LE(w.segment(c.normal + 1, c.tangents).norm(),
              tolerance * (1.0 + pt) / (c.mu * z(c.normal)));
  }
  return sticking;
}

// Step 49 of pour20 after a Lemke history (49 contacts, 196 rows): Fischer–Newton stalls, and
// `path` ran out of its 10 000 iterations at residual 2.9e-7 (tolerance 7.9e-10): the proximal
// Newton and the sweeps crept, the crossover found the held equations inconsistent. Lemke on
// the same contacts with a 16-sided cone (ncp_linearized.hpp) settles which contacts carry load,
// stick or slide; Fischer–Newton from its answer finishes in a few steps.
TEST(NcpPile, PathSolvesPour20Step49FromThePolygonalConesAnswer) {
  const NcpStep step = pour20_ncp_step(49, History::LcpLemke);
  const Ncp& ncp = step.ncp;
  EXPECT_EQ(ncp.size(), 196);
  EXPECT_FALSE(step.solved) << "Fischer-Newton alone now solves this step; pick a harder one";
  VecX z;
  int iterations = 0;
  const double tolerance = solve_with_path(ncp, z, &iterations);
  EXPECT_LT(iterations, 2000);  // Fischer–Newton's first run, Lemke's pivots, a few steps
  EXPECT_GT(expect_solution_sides(ncp, z, tolerance), 0);
}

// Steps 60 and 93 of pour20 after a Lemke history (336 and 416 rows): from the unturned 16-sided
// polygon's answer neither the crossover nor Fischer–Newton nor the proximal Newton reaches the
// tolerance (step 60 creeps at 1.2e-8 with two contacts sticking at |u_t| = 1e-8 m/s, step 93
// at 8.5e-10), and step 93's Lemke run on it takes 9520 pivots. `path` tries the polygon turned
// by half a sector first, then a quarter: step 93 is solved from the first start, step 60 by
// the crossover from the second's.
TEST(NcpPile, PathSolvesPour20Steps60And93FromTurnedPolygons) {
  for (const int number : {60, 93}) {
    const NcpStep step = pour20_ncp_step(number, History::LcpLemke);
    ASSERT_FALSE(step.solved) << number << ": Fischer-Newton alone now solves it";
    VecX z;
    const double tolerance = solve_with_path(step.ncp, z);
    EXPECT_GT(expect_solution_sides(step.ncp, z, tolerance), 0) << number;
  }
}

// A cold solve whose budget runs out before the later stages (Fischer–Newton's run and Lemke's
// pivots take it all) still ends with a z of the NCP's size and reports the limit: the crossover
// used to get the empty cold start and read past it (a crash on pour20's step 75).
TEST(NcpPile, PathOutOfIterationsReturnsAnAnswerOfTheRightSize) {
  const NcpStep step = pour20_ncp_step(49, History::LcpLemke);
  ASSERT_FALSE(step.solved);
  for (int budget : {1, 5, 40}) {
    PathSolver path;
    VecX z;
    SolverOptions options;
    options.max_iterations = budget;
    const SolveReport report = path.solve_ncp(step.ncp, z, options);
    EXPECT_EQ(report.status, SolveStatus::MaxIterations) << budget;
    EXPECT_EQ(z.size(), step.ncp.size()) << budget;
    EXPECT_TRUE(z.allFinite()) << budget;
  }
}

// The polygonal cone's LCP: its answer, mapped to the round cone, keeps every impulse inside the
// round cone (the polygon is inscribed) and moves the contacts as the round cone's solution
// does, to about the polygon's error (friction within 1 - cos(pi / 16) ~ 2 % of the cone's
// radius): every contact's velocity (normal and tangential) within 5 % of the largest contact
// speed of path's answer. The pile is statically indeterminate, so the two answers' friction
// impulses need not agree (they differ by up to a quarter of the largest normal impulse here),
// only the motion. Checked on step 39's pile.
TEST(NcpPile, ThePolygonalConesAnswerIsNearTheRoundConesSolution) {
  const NcpStep step = pour20_ncp_step(39, History::LcpLemke);
  const Ncp& ncp = step.ncp;
  LinearizedNcp polygon;
  linearize_ncp(ncp, 16, polygon);
  EXPECT_EQ(polygon.lcp.size(), 28 * 18);  // 28 contacts: [p_n, 16 directions, s]
  LemkeSolver lemke;
  VecX z_lcp;
  ASSERT_TRUE(lemke.solve(polygon.lcp, z_lcp, SolverOptions{}).solved());
  VecX z;
  ncp_point(ncp, polygon, z_lcp, z);
  for (const FrictionCone& c : ncp.cones) {
    EXPECT_GE(z(c.normal), 0.0);
    EXPECT_LE(z.segment(c.normal + 1, c.tangents).norm(),
              c.mu * z(c.normal) * (1.0 + 1e-12) + 1e-15);
  }
  // Not a solution of the round cone, but near one: path's answer from zero.
  VecX exact;
  solve_with_path(ncp, exact);
  EXPECT_GT(natural_residual(ncp, z), 1e-6);
  VecX w, w_exact;
  multiply_m(ncp.linear, z, w);
  w += ncp.linear.q;
  multiply_m(ncp.linear, exact, w_exact);
  w_exact += ncp.linear.q;
  double velocity_gap = 0.0, fastest = 0.0;
  for (const FrictionCone& c : ncp.cones) {
    const int rows = 1 + c.tangents;
    velocity_gap = std::max(velocity_gap,
                            (w.segment(c.normal, rows) - w_exact.segment(c.normal, rows)).norm());
    fastest = std::max(fastest, w_exact.segment(c.normal, rows).norm());
  }
  EXPECT_GT(fastest, 1.0);  // a pile still moving
  EXPECT_LT(velocity_gap, 0.05 * fastest);
}

// The crossover (ncp_crossover.hpp) from an iterate that creeps near a solution, as the Newton
// methods' iterates on the pile did (residual 1e-9..1e-7, contacts sticking at u_t ~ 1e-9 m/s):
// step 49's solution (path at a relative tolerance of 1e-12, so that the nudge and not the
// solve's own error sets the distance) with every impulse moved by up to 1e-9 N s. Holding each
// row's side and solving the held equations by Gauss–Newton returns to the tolerance.
TEST(NcpPile, CrossoverReturnsACreepingIterateToASolution) {
  const NcpStep step = pour20_ncp_step(49, History::LcpLemke);
  const Ncp& ncp = step.ncp;
  VecX z;
  PathSolver path;
  SolverOptions tight;
  tight.tolerance = 1e-12;
  ASSERT_TRUE(path.solve_ncp(ncp, z, tight).solved());
  const double tolerance = SolverOptions{}.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> nudge(-1e-9, 1e-9);
  VecX creeping = z;
  for (const FrictionCone& c : ncp.cones)
    if (z(c.normal) > 1e-3)  // loaded contacts: their side stays as it was
      for (int r = c.normal; r <= c.normal + c.tangents; ++r) creeping(r) += nudge(rng);
  ASSERT_GT(natural_residual(ncp, creeping), tolerance);
  NcpCrossover crossover;
  ASSERT_TRUE(crossover.solve(ncp, creeping, tolerance));
  EXPECT_LE(natural_residual(ncp, creeping), tolerance);
  EXPECT_GT(expect_solution_sides(ncp, creeping, tolerance), 0);
}

}  // namespace
}  // namespace pegsim
