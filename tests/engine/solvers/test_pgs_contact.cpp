// Projected Gauss–Seidel contact by contact (pgs-contact): converged, its closed-form friction
// gives Lemke's steps; stopped early, it reports the LCP's own residual; the blocks-only
// assembly it allows holds exactly M's diagonal blocks, and every other solver refuses it.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/pgs_contact.hpp"
#include "io/scene.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

Scene shipped(const std::string& name) {
  return load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes" / (name + ".json"));
}

// One solver alone, to the default tolerance, a step no solver answers stopping the run.
Settings alone(Settings s, const std::string& solver, int max_iterations) {
  s.solver = solver;
  s.fallbacks.clear();
  s.max_iterations = max_iterations;
  s.on_failure = FailurePolicy::Stop;
  return s;
}

// Run to convergence, the sweep answers every step of a block sliding down an incline (one
// contact turning its cone against the slip), a cube coming to rest, spheres on a cube, and
// the 2D stack (planar +-t friction): the bodies end where Lemke's do, to 1e-8 m.
TEST(PgsContact, ConvergedStepsAreLemkes) {
  for (const char* name : {"sliding_block", "hello_world", "spheres_on_cube", "box_stack_2d"}) {
    const Scene scene = shipped(name);
    Simulator exact(scene.model, scene.initial, alone(scene.settings, "lemke", 10000));
    Simulator sweep(scene.model, scene.initial, alone(scene.settings, "pgs-contact", 100000));
    for (int k = 0; k < 150; ++k) {
      exact.step();
      const StepReport& r = sweep.step();
      ASSERT_FALSE(r.failed) << name << " step " << k << ": " << r.failure;
      if (r.problem_size > 0) {
        ASSERT_EQ(r.solve.solver, "pgs-contact") << name;
      }
    }
    for (std::size_t b = 0; b < scene.model.bodies.size(); ++b)
      EXPECT_LE((exact.state().bodies[b].position - sweep.state().bodies[b].position).norm(), 1e-8)
          << name << " body " << b;
  }
}

// The first LCPs of stack10 as the simulator poses them: assembled in full (for Lemke) and
// with its diagonal blocks alone (for pgs-contact alone in the chain).
struct StackProblems {
  Lcp full, blocks;
};
StackProblems stack10_problems() {
  const Scene scene = shipped("stack10");
  Simulator full(scene.model, scene.initial, alone(scene.settings, "lemke", 10000));
  Simulator blocks(scene.model, scene.initial, alone(scene.settings, "pgs-contact", 20));
  StackProblems p;
  p.full = *full.step().lcp;
  p.blocks = *blocks.step().lcp;
  return p;
}

// The blocks-only M equals the full M on every contact's block, bit for bit, and holds nothing
// else; the body form and q are the same.
TEST(PgsContact, BlocksOnlyAssemblyHoldsMsDiagonalBlocks) {
  const StackProblems p = stack10_problems();
  ASSERT_FALSE(p.full.blocks_only);
  ASSERT_TRUE(p.blocks.blocks_only);
  ASSERT_EQ(p.full.size(), p.blocks.size());
  ASSERT_GT(p.full.size(), 100);
  EXPECT_EQ(p.full.q, p.blocks.q);
  EXPECT_EQ(p.full.block_starts, p.blocks.block_starts);
  EXPECT_EQ(p.full.body_form.J_b, p.blocks.body_form.J_b);
  EXPECT_EQ(p.full.body_form.WJ_a, p.blocks.body_form.WJ_a);
  const MatX full = test::dense_m(p.full), blocks = test::dense_m(p.blocks);
  const auto& starts = p.full.block_starts;
  int outside = 0;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const int s = starts[k];
    const int e = k + 1 < starts.size() ? starts[k + 1] : p.full.size();
    EXPECT_EQ(full.block(s, s, e - s, e - s), blocks.block(s, s, e - s, e - s)) << "block " << k;
    for (int j = s; j < e; ++j)
      for (int i = 0; i < p.full.size(); ++i)
        if ((i < s || i >= e) && blocks(i, j) != 0.0) ++outside;
  }
  EXPECT_EQ(outside, 0);
  EXPECT_GT((full - blocks).cwiseAbs().maxCoeff(), 0.0);  // the stack's blocks do couple
}

