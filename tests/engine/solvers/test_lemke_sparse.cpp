// The sparse pivots of Lemke's tableau (lemke_tableau.hpp) against the dense tableau they
// replaced (dense_lemke_reference.hpp), on the contact LCPs of pour20's first steps: the
// Stewart–Trinkle problems (thesis (6.1)) of cubes landing in a box and on each other, with
// coplanar face contacts and seven friction directions, as degenerate as the pile gets later.
// The same pivot rule on the same problem must take the same path to the same answer: the
// sparse products skip exact zeros only, and the reference sums its products in the same
// order, so the two round alike.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <vector>

#include "dense_lemke_reference.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lemke.hpp"
#include "engine/solvers/lemke_revised.hpp"
#include "engine/solvers/lemke_tableau.hpp"
#include "io/scene.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

// The LCPs of pour20's steps 0..steps-1 with at least `min_rows` rows, as the simulator
// posed them (warm-started Lemke answering, as in a run).
std::vector<Lcp> pour20_problems(int steps, int min_rows) {
  // The lattice pour whose steps 49 and 52 once ended on false rays in double.
  const Scene scene =
      load_scene(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "pour20_lattice.json");
  Simulator sim(scene.model, scene.initial, scene.settings);
  std::vector<Lcp> problems;
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    if (r.lcp && r.problem_size >= min_rows) problems.push_back(*r.lcp);
  }
  return problems;
}

const std::vector<Lcp>& problems() {
  static const std::vector<Lcp> p = pour20_problems(50, 100);
  return p;
}

double tolerance(const Lcp& lcp) {
  return 1e-10 * (1.0 + lcp.q.cwiseAbs().maxCoeff());
}

// The basic z variables of Lemke's answer to the problem; false if it is not solved.
bool answer_basis(const Lcp& lcp, std::vector<int>& Z) {
  LemkeSolver solver;
  VecX z;
  if (!solver.solve(lcp, z, SolverOptions{}).solved()) return false;
  Z.clear();
  for (int i = 0; i < lcp.size(); ++i)
    if ((*solver.final_basis())[i]) Z.push_back(i);
  return true;
}

// q moved by a tenth of its size, as the next step moves it, for a warm start that pivots.
// Only the velocity rows move: the slip rows of (6.1), sigma = U p_n - E^T p_f (M_ii = 0),
// have q = 0 at every step. Moving those too (q_sigma < 0) poses a problem that is not a
// contact LCP and that Lemke's method cannot solve: on all 16 of these, the warm runs (fast
// path and dense tableau alike, pivot for pivot) and the cold long-double lexicographic run end
// on a secondary ray (problem 0's: one contact's slack s grows alone along its column E, where
// sigma's q < 0).
void move_q(Lcp& lcp) {
  const double scale = 0.1 * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  for (int i = 0; i < lcp.size(); ++i)
    if (m_entry(lcp, i, i) != 0.0) lcp.q(i) += scale * std::sin(1.0 + i);
}

// One run of both tableaus from the same start; the ends, pivot counts and answers must agree.
struct Compared {
  bool started = false;
  int pivots = 0;
  double z_difference = 0.0;
};

template <typename T, typename Start>
Compared compare_runs(const Lcp& lcp, typename LemkeTableau<T>::Rule rule, const Start& start,
                      const std::string& what) {
  using Sparse = LemkeTableau<T>;
  using Dense = test::DenseLemkeTableau<T>;
  Sparse sparse;
  Dense dense;
  sparse.bind(lcp, tolerance(lcp));
  dense.bind(lcp, tolerance(lcp));
  Compared c;
  const bool started = start(sparse);
  EXPECT_EQ(started, start(dense)) << what;
  if (!started) return c;
  SolveReport rs, rd;
  const auto end_sparse = sparse.run(rule, 20000, rs);
  const auto end_dense =
      dense.run(static_cast<typename Dense::Rule>(static_cast<int>(rule)), 20000, rd);
  EXPECT_EQ(static_cast<int>(end_sparse), static_cast<int>(end_dense)) << what;
  EXPECT_EQ(rs.iterations, rd.iterations) << what;
  VecX zs, zd;
  sparse.extract(zs);
  dense.extract(zd);
  c.started = true;
  c.pivots = rs.iterations;
  c.z_difference = (zs - zd).cwiseAbs().maxCoeff() / (1.0 + zd.cwiseAbs().maxCoeff());
  EXPECT_LE(c.z_difference, 1e-9) << what;
  if (end_dense == Dense::End::Solution) {
    EXPECT_TRUE(test::is_solution(lcp, zs)) << what;
  }
  return c;
}

