// The pluggable solver interface (solver.hpp): registry, status names, and hard input that must
// come back as a status, never as an exception or garbage.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "lcp_testing.hpp"

namespace pegsim {
namespace {

using test::describe;
using test::run;

// Every listed name makes a solver of that name; an unknown name gives nullptr.
TEST(SolverInterface, RegistryMakesEveryListedSolver) {
  const std::vector<std::string> names = solver_names();
  EXPECT_EQ(names, (std::vector<std::string>{"lemke", "pgs", "pgs-contact", "nncg", "psor",
                                             "projected-jacobi", "fixed-point", "interior-point",
                                             "minmap-newton", "fischer-newton", "path"}));
  for (const std::string& name : names) {
    const auto s = make_solver(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_EQ(s->name(), name);
  }
  EXPECT_EQ(make_solver("simplex"), nullptr);
  EXPECT_EQ(make_solver(""), nullptr);
}

// Each status has its own non-empty name.
TEST(SolverInterface, StatusNamesAreDistinct) {
  std::set<std::string> seen;
  for (SolveStatus s : {SolveStatus::Solved, SolveStatus::MaxIterations, SolveStatus::Unsolvable,
                        SolveStatus::NumericalFailure, SolveStatus::TimeBudget}) {
    const std::string name = to_string(s);
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(seen.insert(name).second) << name;
  }
}

// A deadline already past (SolverOptions::deadline): every solver stops at its first check with
// TimeBudget, an iterate of the problem's size that is finite and honestly reported; a deadline
// far ahead changes nothing, bit for bit (the solver never reads the clock's answer otherwise).
TEST(SolverInterface, ADeadlineStopsEverySolverWithItsBestIterate) {
  std::mt19937 rng(7);
  const Lcp lcp = test::random_spd(40, rng);
  for (const std::string& solver : solver_names()) {
    SolverOptions past;
    past.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    const test::Run stopped = run(solver, lcp, past);
    EXPECT_EQ(stopped.report.status, SolveStatus::TimeBudget)
        << solver << ": " << describe(stopped);
    EXPECT_LE(stopped.report.iterations, 2) << solver;
    EXPECT_NE(stopped.report.message.find("time budget"), std::string::npos) << solver;
    ASSERT_EQ(stopped.z.size(), lcp.size()) << solver;
    EXPECT_TRUE(stopped.z.allFinite()) << solver;
    EXPECT_TRUE(test::report_matches(lcp, stopped.z, stopped.report)) << solver;

    SolverOptions ahead;
    ahead.deadline = std::chrono::steady_clock::now() + std::chrono::hours(1);
    const test::Run unlimited = run(solver, lcp);
    const test::Run budgeted = run(solver, lcp, ahead);
    EXPECT_EQ(budgeted.report.status, unlimited.report.status) << solver;
    EXPECT_EQ(budgeted.report.iterations, unlimited.report.iterations) << solver;
    EXPECT_EQ(budgeted.z, unlimited.z) << solver;
  }
}

// SolverOptions::history off: every solver keeps no residual per iteration and answers as it
// does with it, bit for bit (status, iterations, z, final residual), on a problem of the tiny
// Lemke's size and on a larger one.
TEST(SolverInterface, WithoutHistoryEverySolverAnswersTheSame) {
  std::mt19937 rng(5);
  for (const int n : {3, 40}) {
    const Lcp lcp = test::random_spd(n, rng);
    for (const std::string& solver : solver_names()) {
      const test::Run kept = run(solver, lcp);
      SolverOptions options;
      options.history = false;
      const test::Run bare = run(solver, lcp, options);
      EXPECT_FALSE(kept.report.residual_history.empty()) << solver << " n=" << n;
      EXPECT_TRUE(bare.report.residual_history.empty()) << solver << " n=" << n;
      EXPECT_EQ(bare.report.status, kept.report.status) << solver << " n=" << n;
      EXPECT_EQ(bare.report.iterations, kept.report.iterations) << solver << " n=" << n;
      EXPECT_EQ(bare.report.residual, kept.report.residual) << solver << " n=" << n;
      EXPECT_EQ(bare.z, kept.z) << solver << " n=" << n;
    }
  }
}

// Lemke past its deadline hands back the warm start it was given (its intermediate bases carry
// the artificial z0 and answer nothing): the previous step's impulses.
TEST(SolverInterface, LemkePastItsDeadlineReturnsTheWarmStart) {
  std::mt19937 rng(11);
  const Lcp lcp = test::random_spd(40, rng);
  SolverOptions options;
  options.warm_start = true;
  options.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const VecX start = VecX::Constant(lcp.size(), 0.25);
  const test::Run r = run("lemke", lcp, options, start);
  EXPECT_EQ(r.report.status, SolveStatus::TimeBudget) << describe(r);
  EXPECT_EQ(r.z, start);
  EXPECT_EQ(r.report.residual, natural_residual(lcp, start));
}

// Non-finite data (NaN in q, inf in q, NaN in M): no exception, never Solved, and z stays finite
// unless the status is NumericalFailure; z always has the problem's size.
TEST(SolverInterface, NonFiniteDataIsReportedNotSolved) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::mt19937 rng(1);
  const Lcp base = test::random_spd(6, rng);
  for (const std::string& solver : solver_names())
    for (int variant = 0; variant < 3; ++variant) {
      Lcp lcp = base;
      if (variant == 0) lcp.q(2) = nan;
      if (variant == 1) lcp.q(0) = -inf;
      if (variant == 2) lcp.M(3, 1) = nan;
      test::Run r;
      EXPECT_NO_THROW(r = run(solver, lcp)) << solver << " variant " << variant;
      EXPECT_NE(r.report.status, SolveStatus::Solved) << solver << " variant " << variant;
      EXPECT_TRUE(r.z.allFinite() || r.report.status == SolveStatus::NumericalFailure)
          << solver << " variant " << variant << ": " << describe(r);
      EXPECT_EQ(r.z.size(), 6) << solver << " variant " << variant;
      EXPECT_FALSE(r.report.message.empty()) << solver << " variant " << variant;
    }
}

// A warm start holding NaN is ignored rather than propagated: the solve still succeeds.
TEST(SolverInterface, NonFiniteWarmStartIsIgnored) {
  std::mt19937 rng(2);
  const Lcp lcp = test::random_spd(6, rng);
  SolverOptions options;
  options.warm_start = true;
  for (const std::string& solver : solver_names()) {
    VecX guess = VecX::Ones(6);
    guess(4) = std::numeric_limits<double>::quiet_NaN();
    const test::Run r = run(solver, lcp, options, guess);
    EXPECT_EQ(r.report.status, SolveStatus::Solved) << solver << ": " << describe(r);
    EXPECT_TRUE(test::is_solution(lcp, r.z)) << solver;
  }
}

// M whose size does not match q: a status, not an exception or an Eigen assertion.
TEST(SolverInterface, MismatchedSizesAreReported) {
  Lcp lcp;
  lcp.M = MatX::Identity(3, 3);
  lcp.q = -VecX::Ones(4);
  for (const std::string& solver : solver_names()) {
    test::Run r;
    EXPECT_NO_THROW(r = run(solver, lcp)) << solver;
    EXPECT_EQ(r.report.status, SolveStatus::NumericalFailure) << solver;
    EXPECT_EQ(r.z.size(), 4) << solver;
  }
}

}  // namespace
}  // namespace pegsim
