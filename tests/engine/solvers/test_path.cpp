// The PATH-style solver (path.hpp) on the Siconos LCP and MLCP sets, on random problems with and
// without bounds, and the free-row reduction (thesis (2.37)/(2.38)) against it. Every claimed
// solution is verified independently of the solver's report.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "io/scene.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

using test::describe;
using test::is_mcp_solution;
using test::is_solution;
using test::report_matches;
using test::run;

const std::vector<std::string> kSolvableLcps{"lcp_CPS_1",
                                             "lcp_CPS_2",
                                             "lcp_CPS_3",
                                             "lcp_CPS_4",
                                             "lcp_CPS_4bis",
                                             "lcp_CPS_5",
                                             "lcp_Pang_isolated_sol",
                                             "lcp_deudeu",
                                             "lcp_deudeu_block",
                                             "lcp_enum_fails",
                                             "lcp_exp_murty",
                                             "lcp_exp_murty2",
                                             "lcp_inf_sol_perturbed",
                                             "lcp_mmc",
                                             "lcp_ortiz",
                                             "lcp_ortiz_block",
                                             "lcp_tobenna",
                                             "lcp_trivial",
                                             "lcp_trivial_block"};

const std::vector<std::string> kMlcps{"Buck2",  "BuckConverter", "BuckFirstStep", "PDSym",
                                      "PD",     "RCD",           "RLCD",          "Rectangular",
                                      "deudeu", "diodeBridge20", "diodeBridge40", "diodeBridge",
                                      "m2n1",   "m3n2",          "relay2",        "relay3"};

// Every Siconos LCP but lcp_Pang_isolated_sol_perturbed, which has no solution (NOTICE.md).
TEST(PathSolver, SolvesEverySolvableSiconosLcp) {
  for (const std::string& name : kSolvableLcps) {
    const Lcp lcp = test::siconos(name);
    const test::Run r = run("path", lcp);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << name << ": " << describe(r);
    EXPECT_TRUE(is_solution(lcp, r.z)) << name;
    EXPECT_TRUE(report_matches(lcp, r.z, r.report)) << name;
  }
  const Lcp infeasible = test::siconos("lcp_Pang_isolated_sol_perturbed");
  const test::Run r = run("path", infeasible);
  EXPECT_FALSE(r.report.solved()) << describe(r);
  EXPECT_FALSE(r.report.message.empty());
}

TEST(PathSolver, SolvesEverySiconosMlcp) {
  for (const std::string& name : kMlcps) {
    const Lcp mcp = test::siconos_mlcp(name);
    ASSERT_TRUE(mcp.has_bounds()) << name;
    const test::Run r = run("path", mcp);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << name << ": " << describe(r);
    EXPECT_TRUE(is_mcp_solution(mcp, r.z)) << name;
    EXPECT_LE(r.report.residual, test::accuracy(mcp)) << name;
  }
}

TEST(PathSolver, SolvesRandomPMatrixProblems) {
  test::expect_solves_random_problems("path");
}

// Box-constrained strictly convex QP min z^T M z / 2 + q^T z, l <= z <= u: its KKT conditions
// are exactly the MCP, and projected gradient (an independent method) reaches the same unique z.
TEST(PathSolver, SolvesBoxConstrainedProblemsAsTheirQuadraticProgram) {
  std::mt19937 rng(5);
  for (int n : {4, 10, 30}) {
    Lcp mcp = test::random_spd(n, rng);
    mcp.q *= 3.0;
    mcp.lower = VecX::Constant(n, -0.5);
    mcp.upper = VecX::Constant(n, 0.5);
    mcp.lower(0) = -INFINITY;  // one row free below, one free in both directions
    mcp.upper(1) = INFINITY;
    mcp.lower(1) = -INFINITY;
    const test::Run r = run("path", mcp);
    ASSERT_EQ(r.report.status, SolveStatus::Solved) << n << ": " << describe(r);
    EXPECT_TRUE(is_mcp_solution(mcp, r.z)) << n;
    EXPECT_LE(r.report.residual, test::accuracy(mcp)) << n;
    // Projected gradient with step 1 / lambda_max converges to the unique minimizer.
    const double step = 1.0 / Eigen::SelfAdjointEigenSolver<MatX>(mcp.M).eigenvalues().maxCoeff();
    VecX x = VecX::Zero(n);
    for (int k = 0; k < 200000; ++k)
      x = (x - step * (mcp.M * x + mcp.q)).cwiseMax(mcp.lower).cwiseMin(mcp.upper);
    EXPECT_LE((x - r.z).cwiseAbs().maxCoeff(), 1e-7) << n;
  }
}

// The LCP-only solvers refuse free rows with a message that says so; path and the reduction
// to the Schur complement (thesis (2.37)/(2.38)) agree on the MLCPs with an invertible M_FF.
TEST(PathSolver, LcpOnlySolversRefuseFreeRowsAndTheReducedLcpAgrees) {
  const Lcp mcp = test::siconos_mlcp("m3n2");
  for (const std::string& solver : solver_names()) {
    const auto s = make_solver(solver);
    if (s->supports_bounds()) continue;
    VecX z;
    const SolveReport report = s->solve(mcp, z, {});
    EXPECT_FALSE(report.solved()) << solver;
    EXPECT_NE(report.message.find("free or bounded rows"), std::string::npos) << solver;
  }
  for (const char* name : {"m3n2", "m2n1", "RCD", "deudeu", "PDSym"}) {
    const Lcp m = test::siconos_mlcp(name);
    FreeRowReduction reduction;
    const char* why = nullptr;
    ASSERT_TRUE(reduce_free_rows(m, reduction, why)) << name << ": " << why;
    const test::Run lemke = run("lemke", reduction.lcp);
    ASSERT_TRUE(lemke.report.solved()) << name << ": " << describe(lemke);
    const VecX z = reduction.expand(lemke.z);
    EXPECT_TRUE(is_mcp_solution(m, z)) << name;
    const test::Run path = run("path", m);
    ASSERT_TRUE(path.report.solved()) << name;
    EXPECT_LE((path.z - z).cwiseAbs().maxCoeff(), 1e-6 * (1.0 + z.cwiseAbs().maxCoeff())) << name;
  }
}