// Cold starts (d = e) with Harris' and the lexicographic ratio test (Cottle–Pang–Stone §4.4,
// §4.9), in double: the runs LemkeSolver makes when a warm start fails.
TEST(LemkeSparse, ColdRunsMatchTheDenseTableauOnPour20) {
  ASSERT_GE(problems().size(), 15u);
  using Rule = LemkeTableau<double>::Rule;
  int pivots = 0, largest = 0;
  double worst = 0.0;
  for (std::size_t k = 0; k < problems().size(); ++k) {
    const Lcp& lcp = problems()[k];
    largest = std::max(largest, lcp.size());
    for (Rule rule : {Rule::Harris, Rule::Lexicographic}) {
      const Compared c = compare_runs<double>(
          lcp, rule,
          [](auto& t) {
            t.start_cold();
            return true;
          },
          "problem " + std::to_string(k) + " (n = " + std::to_string(lcp.size()) + ")");
      pivots += c.pivots;
      worst = std::max(worst, c.z_difference);
    }
  }
  std::cout << problems().size() << " problems up to n = " << largest << ", " << pivots
            << " pivots, largest relative difference in z " << worst << "\n";
}

// Lemke from a complementary basis (the warm start, d = B e): the basis of each problem's
// answer, for the problem with q moved (as the next step moves it), so that the run pivots
// from a B^-1 with dense columns.
TEST(LemkeSparse, WarmRunsMatchTheDenseTableauOnPour20) {
  using Rule = LemkeTableau<double>::Rule;
  double worst = 0.0;
  int pivots = 0, runs = 0;
  for (std::size_t k = 0; k < problems().size(); ++k) {
    Lcp lcp = problems()[k];
    std::vector<int> Z;
    ASSERT_TRUE(answer_basis(lcp, Z)) << k;
    move_q(lcp);
    const Compared c = compare_runs<double>(
        lcp, Rule::Harris, [&](auto& t) { return t.start_from_basis(Z); },
        "problem " + std::to_string(k));
    runs += c.started;
    pivots += c.pivots;
    worst = std::max(worst, c.z_difference);
  }
  // A basis whose z0 ended basic at zero level is not complementary; the others start.
  EXPECT_GE(2 * runs, static_cast<int>(problems().size()));
  EXPECT_GT(pivots, 0);
  std::cout << runs << " runs, " << pivots
            << " pivots from the answers' bases, largest relative difference in z " << worst
            << "\n";
}

// The last word of LemkeSolver, the lexicographic run in long double, on the largest problem.
TEST(LemkeSparse, LongDoubleRunMatchesTheDenseTableau) {
  using Rule = LemkeTableau<long double>::Rule;
  const std::size_t count = problems().size();
  for (std::size_t k = count - 1; k < count; ++k)
    compare_runs<long double>(
        problems()[k], Rule::Lexicographic,
        [](auto& t) {
          t.start_cold();
          return true;
        },
        "problem " + std::to_string(k));
}

// The fast path of LemkeSolver (lemke_revised.hpp, sparse LU of the basis with eta updates) from
// the cold start d = e (Cottle–Pang–Stone Algorithm 4.4.5): every run it ends on a solution must
// solve the LCP to the tests' accuracy; a run it does not finish is handed to the dense tableau,
// so only the count it finishes by itself is a matter of speed.
TEST(LemkeSparse, FastPathColdAnswersSolveThePour20Problems) {
  int finished = 0, pivots = 0, refactorizations = 0;
  LemkeRevised fast;
  for (std::size_t k = 0; k < problems().size(); ++k) {
    const Lcp& lcp = problems()[k];
    fast.bind(lcp, tolerance(lcp));
    ASSERT_TRUE(fast.start({})) << k;
    SolveReport report;
    if (fast.run(20000, report) != LemkeRevised::End::Solution) continue;
    VecX z;
    fast.extract(z);
    EXPECT_TRUE(test::is_solution(lcp, z)) << "problem " << k;
    EXPECT_LE(natural_residual(lcp, z), tolerance(lcp)) << "problem " << k;
    ++finished;
    pivots += report.iterations;
    refactorizations += fast.counts().refactorizations;
  }
  std::cout << "fast path, cold: " << finished << " of " << problems().size()
            << " problems finished, " << pivots << " pivots, " << refactorizations
            << " factorizations\n";
  EXPECT_GE(4 * finished, 3 * static_cast<int>(problems().size()));
}