// Every solver but pgs-contact refuses a blocks-only problem, naming the reason; pgs-contact
// answers it as it answers the full problem, bit for bit.
TEST(PgsContact, OnlyItTakesABlocksOnlyProblem) {
  const StackProblems p = stack10_problems();
  for (const std::string& name : solver_names()) {
    if (name == "pgs-contact") continue;
    const test::Run r = test::run(name, p.blocks);
    EXPECT_EQ(r.report.status, SolveStatus::NumericalFailure) << name;
    EXPECT_NE(r.report.message.find("diagonal blocks"), std::string::npos)
        << name << ": " << r.report.message;
  }
  SolverOptions options;
  options.max_iterations = 30;
  const test::Run from_full = test::run("pgs-contact", p.full, options);
  const test::Run from_blocks = test::run("pgs-contact", p.blocks, options);
  EXPECT_EQ(from_full.z, from_blocks.z);
  EXPECT_EQ(from_full.report.residual, from_blocks.report.residual);
}

// Stopped at its sweep limit, the answer is a feasible iterate (z >= 0) and the report's
// residual is the LCP's natural residual of it; more sweeps bring it down.
TEST(PgsContact, StopsAtTheSweepLimitWithTheLcpsResidual) {
  const StackProblems p = stack10_problems();
  double before = INFINITY;
  for (int sweeps : {5, 50, 500}) {
    SolverOptions options;
    options.max_iterations = sweeps;
    const test::Run r = test::run("pgs-contact", p.full, options);
    EXPECT_EQ(r.report.status, SolveStatus::MaxIterations) << sweeps;
    EXPECT_EQ(r.report.iterations, sweeps);
    EXPECT_GE(r.z.minCoeff(), 0.0);
    EXPECT_TRUE(test::report_matches(p.full, r.z, r.report)) << sweeps;
    EXPECT_LT(r.report.residual, before) << sweeps;
    before = r.report.residual;
  }
}

// A problem without a body form (here a Siconos one) goes to the block-wise PGS over M.
TEST(PgsContact, SolvesProblemsWithoutABodyFormAsPgsDoes) {
  const Lcp lcp = test::siconos("lcp_mmc");
  const test::Run r = test::run("pgs-contact", lcp);
  EXPECT_EQ(r.report.status, SolveStatus::Solved) << test::describe(r);
  EXPECT_EQ(r.report.solver, "pgs-contact");
  EXPECT_TRUE(test::is_solution(lcp, r.z));
  EXPECT_EQ(r.z, test::run("pgs", lcp).z);
}

// A block whose rows act on different body pairs (not one contact) has no own share on one
// pair: such a problem goes to the block-wise PGS over M, with its answer.
TEST(PgsContact, ABlockOnSeveralBodyPairsIsSweptOverM) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Lcp lcp;
  LcpBodyForm& f = lcp.body_form;
  f.bodies = 3;
  f.body_a = {0, 1, 0};
  f.body_b = {1, 2, 2};
  for (int r = 0; r < 3; ++r) {
    Vec6 a, b;
    for (int k = 0; k < 6; ++k) a(k) = u(rng), b(k) = u(rng);
    f.J_a.push_back(a);
    f.J_b.push_back(b);
    f.WJ_a.push_back(a);  // W = 1 on every body
    f.WJ_b.push_back(b);
  }
  // M_ij = sum over the bodies rows i and j share of J_i . W J_j.
  lcp.M.setZero(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int ei = 0; ei < 2; ++ei)
        for (int ej = 0; ej < 2; ++ej)
          if ((ei ? f.body_b[i] : f.body_a[i]) == (ej ? f.body_b[j] : f.body_a[j]))
            lcp.M(i, j) += (ei ? f.J_b[i] : f.J_a[i]).dot(ej ? f.WJ_b[j] : f.WJ_a[j]);
  lcp.q = Vec3(-1.0, -0.5, 0.3);
  lcp.block_starts = {0, 2};  // rows 0 and 1 (pairs 0-1 and 1-2) in one block
  const test::Run contact = test::run("pgs-contact", lcp);
  EXPECT_EQ(contact.report.status, SolveStatus::Solved) << test::describe(contact);
  EXPECT_TRUE(test::is_solution(lcp, contact.z));
  EXPECT_EQ(contact.z, test::run("pgs", lcp).z);
}

}  // namespace
}  // namespace pegsim
