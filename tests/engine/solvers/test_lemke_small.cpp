// Lemke's method on fixed-size arrays for tiny problems (lemke_small.hpp): the same pivots and
// answers as the general tableau's cold Harris run, verified solutions, and the general runs
// behind it when it does not answer.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/solvers/lemke.hpp"
#include "engine/solvers/lemke_small.hpp"
#include "engine/solvers/lemke_tableau.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

using test::is_solution;
using test::siconos;

double tolerance_of(const Lcp& lcp) {
  return SolverOptions{}.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
}

// One cold run of LemkeSmall at the solver's tolerance.
struct SmallRun {
  bool solved = false, ray = false, clear = false;
  VecX z;
  double residual = -1.0;
  std::vector<char> basis;
  SolveReport report;
};
SmallRun run_small(const Lcp& lcp) {
  SmallRun r;
  LemkeSmall small;
  if (!small.bind(lcp)) {
    ADD_FAILURE() << "LemkeSmall refused the problem";
    return r;
  }
  r.solved = small.solve(tolerance_of(lcp), 10000, kNoDeadline, r.z, r.residual, r.basis, r.report);
  r.ray = small.ended_on_ray();
  r.clear = small.ray_is_clear();
  return r;
}

// Pivot for pivot the cold run of LemkeTableau<double> (d = e, Harris' ratio test): the same
// number of pivots and the same z to rounding, each a verified solution.
TEST(LemkeSmall, FollowsTheTableausColdRunOnEveryTinySiconosProblem) {
  int tiny = 0;
  for (const std::string& name : test::kSolvableSiconos) {
    const Lcp lcp = siconos(name);
    if (lcp.size() > LemkeSmall::kMaxRows) continue;
    ++tiny;
    const double tolerance = tolerance_of(lcp);

    const SmallRun small = run_small(lcp);
    ASSERT_TRUE(small.solved) << name;
    const VecX& z = small.z;
    const double residual = small.residual;
    const std::vector<char>& basis = small.basis;
    const SolveReport& small_report = small.report;
    EXPECT_TRUE(is_solution(lcp, z)) << name;
    EXPECT_LE(residual, tolerance) << name;
    EXPECT_NEAR(residual, natural_residual(lcp, z), 1e-12 * (1.0 + lcp.q.cwiseAbs().maxCoeff()))
        << name;
    ASSERT_EQ(basis.size(), static_cast<std::size_t>(lcp.size())) << name;
    for (int i = 0; i < lcp.size(); ++i)
      EXPECT_TRUE(z(i) == 0.0 || basis[i]) << name << ": z_" << i << " > 0 but not basic";

    LemkeTableau<double> tableau;
    tableau.bind(lcp, tolerance);
    tableau.start_cold();
    SolveReport tableau_report;
    ASSERT_EQ(tableau.run(LemkeTableau<double>::Rule::Harris, 10000, tableau_report),
              LemkeTableau<double>::End::Solution)
        << name;
    VecX expected;
    tableau.extract(expected);
    EXPECT_EQ(small_report.iterations, tableau_report.iterations) << name;
    EXPECT_EQ(small_report.residual_history.size(), tableau_report.residual_history.size()) << name;
    EXPECT_LE((z - expected).cwiseAbs().maxCoeff(), 1e-12 * (1.0 + expected.cwiseAbs().maxCoeff()))
        << name;
  }
  EXPECT_EQ(tiny, 16);
}

// Random P-matrix problems of 1 to kMaxRows rows (unique solution): always answered, and
// LemkeSolver's report is the small run's.
TEST(LemkeSmall, SolvesRandomTinyPMatrixProblems) {
  std::mt19937 rng(20261130);
  for (int n = 1; n <= LemkeSmall::kMaxRows; ++n)
    for (const bool symmetric : {true, false}) {
      const Lcp lcp = symmetric ? test::random_spd(n, rng) : test::random_dominant(n, rng);
      const std::string what = (symmetric ? "spd n = " : "dominant n = ") + std::to_string(n);
      const SmallRun small = run_small(lcp);
      EXPECT_TRUE(small.solved) << what;
      EXPECT_TRUE(is_solution(lcp, small.z)) << what;

      const test::Run r = test::run("lemke", lcp);
      EXPECT_EQ(r.report.status, SolveStatus::Solved) << what;
      EXPECT_EQ(r.report.iterations, small.report.iterations) << what;
      EXPECT_EQ(r.z, small.z) << what;
    }
}

