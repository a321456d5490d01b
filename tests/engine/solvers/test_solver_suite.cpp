// The solvers beyond Lemke and PGS — NNCG, PSOR, projected Jacobi, fixed point, interior point,
// minmap–Newton and Fischer–Newton — on the Siconos set and on seeded random problems. Every
// claimed solution is verified independently of the solver's report.
#include <gtest/gtest.h>

#include <map>
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

const std::vector<std::string> kSiconos{"lcp_CPS_1",
                                        "lcp_CPS_2",
                                        "lcp_CPS_3",
                                        "lcp_CPS_4",
                                        "lcp_CPS_4bis",
                                        "lcp_CPS_5",
                                        "lcp_Pang_isolated_sol",
                                        "lcp_Pang_isolated_sol_perturbed",
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

// What each method solves within the default 10 000 iterations. The splitting methods need a
// positive diagonal (or blocks); the fixed point needs M close to symmetric positive definite;
// the interior-point method, monotone or P* problems; the semismooth Newton methods converge
// from far away where their merit function has no spurious local minima.
const std::map<std::string, std::vector<std::string>> kSolves{
    // nncg as pgs: the conjugate gradient step changes the path, not what it reaches.
    {"nncg",
     {"lcp_CPS_1", "lcp_CPS_5", "lcp_deudeu", "lcp_deudeu_block", "lcp_exp_murty", "lcp_exp_murty2",
      "lcp_mmc", "lcp_ortiz", "lcp_ortiz_block", "lcp_trivial", "lcp_trivial_block"}},
    {"psor",
     {"lcp_CPS_1", "lcp_CPS_5", "lcp_deudeu", "lcp_deudeu_block", "lcp_exp_murty", "lcp_exp_murty2",
      "lcp_mmc", "lcp_ortiz", "lcp_ortiz_block", "lcp_trivial", "lcp_trivial_block"}},
    {"projected-jacobi",
     {"lcp_CPS_1", "lcp_CPS_5", "lcp_deudeu", "lcp_deudeu_block", "lcp_exp_murty", "lcp_exp_murty2",
      "lcp_mmc", "lcp_ortiz", "lcp_ortiz_block", "lcp_trivial", "lcp_trivial_block"}},
    {"fixed-point",
     {"lcp_CPS_1", "lcp_CPS_3", "lcp_CPS_4", "lcp_CPS_4bis", "lcp_CPS_5", "lcp_deudeu",
      "lcp_enum_fails", "lcp_exp_murty", "lcp_exp_murty2", "lcp_mmc", "lcp_ortiz", "lcp_trivial"}},
    {"interior-point",
     {"lcp_CPS_1", "lcp_CPS_2", "lcp_CPS_3", "lcp_CPS_4", "lcp_CPS_4bis", "lcp_CPS_5", "lcp_deudeu",
      "lcp_deudeu_block", "lcp_enum_fails", "lcp_exp_murty", "lcp_exp_murty2",
      "lcp_inf_sol_perturbed", "lcp_mmc", "lcp_ortiz", "lcp_ortiz_block", "lcp_trivial",
      "lcp_trivial_block"}},
    {"minmap-newton",
     {"lcp_CPS_1", "lcp_CPS_2", "lcp_CPS_3", "lcp_CPS_4", "lcp_CPS_4bis", "lcp_CPS_5",
      "lcp_Pang_isolated_sol", "lcp_deudeu", "lcp_deudeu_block", "lcp_enum_fails", "lcp_exp_murty",
      "lcp_exp_murty2", "lcp_inf_sol_perturbed", "lcp_mmc", "lcp_ortiz", "lcp_ortiz_block",
      "lcp_trivial", "lcp_trivial_block"}},
    {"fischer-newton",
     {"lcp_CPS_1", "lcp_CPS_2", "lcp_CPS_3", "lcp_CPS_4", "lcp_CPS_4bis", "lcp_CPS_5",
      "lcp_Pang_isolated_sol", "lcp_deudeu", "lcp_deudeu_block", "lcp_enum_fails", "lcp_exp_murty",
      "lcp_exp_murty2", "lcp_inf_sol_perturbed", "lcp_mmc", "lcp_ortiz", "lcp_ortiz_block",
      "lcp_trivial", "lcp_trivial_block"}},
};

TEST(SolverSuite, EachMethodSolvesItsSiconosProblems) {
  for (const auto& [solver, problems] : kSolves)
    for (const std::string& name : problems) {
      const Lcp lcp = siconos(name);
      const test::Run r = run(solver, lcp);
      EXPECT_EQ(r.report.status, SolveStatus::Solved)
          << solver << " on " << name << ": " << describe(r);
      EXPECT_TRUE(is_solution(lcp, r.z)) << solver << " on " << name;
      EXPECT_TRUE(report_matches(lcp, r.z, r.report)) << solver << " on " << name;
      EXPECT_EQ(r.report.solver, solver);
    }
}

// Whatever a method makes of the others, a Solved status always comes with a verified solution,
// and the problem without a solution is never reported solved.
TEST(SolverSuite, NoMethodClaimsASolutionItDoesNotHave) {
  for (const std::string& solver : solver_names())
    for (const std::string& name : kSiconos) {
      const Lcp lcp = siconos(name);
      const test::Run r = run(solver, lcp);
      EXPECT_TRUE(report_matches(lcp, r.z, r.report)) << solver << " on " << name;
      EXPECT_TRUE(r.z.allFinite()) << solver << " on " << name;
      if (r.report.solved()) {
        EXPECT_TRUE(is_solution(lcp, r.z)) << solver << " on " << name << ": " << describe(r);
      }
      if (name == "lcp_Pang_isolated_sol_perturbed") {
        EXPECT_FALSE(r.report.solved()) << solver;
      }
    }
}

TEST(SolverSuite, SplittingNewtonAndInteriorMethodsSolveRandomPMatrixProblems) {
  for (const char* solver :
       {"nncg", "psor", "projected-jacobi", "interior-point", "minmap-newton", "fischer-newton"})
    test::expect_solves_random_problems(solver);
}

// The fixed point converges on symmetric positive definite M (alpha < 2 / lambda_max); small,
// well-conditioned ones here.
TEST(SolverSuite, FixedPointSolvesSymmetricPositiveDefiniteProblems) {
  std::mt19937 rng(7);
  for (int n : {3, 6, 10}) {
    const Lcp lcp = test::random_spd(n, rng);
    const test::Run r = run("fixed-point", lcp);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << n << ": " << describe(r);
    EXPECT_TRUE(is_solution(lcp, r.z)) << n;
  }
}

// The Newton methods converge locally quadratically: from a point near a strictly
// complementary solution they need few steps (minmap–Newton, piecewise linear, one once the
// active set is right).
TEST(SolverSuite, NewtonMethodsFinishInFewStepsFromANearbyPoint) {
  std::mt19937 rng(3);
  const Lcp lcp = test::random_spd(20, rng);
  const test::Run reference = run("lemke", lcp);
  ASSERT_TRUE(reference.report.solved());
  const VecX w = lcp.M * reference.z + lcp.q;
  for (int i = 0; i < lcp.size(); ++i)
    ASSERT_GT(reference.z(i) + w(i), 1e-3) << "not strictly complementary at " << i;
  SolverOptions warm;
  warm.warm_start = true;
  for (const char* solver : {"minmap-newton", "fischer-newton"}) {
    const VecX nearby = reference.z + 1e-4 * VecX::Ones(lcp.size());
    const test::Run r = run(solver, lcp, warm, nearby);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << solver << ": " << describe(r);
    EXPECT_LE(r.report.iterations, 4) << solver << ": " << describe(r);
    EXPECT_LE((r.z - reference.z).cwiseAbs().maxCoeff(), 1e-8) << solver;
  }
}

// Over-relaxation, relaxation and the conjugate gradient step change the method, not the
// answer.
TEST(SolverSuite, RelaxedSplittingsReachTheSameSolutionAsPgs) {
  std::mt19937 rng(11);
  const Lcp lcp = test::random_spd(25, rng);
  const test::Run pgs = run("pgs", lcp);
  ASSERT_TRUE(pgs.report.solved());
  for (const char* solver : {"nncg", "psor", "projected-jacobi"}) {
    const test::Run r = run(solver, lcp);
    ASSERT_TRUE(r.report.solved()) << solver << ": " << describe(r);
    EXPECT_LE((r.z - pgs.z).cwiseAbs().maxCoeff(), 1e-7) << solver;  // unique: M is P
  }
}

// Solver agreement: where the solution is unique (M a P-matrix: symmetric positive definite or
// strictly diagonally dominant, the latter a contraction for the fixed point too) every method
// of the registry reaches the same z as Lemke's pivoting, to well within its tolerance.
TEST(SolverSuite, EverySolverAgreesWithLemkeWhereTheSolutionIsUnique) {
  std::mt19937 rng(29);
  for (int n : {4, 9, 16})
    for (const bool symmetric : {true, false}) {
      const Lcp lcp = symmetric ? test::random_spd(n, rng) : test::random_dominant(n, rng);
      const test::Run lemke = run("lemke", lcp);
      ASSERT_TRUE(lemke.report.solved()) << describe(lemke);
      ASSERT_GT(lemke.z.maxCoeff(), 0.0) << "a trivial problem (z = 0) would prove little";
      for (const std::string& solver : solver_names()) {
        const std::string what =
            solver + (symmetric ? " on spd n = " : " on dominant n = ") + std::to_string(n);
        const test::Run r = run(solver, lcp);
        ASSERT_TRUE(r.report.solved()) << what << ": " << describe(r);
        EXPECT_LE((r.z - lemke.z).cwiseAbs().maxCoeff(),
                  1e-7 * (1.0 + lemke.z.cwiseAbs().maxCoeff()))
            << what;
      }
    }
}

}  // namespace
}  // namespace pegsim
