// Issue 6 / thesis §4.2.3: "care must be taken ... not to construct a subproblem that is
// inherently unsatisfiable" with X-constraints. A PEG step whose LCP no solver answers is solved
// again without its X-constraints (Simulator::drop_cross_constraints). polygon_pour, seed 3,
// h = 0.016 has such a step (the full run's step 109 before the guard: Lemke on a secondary ray,
// path and PGS stalled at residuals of 0.7-1: two polygons barely overlapping whose vertex-vertex
// X-constraints (4.17) hold two contacts with opposed normals, both 2 cm deep to edge lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "cli/experiments/pour_scene.hpp"
#include "cli/experiments/pour_trial.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

PourSetup trapped_pour() {
  PourSetup setup = polygon_pour_setup(3, 0.016);
  setup.contact_model = "peg";
  return setup;
}

TEST(CrossConstraintGuard, AnUnsatisfiableStepIsSolvedWithoutItsXConstraints) {
  const PourSetup setup = trapped_pour();
  const Scene scene = parse_scene(pour_scene(setup).dump(), "generated pour scene", ".");
  Simulator sim(scene.model, scene.initial, scene.settings);
  int guarded = 0;
  for (int k = 0; k < static_cast<int>(std::lround(setup.duration / setup.h)); ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << k + 1 << ": " << r.failure;
    // No answer of this pour is refused for its energy (cross_energy.hpp): the steps it
    // drops X-constraints on are those no solver answers.
    EXPECT_FALSE(r.cross_energy_refused) << "step " << k + 1;
    if (r.dropped_cross_constraints == 0) continue;
    ++guarded;
    // The whole chain failed on the full problem first, then the reduced one was solved.
    const std::size_t chain = 1 + scene.settings.fallbacks.size();
    ASSERT_GT(r.attempts.size(), chain) << "step " << k + 1;
    for (std::size_t a = 0; a < chain; ++a) EXPECT_FALSE(r.attempts[a].solved());
    EXPECT_TRUE(r.solve.solved()) << "step " << k + 1;
    EXPECT_TRUE(r.fell_back) << "step " << k + 1;
    for (const ConstraintGroup& g : r.constraints.groups)
      EXPECT_NE(g.kind, ConstraintKind::CrossContact) << "step " << k + 1;
  }
  EXPECT_GE(guarded, 1);
}

// The guard keeps the physics: the trial finishes with the overlap of PEG's other trials at
// this h (median 4.7e-5 m^2 over ten seeds, 3.9e-3 for the corrective method).
TEST(CrossConstraintGuard, TheTrappedPourFinishesWithoutSinking) {
  const PourTrial t = run_pour_trial(trapped_pour(), false);
  EXPECT_TRUE(t.finished) << t.failure;
  EXPECT_GE(t.steps_without_x, 1);
  EXPECT_LT(t.mean_overlap, 1e-4);
}

// polyhedra_pour seed 0, h = 0.015, PEG with several primaries per I-constraint, at step 287
// (tests/data/polyhedra_pour_thrown.json: the state written at full precision, so the test does
// not depend on how the solvers reached it). The next step's Lemke answer (residual below 1e-6)
// carries opposed impulses on X groups whose primaries face nearly opposite ways; it adds 1.7e4 J
// where the overlaps of its set of bodies need 62 J by the translation estimate (276 times;
// dynamics/cross_energy.hpp), and taken as it is it throws a polyhedron out at 30 m/s. The guard
// refuses it and solves the step again without its X-constraints
// (Simulator::cross_energy_holds, drop_cross_constraints).
Scene thrown_pile() {
  return load_scene(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "polyhedra_pour_thrown.json");
}

double fastest_speed(const Simulator& sim) {
  double fastest = 0.0;
  for (std::size_t b = 0; b < sim.model().bodies.size(); ++b)
    if (sim.model().bodies[b].present_at(sim.state().time))
      fastest = std::max(fastest, sim.state().bodies[b].velocity.norm());
  return fastest;
}

TEST(CrossConstraintGuard, AnAnswerThatThrowsBodiesApartIsSolvedWithoutItsXConstraints) {
  const Scene scene = thrown_pile();
  Simulator sim(scene.model, scene.initial, scene.settings);
  const double before = fastest_speed(sim);
  const StepReport& r = sim.step();
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_TRUE(r.cross_energy_refused);
  EXPECT_GT(r.cross_energy_gain, 100.0 * r.cross_energy_need);  // 276 times
  EXPECT_GT(r.cross_energy_gain, 1e4);                          // J
  // The chain's first solver answered the full problem; that answer was refused for its energy
  // and the problem without X-constraints solved.
  EXPECT_GT(r.dropped_cross_constraints, 0);
  ASSERT_FALSE(r.attempts.empty());
  EXPECT_TRUE(r.attempts.front().solved());
  EXPECT_TRUE(r.solve.solved());
  EXPECT_TRUE(r.fell_back);
  for (const ConstraintGroup& g : r.constraints.groups)
    EXPECT_NE(g.kind, ConstraintKind::CrossContact);
  // Nothing is thrown: the fastest body gains less than gravity and the pour's entry speed
  // allow in one step (3.25 m/s after the step; 30 m/s with the refused answer).
  EXPECT_LT(fastest_speed(sim), before + 1.0) << "before " << before;
}

// An ordinary step keeps its X-constraints: stepping the same pile on, a step whose answer is
// within the margin is taken as it is (the third step here: 0.78 times its estimate).
TEST(CrossConstraintGuard, AnAnswerWithinTheMarginKeepsItsXConstraints) {
  const Scene scene = thrown_pile();
  Simulator sim(scene.model, scene.initial, scene.settings);
  int kept = 0;
  for (int k = 1; k <= 10; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << k << ": " << r.failure;
    if (r.cross_energy_refused) {
      EXPECT_GT(r.cross_energy_gain, kCrossEnergyMargin * r.cross_energy_need) << "step " << k;
      continue;
    }
    EXPECT_LE(r.cross_energy_gain, kCrossEnergyMargin * r.cross_energy_need) << "step " << k;
    if (r.dropped_cross_constraints == 0 && r.cross_energy_gain > 0.0) ++kept;
  }
  EXPECT_GE(kept, 1);
}

// The whole trial then finishes (no body above kExplodedSpeed) and the energy check acted on it.
TEST(CrossConstraintGuard, TheThrownPourFinishes) {
  PourSetup setup = polyhedra_pour_setup(0, 0.015);
  setup.contact_model = "peg";
  setup.primaries = Primaries::Several;
  const PourTrial t = run_pour_trial(setup, false);
  EXPECT_TRUE(t.finished) << t.failure;
  EXPECT_LT(t.max_speed, kExplodedSpeed);
  EXPECT_GE(t.steps_x_energy, 1);
  EXPECT_GE(t.steps_without_x, t.steps_x_energy);
  EXPECT_GT(t.x_energy_ratio_refused, kCrossEnergyMargin);
  EXPECT_LE(t.x_energy_ratio_kept, kCrossEnergyMargin);
}

}  // namespace
}  // namespace pegsim::cli
