// Projected Gauss–Seidel: the positive definite Siconos problems, seeded random problems, warm
// start, and blocks holding a zero-diagonal row (Stewart–Trinkle's slip row).
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

// PGS solves the positive definite Siconos problems within the default 10000 sweeps:
// symmetric lcp_mmc, lcp_trivial, lcp_deudeu, and lcp_ortiz (positive definite, not symmetric),
// in dense and sparse-block storage.
TEST(Pgs, SolvesThePositiveDefiniteSiconosProblems) {
  for (const char* name : {"lcp_mmc", "lcp_trivial", "lcp_trivial_block", "lcp_deudeu",
                           "lcp_deudeu_block", "lcp_ortiz", "lcp_ortiz_block"}) {
    const Lcp lcp = siconos(name);
    const test::Run r = run("pgs", lcp);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << name << ": " << describe(r);
    EXPECT_LE(r.report.iterations, SolverOptions{}.max_iterations) << name;
    EXPECT_TRUE(is_solution(lcp, r.z)) << name << ": " << describe(r);
    EXPECT_TRUE(report_matches(lcp, r.z, r.report)) << name;
    EXPECT_EQ(r.report.solver, "pgs") << name;
  }
}

// Random problems, sizes 5..60, fixed seeds: symmetric positive definite ones, and strictly
// diagonally dominant ones (for those the projected Gauss–Seidel map is a contraction in the
// max norm, so PGS converges too).
TEST(Pgs, SolvesRandomPositiveDefiniteAndDominantProblems) {
  test::expect_solves_random_problems("pgs");
}

// Warm start from the previous solution: the same solution (to 1e-10) in no more sweeps.
TEST(Pgs, WarmStartFromTheSolutionIsNoSlower) {
  std::mt19937 rng(5);
  std::vector<std::pair<std::string, Lcp>> problems;
  for (const char* name : {"lcp_mmc", "lcp_trivial", "lcp_ortiz"})
    problems.emplace_back(name, siconos(name));
  problems.emplace_back("spd 40", test::random_spd(40, rng));
  for (const auto& [name, lcp] : problems) {
    const test::Run cold = run("pgs", lcp);
    ASSERT_EQ(cold.report.status, SolveStatus::Solved) << name << ": " << describe(cold);
    SolverOptions warm_options;
    warm_options.warm_start = true;
    const test::Run warm = run("pgs", lcp, warm_options, cold.z);
    EXPECT_EQ(warm.report.status, SolveStatus::Solved) << name << ": " << describe(warm);
    EXPECT_LE((warm.z - cold.z).cwiseAbs().maxCoeff(), 1e-10) << name;
    EXPECT_LE(warm.report.iterations, cold.report.iterations) << name;
    EXPECT_TRUE(is_solution(lcp, warm.z)) << name;
  }
}

// The sweep limit is honoured and reported.
TEST(Pgs, StopsAtTheSweepLimit) {
  const Lcp lcp = siconos("lcp_mmc");
  SolverOptions options;
  options.max_iterations = 2;
  const test::Run r = run("pgs", lcp, options);
  EXPECT_EQ(r.report.status, SolveStatus::MaxIterations) << describe(r);
  EXPECT_EQ(r.report.iterations, 2);
  EXPECT_TRUE(report_matches(lcp, r.z, r.report));
}

// A problem without a solution (w_1 + w_2 = -2 for every z): the sweeps climb z_1 = 1 + z_2,
// z_2 = 1 + z_1 for ever without reducing the residual. The run stops as stalled after two
// windows of max(100, limit / 20) sweeps, not at the limit, for every sweep method.
TEST(Pgs, StopsWhenTheResidualStalls) {
  Lcp lcp;
  lcp.M.resize(2, 2);
  lcp.M << 1.0, -1.0, -1.0, 1.0;
  lcp.q = VecX::Constant(2, -1.0);
  for (const char* solver : {"pgs", "psor", "projected-jacobi", "nncg"}) {
    const test::Run r = run(solver, lcp);
    EXPECT_EQ(r.report.status, SolveStatus::MaxIterations) << solver << ": " << describe(r);
    EXPECT_EQ(r.report.iterations, 2 * 500) << solver;  // 10 000 / 20 a window
    EXPECT_NE(r.report.message.find("stalled after 1000 sweeps"), std::string::npos)
        << solver << ": " << r.report.message;
  }
  // A run that converges steadily, however slowly, is not stopped: the 1D Laplacian of 60 rows
  // (PGS's rate 1 - O(1 / n^2) a sweep) takes thousands of sweeps to the tolerance.
  const int n = 60;
  Lcp slow;
  slow.M = 2.0 * MatX::Identity(n, n);
  for (int i = 0; i + 1 < n; ++i) slow.M(i, i + 1) = slow.M(i + 1, i) = -1.0;
  slow.q = VecX::Constant(n, -1.0);
  const test::Run r = run("pgs", slow);
  EXPECT_EQ(r.report.status, SolveStatus::Solved) << describe(r);
  EXPECT_GT(r.report.iterations, 2 * 500) << "the stall test ran";
  EXPECT_TRUE(is_solution(slow, r.z));
}