// The reduction is sparse: 40 uncoupled copies of m3n2 (an MCP of 200 rows held by its nonzeros)
// reduce to 40 uncoupled 3 x 3 blocks, nothing between them, and Lemke's answer on the reduced
// LCP, expanded, solves the whole MCP. A copy of diodeBridge (singular M_FF) among them is refused.
TEST(PathSolver, FreeRowReductionKeepsUncoupledBlocksSparse) {
  const Lcp one = test::siconos_mlcp("m3n2");
  const int n = one.size(), copies = 40;
  auto stacked = [&](const std::vector<Lcp>& parts) {
    Lcp mcp;
    int size = 0;
    for (const Lcp& p : parts) size += p.size();
    std::vector<Eigen::Triplet<double>> entries;
    mcp.q.resize(size);
    mcp.lower.resize(size);
    mcp.upper.resize(size);
    int at = 0;
    for (const Lcp& p : parts) {
      for (int i = 0; i < p.size(); ++i)
        for (int j = 0; j < p.size(); ++j)
          if (m_entry(p, i, j) != 0.0) entries.emplace_back(at + i, at + j, m_entry(p, i, j));
      mcp.q.segment(at, p.size()) = p.q;
      mcp.lower.segment(at, p.size()) = p.lower;
      mcp.upper.segment(at, p.size()) = p.upper;
      at += p.size();
    }
    mcp.S.resize(size, size);
    mcp.S.setFromTriplets(entries.begin(), entries.end());
    return mcp;
  };
  const Lcp mcp = stacked(std::vector<Lcp>(copies, one));
  FreeRowReduction single, reduction;
  const char* why = nullptr;
  ASSERT_TRUE(reduce_free_rows(one, single, why)) << why;
  ASSERT_TRUE(reduce_free_rows(mcp, reduction, why)) << why;
  ASSERT_TRUE(m_is_sparse(reduction.lcp));
  EXPECT_EQ(reduction.lcp.size(), copies * single.lcp.size());
  EXPECT_EQ(reduction.lcp.S.nonZeros(), copies * single.lcp.S.nonZeros());
  const int nc = single.lcp.size();
  for (int k = 0; k < reduction.lcp.S.outerSize(); ++k)
    for (SparseMatX::InnerIterator it(reduction.lcp.S, k); it; ++it)
      EXPECT_EQ(it.row() / nc, it.col() / nc)
          << "entry between blocks at " << it.row() << ", " << it.col();
  const test::Run lemke = run("lemke", reduction.lcp);
  ASSERT_TRUE(lemke.report.solved()) << describe(lemke);
  EXPECT_TRUE(is_mcp_solution(mcp, reduction.expand(lemke.z)));
  EXPECT_EQ(mcp.size(), copies * n);

  std::vector<Lcp> with_singular(3, one);
  with_singular.push_back(test::siconos_mlcp("diodeBridge"));
  EXPECT_FALSE(reduce_free_rows(stacked(with_singular), reduction, why));
  EXPECT_NE(std::string(why).find("M_FF is singular"), std::string::npos) << why;
}

// Semismooth Newton: from near a nondegenerate solution a few steps suffice.
TEST(PathSolver, ConvergesInFewStepsNearANondegenerateSolution) {
  std::mt19937 rng(3);
  const Lcp lcp = test::random_spd(20, rng);
  const test::Run reference = run("lemke", lcp);
  ASSERT_TRUE(reference.report.solved());
  SolverOptions warm;
  warm.warm_start = true;
  const test::Run r = run("path", lcp, warm, reference.z + 1e-4 * VecX::Ones(lcp.size()));
  EXPECT_EQ(r.report.status, SolveStatus::Solved) << describe(r);
  EXPECT_LE(r.report.iterations, 4) << describe(r);
}

// A pile problem: the lattice pour's step 59 under path alone (tests/data/pour20_step59.json
// holds the state after step 58, so its first step poses that LCP). Its 747 rows stop path's
// Newton phase at a local minimum of the merit (natural residual 1e-2); path's pivoting then
// answers it: Lemke's cold runs from the covering vectors of lemke_cover.hpp (d = e alone ends
// on a secondary ray here, warm and cold: the case path's interior-point restart is for).
TEST(PathSolver, SolvesPour20sStep59WhereItsNewtonPhaseStalls) {
  Scene scene = load_scene(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "pour20_step59.json");
  Settings s = scene.settings;
  s.solver = "path";
  s.fallbacks = {};
  s.cone_orientation = ConeOrientation::Fixed;  // the cones the LCP was found with
  Simulator sim(scene.model, scene.initial, s);
  const StepReport& r = sim.step();
  ASSERT_EQ(r.problem_size, 747);
  ASSERT_NE(r.lcp, nullptr);
  const test::Run lemke = run("lemke", *r.lcp);
  ASSERT_TRUE(lemke.report.solved()) << describe(lemke);
  EXPECT_TRUE(is_solution(*r.lcp, lemke.z));
  ASSERT_TRUE(r.solve.solved()) << r.solve.message;
  ASSERT_NE(r.solution, nullptr);
  EXPECT_TRUE(is_solution(*r.lcp, *r.solution));
}

}  // namespace
}  // namespace pegsim