// The pivot limit on a problem of the fast path: each covering vector's cold run has the limit
// of its own (pile80's 4000-row problems took the whole shared budget in the first run), and
// the tableaus, which share it, are not run once it is spent.
TEST(LemkeSparse, EachCoveringVectorGetsThePivotLimitOfItsOwn) {
  const Lcp* large = nullptr;
  for (const Lcp& lcp : problems())
    if (lcp.size() >= 400 && (!large || lcp.size() > large->size())) large = &lcp;
  ASSERT_NE(large, nullptr);
  SolverOptions options;
  options.max_iterations = 20;  // fewer than any cold run of these problems takes
  LemkeSolver solver;
  VecX z;
  const SolveReport r = solver.solve(*large, z, options);
  EXPECT_EQ(r.status, SolveStatus::MaxIterations) << r.message;
  EXPECT_EQ(r.iterations, 3 * options.max_iterations);  // Slip, Unit, Diagonal; no tableau
  EXPECT_EQ(r.message, "pivot limit 20 reached");
}

// A run that stops with z0 basic at z0 |d| <= tolerance answers with a residual of about the
// tolerance, and the next step's warm basis then misses by as much; LemkeRevised::drop_z0 leaves
// the complementary basis, whose answer the next step's problem, moved a little, still accepts
// as it is. On the resting pile of pour20 (tests/data/pour20_pile.json, 900-row LCPs), 40 steps:
// 22 take no pivot and 700 pivots in all (friction cones turned from a fixed tangent: 16 and
// 870; with z0 left basic, none and 2310).
TEST(LemkeSparse, WarmBasisOfARestingPileOftenSolvesTheNextStepAsItIs) {
  Scene scene = load_scene(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "pour20_pile.json");
  scene.settings.solver = "lemke";
  scene.settings.fallbacks.clear();
  Simulator sim(scene.model, scene.initial, scene.settings);
  int no_pivot = 0, pivots = 0;
  for (int k = 0; k < 40; ++k) {
    const StepReport& r = sim.step();
    ASSERT_GE(r.problem_size, 400) << "step " << k << " is not on the fast path";
    ASSERT_TRUE(r.solve.solved()) << "step " << k << ": " << r.solve.message;
    EXPECT_TRUE(test::is_solution(*r.lcp, *r.solution)) << "step " << k;
    no_pivot += r.solve.iterations == 0;
    pivots += r.solve.iterations;
  }
  std::cout << no_pivot << " of 40 steps without a pivot, " << pivots << " pivots\n";
  EXPECT_GE(no_pivot, 8);
}

// The fast path from a warm basis (Lemke from a complementary basis B with covering vector
// d = B e, Cottle–Pang–Stone Algorithm 4.4.5): each answer's basis, for the problem with q moved
// as in WarmRunsMatchTheDenseTableauOnPour20. The basis is factored sparsely (not inverted
// densely); every run must end on a solution to the tolerance, and take the dense tableau's
// path from the same start: the same end after the same number of pivots. A fast-path ray the
// dense tableau solves would be a bug of the fast path (it would cost a dense solve per step).
TEST(LemkeSparse, FastPathWarmAnswersSolveThePour20Problems) {
  int finished = 0, started = 0, pivots = 0, rays_dense_solves = 0;
  LemkeRevised fast;
  for (std::size_t k = 0; k < problems().size(); ++k) {
    Lcp lcp = problems()[k];
    std::vector<int> Z;
    ASSERT_TRUE(answer_basis(lcp, Z)) << k;
    // The basis of the unmoved problem, factored sparsely, solves it as it is (a basis whose z0
    // ended basic at zero level is not complementary, and may be singular).
    fast.bind(lcp, tolerance(lcp));
    if (!fast.start(Z)) continue;
    VecX z;
    fast.extract(z);
    EXPECT_LE(natural_residual(lcp, z), tolerance(lcp)) << "problem " << k;
    move_q(lcp);
    fast.bind(lcp, tolerance(lcp));
    if (!fast.start(Z)) continue;
    ++started;
    SolveReport report, dense_report;
    const bool solved = fast.run(20000, report) == LemkeRevised::End::Solution;
    LemkeTableau<double> dense;
    dense.bind(lcp, tolerance(lcp));
    ASSERT_TRUE(dense.start_from_basis(Z)) << "problem " << k;
    using Dense = LemkeTableau<double>;
    const bool dense_solved =
        dense.run(Dense::Rule::Harris, 20000, dense_report) == Dense::End::Solution;
    rays_dense_solves += !solved && dense_solved;
    EXPECT_EQ(report.iterations, dense_report.iterations) << "problem " << k;
    if (!solved) continue;
    fast.extract(z);
    EXPECT_TRUE(test::is_solution(lcp, z)) << "problem " << k;
    EXPECT_LE(natural_residual(lcp, z), tolerance(lcp)) << "problem " << k;
    ++finished;
    pivots += report.iterations;
  }
  std::cout << "fast path, warm: " << finished << " of " << started << " started runs finished, "
            << pivots << " pivots\n";
  EXPECT_GE(2 * started, static_cast<int>(problems().size()));
  EXPECT_EQ(rays_dense_solves, 0);
  EXPECT_EQ(finished, started);
}