// The small run of a problem without an answer from Lemke's method: it ends on a ray (clear or
// not as `clear`), and so does the long double tableau's lexicographic run, whose pivots are
// returned.
int expect_rays(const Lcp& lcp, const SmallRun& small, bool clear, const char* what) {
  EXPECT_FALSE(small.solved) << what;
  EXPECT_TRUE(small.ray) << what;
  EXPECT_EQ(small.clear, clear) << what;
  LemkeTableau<long double> exact;
  exact.bind(lcp, tolerance_of(lcp));
  exact.start_cold();
  SolveReport exact_report;
  EXPECT_EQ(exact.run(LemkeTableau<long double>::Rule::Lexicographic, 10000, exact_report),
            LemkeTableau<long double>::End::Ray)
      << what;
  return exact_report.iterations;
}

// A problem Lemke's method cannot solve ends the small run on a ray (no answer). When every
// choice on the way held by a margin far beyond rounding (Siconos' two such problems: distinct
// ratios, a column of clear negatives at the ray) LemkeSolver says Unsolvable at once, with the
// small run's pivots; the long double tableau's lexicographic rule, run here, agrees.
TEST(LemkeSmall, AClearRayIsTheAnswer) {
  for (const char* name : {"lcp_Pang_isolated_sol_perturbed", "lcp_CPS_3"}) {
    const Lcp lcp = siconos(name);
    const SmallRun small = run_small(lcp);
    EXPECT_EQ(expect_rays(lcp, small, true, name), small.report.iterations) << name;
    const test::Run r = test::run("lemke", lcp);
    EXPECT_EQ(r.report.status, SolveStatus::Unsolvable) << name;
    EXPECT_EQ(r.report.iterations, small.report.iterations) << name;
    EXPECT_EQ(r.z, VecX::Zero(lcp.size())) << name;
  }
  // A solved problem's run does not end on a ray.
  const SmallRun solved = run_small(siconos("lcp_CPS_1"));
  EXPECT_TRUE(solved.solved);
  EXPECT_FALSE(solved.ray);
}

// A ray the small run reaches by a choice that is not clear of rounding is left to the long
// double run, which proves it alone (the double tableau's runs would repeat the small one's
// path): LemkeSolver's pivots are both runs'.
void expect_left_to_the_long_double_run(const Lcp& lcp, const char* what) {
  const SmallRun small = run_small(lcp);
  const int exact_pivots = expect_rays(lcp, small, false, what);
  const test::Run r = test::run("lemke", lcp);
  EXPECT_EQ(r.report.status, SolveStatus::Unsolvable) << what;
  EXPECT_EQ(r.report.iterations, small.report.iterations + exact_pivots) << what;
}

// w = diag(0, 1, 1) z - e has no solution (w_0 = -1); after z0 enters, rows 0 and 1 both block
// z_2's column at ratio 0: a tie.
TEST(LemkeSmall, LeavesARayAfterATieToTheLongDoubleRun) {
  Lcp lcp;
  lcp.M = MatX::Zero(3, 3);
  lcp.M(1, 1) = lcp.M(2, 2) = 1.0;
  lcp.q = -VecX::Ones(3);
  expect_left_to_the_long_double_run(lcp, "tie");
}

// w_0 = -1e-7 z_1 - 1 < 0: no solution. Every ratio is unique, but z_1 enters on the pivot 1e-7,
// so B^-1 holds 1e7 at the ray, beyond kGrowth: rounding is no longer far below the margins.
TEST(LemkeSmall, LeavesARayThroughALargeInverseToTheLongDoubleRun) {
  Lcp lcp;
  lcp.M = MatX::Zero(2, 2);
  lcp.M(0, 1) = -1e-7;
  lcp.M(1, 0) = -1.0;
  lcp.q = Vec2(-1.0, -2.0);
  expect_left_to_the_long_double_run(lcp, "large inverse");
}

// A non-finite entry of a tiny problem is refused with lcp_defect's message, as for any size.
TEST(LemkeSmall, ANonFiniteEntryIsRefused) {
  Lcp lcp = siconos("lcp_CPS_1");
  LemkeSmall small;
  lcp.M(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(small.bind(lcp));
  const test::Run r = test::run("lemke", lcp);
  EXPECT_EQ(r.report.status, SolveStatus::NumericalFailure);
  EXPECT_EQ(r.report.message, std::string(lcp_defect(lcp)));
  lcp.M(1, 0) = 0.0;
  lcp.q(0) = std::numeric_limits<double>::infinity();
  EXPECT_EQ(test::run("lemke", lcp).report.status, SolveStatus::NumericalFailure);
}

// SolverOptions::timed: a solve reads the clock for its report's seconds only when asked.
TEST(LemkeSmall, AnUntimedSolveReportsNoSeconds) {
  const Lcp lcp = siconos("lcp_exp_murty2");
  SolverOptions options;
  options.timed = false;
  EXPECT_EQ(test::run("lemke", lcp, options).report.seconds, 0.0);
  options.timed = true;
  EXPECT_GT(test::run("lemke", lcp, options).report.seconds, 0.0);
}

}  // namespace
}  // namespace pegsim
