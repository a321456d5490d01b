// Lemke's method on the Siconos LCP set (tests/data/siconos-lcp/NOTICE.md) and on seeded random
// P-matrix problems; every solution is checked here, independently of the solver's report.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "lcp_testing.hpp"

namespace pegsim {
namespace {

using test::describe;
using test::is_solution;
using test::report_matches;
using test::run;
using test::siconos;

// Lemke solves every solvable Siconos problem: status Solved and a verified solution, with a
// consistent report.
TEST(Lemke, SolvesEverySolvableSiconosProblem) {
  for (const std::string& name : test::kSolvableSiconos) {
    const Lcp lcp = siconos(name);
    const test::Run r = run("lemke", lcp);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << name << ": " << describe(r);
    EXPECT_TRUE(is_solution(lcp, r.z)) << name << ": " << describe(r);
    EXPECT_TRUE(report_matches(lcp, r.z, r.report)) << name;
    EXPECT_EQ(r.report.solver, "lemke") << name;
  }
}

// lcp_CPS_3 (a bimatrix game, M not copositive-plus) may end on a secondary ray: then the
// status is Unsolvable; Solved is only accepted with a verified z.
TEST(Lemke, BimatrixGameIsSolvedOrReportedUnsolvable) {
  const Lcp lcp = siconos("lcp_CPS_3");
  const test::Run r = run("lemke", lcp);
  if (r.report.status == SolveStatus::Solved) {
    EXPECT_TRUE(is_solution(lcp, r.z)) << describe(r);
  } else {
    EXPECT_EQ(r.report.status, SolveStatus::Unsolvable) << describe(r);
  }
  EXPECT_TRUE(report_matches(lcp, r.z, r.report));
}

// lcp_Pang_isolated_sol_perturbed has no solution (w_1 = -z_2 - z_3 - 1e-4 < 0): Unsolvable.
TEST(Lemke, InfeasibleProblemIsUnsolvable) {
  const Lcp lcp = siconos("lcp_Pang_isolated_sol_perturbed");
  const test::Run r = run("lemke", lcp);
  EXPECT_EQ(r.report.status, SolveStatus::Unsolvable) << describe(r);
  EXPECT_FALSE(r.report.message.empty());
  EXPECT_TRUE(r.z.allFinite());
  EXPECT_TRUE(report_matches(lcp, r.z, r.report));
}

// Murty's example (NOTICE.md): the classical cold start takes 2^6 - 1 = 63 pivots. Read with
// rows and columns swapped it would not, so this also guards the column-major reading.
TEST(Lemke, MurtysExampleTakesSixtyThreePivots) {
  const Lcp lcp = siconos("lcp_exp_murty2");
  const test::Run r = run("lemke", lcp);
  ASSERT_EQ(r.report.status, SolveStatus::Solved) << describe(r);
  EXPECT_EQ(r.report.iterations, 63);
  EXPECT_TRUE(is_solution(lcp, r.z));
  // One residual per pivot, the last being the final one.
  EXPECT_GE(r.report.residual_history.size(), 63u);
}

// The pivot limit is honoured: 10 pivots are not enough for Murty's example.
TEST(Lemke, StopsAtThePivotLimit) {
  const Lcp lcp = siconos("lcp_exp_murty2");
  SolverOptions options;
  options.max_iterations = 10;
  const test::Run r = run("lemke", lcp, options);
  EXPECT_EQ(r.report.status, SolveStatus::MaxIterations) << describe(r);
  EXPECT_LE(r.report.iterations, 10);
  EXPECT_TRUE(report_matches(lcp, r.z, r.report));
}

// Random P-matrix problems (unique solution), sizes 5..60, fixed seeds: always Solved with a
// verified solution, symmetric positive definite and non-symmetric diagonally dominant alike.
TEST(Lemke, SolvesRandomPMatrixProblems) {
  test::expect_solves_random_problems("lemke");
}

// Warm start from the previous solution: the same solution (to 1e-10) and no more pivots than
// the cold start; from the correct basis no pivot at all.
TEST(Lemke, WarmStartFromTheSolutionNeedsNoPivot) {
  std::mt19937 rng(7);
  std::vector<std::pair<std::string, Lcp>> problems;
  for (const char* name :
       {"lcp_mmc", "lcp_trivial", "lcp_deudeu", "lcp_ortiz", "lcp_exp_murty", "lcp_exp_murty2"})
    problems.emplace_back(name, siconos(name));
  for (int n : {10, 40}) {
    problems.emplace_back("spd " + std::to_string(n), test::random_spd(n, rng));
    problems.emplace_back("dominant " + std::to_string(n), test::random_dominant(n, rng));
  }
  for (const auto& [name, lcp] : problems) {
    const test::Run cold = run("lemke", lcp);
    ASSERT_EQ(cold.report.status, SolveStatus::Solved) << name << ": " << describe(cold);
    SolverOptions warm_options;
    warm_options.warm_start = true;
    const test::Run warm = run("lemke", lcp, warm_options, cold.z);
    EXPECT_EQ(warm.report.status, SolveStatus::Solved) << name << ": " << describe(warm);
    EXPECT_LE((warm.z - cold.z).cwiseAbs().maxCoeff(), 1e-10) << name;
    EXPECT_LE(warm.report.iterations, cold.report.iterations) << name;
    EXPECT_EQ(warm.report.iterations, 0) << name;
    EXPECT_TRUE(is_solution(lcp, warm.z)) << name;
    EXPECT_TRUE(report_matches(lcp, warm.z, warm.report)) << name;
  }
}

// A warm start that is not the solution's basis still ends on the solution.
TEST(Lemke, WarmStartFromAWrongGuessStillSolves) {
  std::mt19937 rng(11);
  const Lcp lcp = test::random_dominant(30, rng);
  const test::Run cold = run("lemke", lcp);
  ASSERT_EQ(cold.report.status, SolveStatus::Solved) << describe(cold);
  SolverOptions warm_options;
  warm_options.warm_start = true;
  const VecX guess = VecX::Ones(30);  // every z_i basic: not the solution's basis
  const test::Run warm = run("lemke", lcp, warm_options, guess);
  EXPECT_EQ(warm.report.status, SolveStatus::Solved) << describe(warm);
  EXPECT_TRUE(is_solution(lcp, warm.z));
  EXPECT_LE((warm.z - cold.z).cwiseAbs().maxCoeff(), 1e-10);
}

// Degenerate problems terminate (the lexicographic rule prevents cycling) on a verified
// solution: q = 0; q = -e with every first ratio tied; a solution with z_i = w_i = 0 for a
// third of the rows; and Siconos' lcp_enum_fails.
TEST(Lemke, DegenerateProblemsTerminateOnASolution) {
  std::mt19937 rng(3);
  struct Problem {
    std::string name;
    Lcp lcp;
    VecX expected;  // the unique solution when known, else empty
  };
  std::vector<Problem> problems;
  {
    Lcp zero_q = test::random_dominant(12, rng);
    zero_q.q.setZero();
    problems.push_back({"q = 0", zero_q, VecX::Zero(12)});
  }
  {
    // Circulant M = 2 I + shift: every row has the same ratios at the first pivot.
    const int n = 9;
    Lcp tied;
    tied.M = 2.0 * MatX::Identity(n, n);
    for (int i = 0; i < n; ++i) tied.M(i, (i + 1) % n) = 1.0;
    tied.q = -VecX::Ones(n);
    problems.push_back({"tied ratios", tied, VecX()});
  }
  {
    // Built around z*: z* > 0 and w* = 0 on rows 0, 3, ...; z* = 0 < w* on rows 1, 4, ...;
    // z* = w* = 0 on rows 2, 5, ... (degenerate).
    const int n = 30;
    Lcp built = test::random_spd(n, rng);
    VecX z_star = VecX::Zero(n), w_star = VecX::Zero(n);
    for (int i = 0; i < n; ++i) {
      if (i % 3 == 0) z_star(i) = 1.0 + i;
      if (i % 3 == 1) w_star(i) = 1.0 + i;
    }
    built.q = w_star - built.M * z_star;
    problems.push_back({"degenerate solution", built, z_star});  // M is a P-matrix: unique
  }
  problems.push_back({"lcp_enum_fails", siconos("lcp_enum_fails"), VecX()});
  for (const auto& [name, lcp, expected] : problems) {
    const test::Run r = run("lemke", lcp);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << name << ": " << describe(r);
    EXPECT_TRUE(is_solution(lcp, r.z)) << name << ": " << describe(r);
    if (expected.size() > 0) {
      EXPECT_LE((r.z - expected).cwiseAbs().maxCoeff(), 1e-8 * (1.0 + expected.norm())) << name;
    }
  }
}

// Two contacts with one normal (PEG's I-constraint members, a vertex near two collinear
// edges): M's columns agree to 1e-9, below the ratio test's pivot threshold. The run ends on
// z = (0, 1 / (2 + 1e-9 / 3)) with w_0 = -5e-10, over the tolerance 4e-10 (polygon_pour under PEG,
// seed 6, h = 0.01, step 355 stopped so: w_i = -1.9e-9); Lemke again from that basis reaches
// the unique solution z = (1/2, 0).
TEST(Lemke, RestartsFromABasisThatMissesTheTolerance) {
  Lcp lcp;
  lcp.M.resize(2, 2);
  lcp.M << 6.0, 6.0, 6.0, 6.0 + 1e-9;
  lcp.q = VecX::Constant(2, -3.0);
  const test::Run r = run("lemke", lcp);
  EXPECT_EQ(r.report.status, SolveStatus::Solved) << describe(r);
  EXPECT_LE(r.report.residual, 1e-10 * (1.0 + 3.0)) << describe(r);
  EXPECT_NEAR(r.z(0), 0.5, 1e-15);
  EXPECT_EQ(r.z(1), 0.0);
}

}  // namespace
}  // namespace pegsim