// Two frictional contacts in Stewart–Trinkle form with one friction direction (+t, -t), one
// block per contact [p_n; p_f+; p_f-; s]: rows
//   normal     G_n^T W G z + v_n
//   friction   G_f^T W G z + E s + v_f
//   slip       mu p_n - p_f+ - p_f-          (zero diagonal)
// W is a 6x6 inverse mass, contact 0 acts mostly on dofs 0..2 and contact 1 on dofs 3..5, with a
// weak coupling; the free velocity pushes both contacts in and sideways.
Lcp two_contact_problem(double mu0, double mu1) {
  std::mt19937 rng(99);
  const MatX R = test::uniform(6, 6, rng, -0.1, 0.1);
  const MatX W = R * R.transpose() + VecX::LinSpaced(6, 1.0, 2.0).asDiagonal().toDenseMatrix();
  MatX G = test::uniform(6, 6, rng, -0.05, 0.05);  // columns n0, t0, -t0, n1, t1, -t1
  G(2, 0) += 1.0;
  G(0, 1) += 1.0;
  G(5, 3) += 1.0;
  G(4, 4) += 1.0;
  G.col(2) = -G.col(1);
  G.col(5) = -G.col(4);
  VecX v(6);
  v << 0.4, 0.0, -1.0, 0.0, -0.3, -1.0;
  const MatX A = G.transpose() * W * G;
  const VecX b = G.transpose() * v;
  const double mu[2] = {mu0, mu1};

  Lcp lcp;
  lcp.M = MatX::Zero(8, 8);
  lcp.q = VecX::Zero(8);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) lcp.M.block(4 * i, 4 * j, 3, 3) = A.block(3 * i, 3 * j, 3, 3);
    lcp.q.segment(4 * i, 3) = b.segment(3 * i, 3);
    lcp.M(4 * i + 1, 4 * i + 3) = lcp.M(4 * i + 2, 4 * i + 3) = 1.0;   // E
    lcp.M(4 * i + 3, 4 * i) = mu[i];                                   // U
    lcp.M(4 * i + 3, 4 * i + 1) = lcp.M(4 * i + 3, 4 * i + 2) = -1.0;  // -E^T
  }
  lcp.block_starts = {0, 4};
  return lcp;
}

// Block PGS handles the zero-diagonal slip rows by solving each contact's block exactly; the
// answer is a verified solution and agrees with Lemke's on the whole problem. Both contacts are
// pushed in (p_n > 0); the slippery one (mu = 0.1) slides (s > 0) at the friction limit.
TEST(Pgs, BlocksWithAZeroDiagonalRowAreSolvedExactly) {
  const Lcp lcp = two_contact_problem(0.1, 2.0);
  ASSERT_EQ(lcp.M(3, 3), 0.0);
  ASSERT_EQ(lcp.M(7, 7), 0.0);
  const test::Run pgs = run("pgs", lcp);
  EXPECT_EQ(pgs.report.status, SolveStatus::Solved) << describe(pgs);
  EXPECT_TRUE(is_solution(lcp, pgs.z)) << describe(pgs);
  EXPECT_TRUE(report_matches(lcp, pgs.z, pgs.report));
  EXPECT_GT(pgs.z(0), 0.0);
  EXPECT_GT(pgs.z(4), 0.0);
  EXPECT_GT(pgs.z(3), 0.0);  // contact 0 slides
  EXPECT_NEAR(pgs.z(1) + pgs.z(2), 0.1 * pgs.z(0), 1e-8);

  const test::Run lemke = run("lemke", lcp);
  EXPECT_EQ(lemke.report.status, SolveStatus::Solved) << describe(lemke);
  EXPECT_TRUE(is_solution(lcp, lemke.z)) << describe(lemke);
  // The normal impulses are unique here (W positive definite, independent normals).
  EXPECT_NEAR(pgs.z(0), lemke.z(0), 1e-7);
  EXPECT_NEAR(pgs.z(4), lemke.z(4), 1e-7);
}

// Without the block structure a zero-diagonal row cannot be relaxed on its own: PGS must say so
// (not Solved, no exception, z finite), as must an invalid block structure.
TEST(Pgs, ZeroDiagonalRowWithoutABlockIsNotSolved) {
  Lcp lcp = two_contact_problem(0.1, 2.0);
  for (const std::vector<int>& starts : {std::vector<int>{}, std::vector<int>{1, 4},
                                         std::vector<int>{0, 4, 4}, std::vector<int>{0, 9}}) {
    lcp.block_starts = starts;
    test::Run r;
    EXPECT_NO_THROW(r = run("pgs", lcp)) << starts.size();
    EXPECT_NE(r.report.status, SolveStatus::Solved) << describe(r);
    EXPECT_EQ(r.z.size(), 8);
    EXPECT_TRUE(r.z.allFinite());
  }
}

}  // namespace
}  // namespace pegsim
