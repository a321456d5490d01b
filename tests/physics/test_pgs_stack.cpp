// PGS in the body form of M (pgs_bodies.cpp) on stack10's first step: the body form reproduces
// M between contact blocks, and the cold solve reaches Lemke's accuracy with the weight above
// each face as its normal impulse and no friction.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/solver.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

// stack10's first LCP (360 rows: 40 vertex–face contacts, n_d = 7, thesis (6.1)).
Lcp stack10_first_lcp() {
  Scene scene = load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes" / "stack10.json");
  Simulator sim(scene.model, scene.initial, scene.settings);
  const StepReport& r = sim.step();
  EXPECT_NE(r.lcp, nullptr);
  return r.lcp ? *r.lcp : Lcp{};
}

int block_of(const Lcp& lcp, int row) {
  int b = 0;
  while (b + 1 < static_cast<int>(lcp.block_starts.size()) && lcp.block_starts[b + 1] <= row) ++b;
  return b;
}

// Between blocks, M = G^T W G over the shared bodies (thesis (6.1)): the body form must give
// every such entry of the assembled M.
TEST(PgsStack, BodyFormReproducesMBetweenBlocks) {
  Lcp lcp = stack10_first_lcp();
  make_dense(lcp);
  const LcpBodyForm& f = lcp.body_form;
  ASSERT_EQ(lcp.size(), 360);
  ASSERT_EQ(static_cast<int>(f.body_a.size()), 360);
  double worst = 0.0;
  int coupled = 0;
  for (int i = 0; i < lcp.size(); ++i) {
    for (int j = 0; j < lcp.size(); ++j) {
      if (block_of(lcp, i) == block_of(lcp, j)) continue;
      double m = 0.0;
      for (int ei : {0, 1})
        for (int ej : {0, 1}) {
          const int bi = ei ? f.body_b[i] : f.body_a[i], bj = ej ? f.body_b[j] : f.body_a[j];
          if (bi >= 0 && bi == bj) m += (ei ? f.J_b[i] : f.J_a[i]).dot(ej ? f.WJ_b[j] : f.WJ_a[j]);
        }
      worst = std::max(worst, std::abs(m - lcp.M(i, j)));
      coupled += lcp.M(i, j) != 0.0;
    }
  }
  EXPECT_LE(worst, 1e-12);
  EXPECT_GT(coupled, 1000);  // the faces couple through the cubes
}

// From a cold start PGS solves the first step to the 1e-10 natural residual; each face carries
// the weight of the cubes above it over one step, (10 - k) m g h for face k (cube k on the one
// below, k = 0 on the ground), and a resting stack needs no friction.
TEST(PgsStack, ColdFirstStepCarriesTheWeightAboveEachFace) {
  const Lcp lcp = stack10_first_lcp();
  const LcpBodyForm& f = lcp.body_form;
  auto pgs = make_solver("pgs");
  SolverOptions options;
  VecX z;
  const SolveReport r = pgs->solve(lcp, z, options);
  ASSERT_EQ(r.status, SolveStatus::Solved) << r.message << " residual " << r.residual;
  EXPECT_LE(natural_residual(lcp, z), options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff()));
  // Body 0 is the ground (static: -1), cube k is body k + 1.
  double load[10] = {};
  double friction = 0.0;
  for (std::size_t b = 0; b < lcp.block_starts.size(); ++b) {
    const int s = lcp.block_starts[b];
    const int upper = std::max(f.body_a[s], f.body_b[s]) - 1;
    ASSERT_GE(upper, 0);
    load[upper] += z(s);
    friction = std::max(friction, z.segment(s + 1, 7).cwiseAbs().maxCoeff());
  }
  // The residual 1.1e-10 (m/s) bounds the impulses' error by it times the inverse of the
  // chain's smallest eigenvalue (about (pi / 21)^-2 = 45 for ten unit masses): 1e-8.
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(load[k], (10 - k) * 9.81 * 0.01, 1e-8) << "face " << k;
  EXPECT_LE(friction, 1e-9);
}

// The nonsmooth conjugate gradient step (nncg, Silcowitz, Niebe & Erleben 2010, Alg. 3) on
// the same cold first step: the same accuracy in far fewer sweeps than PGS (795).
TEST(PgsStack, NncgSolvesTheColdFirstStepInFewerSweepsThanPgs) {
  const Lcp lcp = stack10_first_lcp();
  SolverOptions options;
  VecX z_pgs, z_nncg;
  const SolveReport pgs = make_solver("pgs")->solve(lcp, z_pgs, options);
  const SolveReport nncg = make_solver("nncg")->solve(lcp, z_nncg, options);
  ASSERT_EQ(nncg.status, SolveStatus::Solved) << nncg.message;
  ASSERT_EQ(pgs.status, SolveStatus::Solved) << pgs.message;
  EXPECT_LE(natural_residual(lcp, z_nncg), options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff()));
  EXPECT_LT(4 * nncg.iterations, pgs.iterations) << nncg.iterations << " vs " << pgs.iterations;
  // The reported residual comes from the body form; it is the dense M's to rounding.
  EXPECT_NEAR(nncg.residual, natural_residual(lcp, z_nncg), 1e-15);
  EXPECT_NEAR(pgs.residual, natural_residual(lcp, z_pgs), 1e-15);
  // The normal impulses sum to the stack's weight over a step on the ground face (thesis
  // (6.1)'s answer, as in the PGS test above): 10 m g h.
  double ground = 0.0;
  for (std::size_t b = 0; b < lcp.block_starts.size(); ++b) {
    const int s = lcp.block_starts[b];
    if (std::min(lcp.body_form.body_a[s], lcp.body_form.body_b[s]) < 0) ground += z_nncg(s);
  }
  EXPECT_NEAR(ground, 10 * 9.81 * 0.01, 1e-8);
}

// stack10 under nncg alone (no fallback), 2 s: the program's invariant, penetration and
// top-cube drift within 1e-6 m, with every step solved to the default tolerance.
TEST(PgsStack, NncgKeepsStack10AtRest) {
  Scene scene = load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes" / "stack10.json");
  scene.settings.solver = "nncg";
  scene.settings.fallbacks.clear();
  Simulator sim(scene.model, scene.initial, scene.settings);
  const Vec3 top = scene.initial.bodies.back().position;
  double penetration = 0.0, drift = 0.0;
  for (int k = 0; k < 200; ++k) {
    const StepReport& r = sim.step();
    ASSERT_FALSE(r.failed) << "step " << k << ": " << r.failure;
    ASSERT_EQ(r.solve.solver, "nncg");
    penetration = std::max(penetration, r.max_penetration);
    drift = std::max(drift, (sim.state().bodies.back().position - top).norm());
  }
  EXPECT_LE(penetration, 1e-6);
  EXPECT_LE(drift, 1e-6);
}

}  // namespace
}  // namespace pegsim