// LemkeSolver with the fast path first, warm-started step to step as the simulator does: every
// problem is solved, and the answer is the one the solver reports.
TEST(LemkeSparse, SolverWarmStartedAlongPour20SolvesEveryProblem) {
  LemkeSolver solver;
  VecX z;
  std::vector<char> basis;
  for (std::size_t k = 0; k < problems().size(); ++k) {
    const Lcp& lcp = problems()[k];
    SolverOptions options;
    const bool same_size = z.size() == lcp.size();
    options.warm_start = same_size;
    options.warm_basis = same_size ? &basis : nullptr;
    if (!same_size) z.setZero(lcp.size());
    const SolveReport report = solver.solve(lcp, z, options);
    ASSERT_TRUE(report.solved()) << "problem " << k << ": " << report.message;
    EXPECT_TRUE(test::is_solution(lcp, z)) << "problem " << k;
    basis = *solver.final_basis();
  }
}

// With a body form, bind reads only the rows of blocks that share a body with the column
// (LcpBodyForm's contract); without it, all of M. Both must bind the same nonzeros in the same
// order: the same runs, pivot for pivot, to bit-identical answers.
TEST(LemkeSparse, BindByBodiesReadsWhatTheFullScanReads) {
  int compared = 0;
  for (std::size_t k = 0; k < problems().size(); ++k) {
    const Lcp& lcp = problems()[k];
    ASSERT_FALSE(lcp.body_form.empty()) << k;
    Lcp plain = lcp;
    plain.body_form.clear();
    LemkeRevised by_bodies, full;
    ASSERT_TRUE(by_bodies.bind(lcp, tolerance(lcp)));
    ASSERT_TRUE(full.bind(plain, tolerance(lcp)));
    ASSERT_TRUE(by_bodies.start({}));
    ASSERT_TRUE(full.start({}));
    SolveReport a, b;
    const auto end_a = by_bodies.run(20000, a), end_b = full.run(20000, b);
    EXPECT_EQ(static_cast<int>(end_a), static_cast<int>(end_b)) << k;
    EXPECT_EQ(a.iterations, b.iterations) << k;
    VecX za, zb;
    by_bodies.extract(za);
    full.extract(zb);
    EXPECT_EQ(za, zb) << k;
    EXPECT_EQ(by_bodies.residual(za), full.residual(zb)) << k;
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

// The fast path checks M's entries as it binds the problem (LemkeSolver skips the separate
// pass over M from kFastPathRows rows on): a NaN or an infinity in M is still refused.
TEST(LemkeSparse, LargeProblemWithANonFiniteMIsRefused) {
  std::mt19937 rng(3);
  const Lcp base = test::random_spd(450, rng);
  for (double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Lcp lcp = base;
    lcp.M(417, 12) = bad;
    LemkeSolver solver;
    VecX z;
    const SolveReport report = solver.solve(lcp, z, SolverOptions{});
    EXPECT_EQ(report.status, SolveStatus::NumericalFailure) << bad;
    EXPECT_NE(report.message.find("non-finite"), std::string::npos) << report.message;
    EXPECT_EQ(z.size(), 450);
  }
}

}  // namespace
}  // namespace pegsim
