// Lemke's method: the order of runs on the tableau (lemke_tableau.hpp) and the warm start.
#include "engine/solvers/lemke.hpp"

#include <Eigen/LU>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

// Built in one allocation: on a tiny problem the message is a fair share of the solve.
std::string ray_message(const SolveReport& report) {
  std::string message;
  message.reserve(96);
  message += "secondary ray after ";
  message += std::to_string(report.iterations);
  message += " pivots: Lemke's method cannot reach a solution of this problem";
  return message;
}

}  // namespace

SolveReport LemkeSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = "lemke";
  const int n = lcp.size();
  basis_.clear();
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };
  // An answer comes with its residual: the fast path's computed over M's nonzeros, the
  // tableau's by accept() (a warm basis taken as it is: by try_basis).
  auto finish_answer = [&](Answer answer) {
    return finish_report(std::move(report), SolveStatus::Solved, "",
                         answer == Answer::Fast ? fast_residual_ : accepted_residual_, t0);
  };

  // The fast path reads every entry of M as it binds the problem, and checks them there: one
  // pass over the dense M instead of two (on pour20's 900-row problems, 6.5 MB each).
  // So does the copy of a tiny problem into LemkeSmall's arrays.
  const bool sparse = n >= kFastPathRows;
  const bool tiny = n <= LemkeSmall::kMaxRows;
  if (const char* defect = sparse || tiny ? lcp_shape_defect(lcp) : lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (tiny && !small_.bind(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, lcp_defect(lcp));
  }
  const double q_norm = n ? lcp.q.cwiseAbs().maxCoeff() : 0.0;
  tolerance_ = options.tolerance * (1.0 + q_norm);
  if (sparse && !revised_.bind(lcp, tolerance_)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, "M or q has a non-finite entry");
  }
  budget_ = options.max_iterations;
  dense_bound_ = false;
  deadline_ = options.deadline;
  revised_.set_deadline(deadline_);
  fast_.set_deadline(deadline_);
  exact_.set_deadline(deadline_);
  // Past the deadline the best z at hand is the warm start (the previous step's impulses):
  // Lemke's intermediate bases carry z0 and answer nothing.
  const bool warm = options.warm_start && z.size() == n && z.allFinite();
  auto timed_out = [&] {
    if (warm)
      z = start_;
    else
      z.setZero(n);
    return finish(SolveStatus::TimeBudget, time_budget_message(report.iterations));
  };

  if (warm) {
    start_ = z;
    const Answer answer = warm_start(lcp, options, z, report);
    if (answer != Answer::None) return finish_answer(answer);
    if (past(deadline_)) return timed_out();
  }
  // z = 0 solves the problem when q >= 0 (to the tolerance: the residual is then max(-q_i)).
  z.setZero(n);
  if (n == 0 || lcp.q.minCoeff() >= -tolerance_) return finish(SolveStatus::Solved, "");
  if (tiny) {
    double residual = 0.0;
    if (small_.solve(tolerance_, budget_, deadline_, z, residual, basis_, report))
      return finish_report(std::move(report), SolveStatus::Solved, "", residual, t0);
    z.setZero(n);
    if (past(deadline_)) return timed_out();
  }
  // After the tiny run's ray the double tableau would repeat it (the same Harris rule from the
  // same start) and its lexicographic run is the long double one's, less exact: a ray is
  // proved or refuted there alone (Siconos' CPS_3: 8000 instructions a solve, 3300 of them
  // the double runs) - unless every choice on the way to it was clear of rounding, when the
  // long double run would take the same pivots to the same ray (lemke_small.hpp).
  if (tiny && small_.ray_is_clear()) return finish(SolveStatus::Unsolvable, ray_message(report));
  if (!(tiny && small_.ended_on_ray())) {
    const Answer cold = cold_start(lcp, z, report);
    if (cold != Answer::None) return finish_answer(cold);
    if (past(deadline_)) return timed_out();
  }
  const auto [status, message] = exact_lexicographic(lcp, z, report);
  if (status != SolveStatus::Solved && past(deadline_)) return timed_out();
  return finish(status, message);
}

// The dense tableau is bound when a run needs it (its bind reads all of M): the fast path
// answers most large problems alone.
LemkeTableau<double>& LemkeSolver::dense(const Lcp& lcp) {
  if (!dense_bound_) fast_.bind(lcp, tolerance_);
  dense_bound_ = true;
  return fast_;
}

template <typename T>
bool LemkeSolver::accept(LemkeTableau<T>& tableau, VecX& z) {
  accepted_residual_ = tableau.extract(z);
  if (accepted_residual_ > tolerance_) return false;
  tableau.basic_z(basis_);
  return true;
}

// A run can end on a complementary basis whose answer misses the tolerance: the ratio test
// ignores column entries below kPivot of the largest, so a basic w_i may drift a little
// below zero (polygon_pour under PEG, seed 6, h = 0.01, step 355: w_i = -1.9e-9 after 1090
// pivots). Lemke again from that basis, with a fresh B^-1 and d = B e, pivots the stray
// variable back (there: 2 pivots, residual 2.8e-15).
template <typename T>
bool LemkeSolver::restart_from(const Lcp& lcp, LemkeTableau<T>& tableau, VecX& z,
                               SolveReport& report) {
  const int n = lcp.size();
  tableau.basic_z(basis_);
  Z_.clear();
  for (int i = 0; i < n; ++i)
    if (basis_[i]) Z_.push_back(i);
  basis_.clear();
  return dense(lcp).start_from_basis(Z_) &&
         fast_.run(LemkeTableau<double>::Rule::Harris,
                   std::min(budget_, report.iterations + n / 2 + 20),
                   report) == LemkeTableau<double>::End::Solution &&
         accept(fast_, z);
}

// Whether a run of the dense tableau in double ended on an answer within the tolerance (after
// a restart from its basis if needed).
bool LemkeSolver::dense_solved(const Lcp& lcp, LemkeTableau<double>::End end, VecX& z,
                               SolveReport& report) {
  return end == LemkeTableau<double>::End::Solution &&
         (accept(fast_, z) || restart_from(lcp, fast_, z, report));
}

// 1. Warm start: the previous basis as it is, else the method from that basis. The basis, when
// known, is what to start from: the support {z_i > 0} of a pile's answer alone makes a singular
// M_ZZ (pour20: the sticking contacts' slip variables are basic at zero).
LemkeSolver::Answer LemkeSolver::warm_start(const Lcp& lcp, const SolverOptions& options, VecX& z,
                                            SolveReport& report) {
  using Fast = LemkeTableau<double>;
  const int n = lcp.size();
  const std::vector<char>* was_basic =
      options.warm_basis && options.warm_basis->size() == static_cast<std::size_t>(n)
          ? options.warm_basis
          : nullptr;
  Z_.clear();
  for (int i = 0; i < n; ++i)
    if (z(i) > 0.0 || (was_basic && (*was_basic)[i])) Z_.push_back(i);
  if (Z_.empty()) return Answer::None;
  bool ray = false;
  const int cap = std::min(budget_, report.iterations + n / 2 + 20);
  if (fast_solved_from(lcp, Z_, cap, z, report, &ray)) return Answer::Fast;
  // A warm run the fast path took to its cap has wandered; the tableau, under the same Harris
  // rule, would wander along at n times the cost a pivot: the cold start follows at once.
  if (n >= kFastPathRows && report.iterations >= cap) return Answer::None;
  // A warm run the fast path ended on a ray, the dense tableau would repeat pivot for pivot
  // (test FastPathWarmAnswersSolveThePour20Problems): the cold start follows at once. Such a
  // ray proves nothing about the LCP: the covering vector d = B e has negative entries, and
  // Lemke's ray argument (Cottle–Pang–Stone §4.4) needs d > 0. pour20's pile meets one on a
  // few steps in a hundred (along the ray z0 and z grow without bound, d^T z < 0).
  if (ray || past(deadline_)) return Answer::None;
  if (try_basis(lcp, Z_, z, tolerance_)) {
    basis_.assign(n, 0);
    for (int i : Z_) basis_[i] = 1;
    return Answer::Dense;
  }
  // A warm run that is not done after n/2 pivots is no cheaper than a cold one (pour20: warm
  // runs either finish in about n/4 pivots or wander for thousands).
  if (dense(lcp).start_from_basis(Z_) &&
      dense_solved(
          lcp,
          fast_.run(Fast::Rule::Harris, std::min(budget_, report.iterations + n / 2 + 20), report),
          z, report))
    return Answer::Dense;
  return Answer::None;
}

// Runs 2 and 3 in double, each of at most 4 n + 100 pivots. 2: the classical method with
// Harris' ratio test: on the degenerate problems of contact (coplanar contacts, friction
// directions spanning one plane) it keeps the pivots large. 3: the lexicographic rule, which
// cannot cycle. On large problems the fast path goes first, from the covering vectors of
// lemke_cover.hpp in turn: different paths, each ten times cheaper a pivot than the tableau
// (pile40's 300 steps with Slip and Unit: every solve answered, 35 s, against six left to PGS
// and 118 s with Slip alone, 244 s with d = e alone).
LemkeSolver::Answer LemkeSolver::cold_start(const Lcp& lcp, VecX& z, SolveReport& report) {
  using Fast = LemkeTableau<double>;
  const int quick = std::min(budget_, 4 * lcp.size() + 100);
  Z_.clear();
  // A cover's run that answers takes up to ~n pivots (pile40, pile80; n + 100 each left one of
  // pile40's solves to PGS): each run gets 2 n + 100 of its own (at most the budget), so that a
  // run that wanders cannot take the others' turn. On pile80's 4000-4500-row problems the
  // budget of 10 000 pivots shared would let the first cover take it all.
  const int per_cover = std::min(budget_, 2 * lcp.size() + 100);
  for (Cover cover : {Cover::Slip, Cover::Unit, Cover::Diagonal}) {
    if (fast_solved_from(lcp, Z_, report.iterations + per_cover, z, report, nullptr, cover))
      return Answer::Fast;
    if (past(deadline_)) return Answer::None;
  }
  // The tableaus share what is left of the budget; with none left they are not bound (a
  // long double B^-1 of pile80's size is 300 MB).
  if (report.iterations >= budget_) return Answer::None;
  dense(lcp).start_cold();
  if (dense_solved(
          lcp, fast_.run(Fast::Rule::Harris, std::min(budget_, report.iterations + quick), report),
          z, report))
    return Answer::Dense;
  if (past(deadline_)) return Answer::None;
  dense(lcp).start_cold();
  if (dense_solved(lcp,
                   fast_.run(Fast::Rule::Lexicographic,
                             std::min(budget_, report.iterations + quick), report),
                   z, report))
    return Answer::Dense;
  return Answer::None;
}

// The lexicographic rule in long double with what is left of the budget. Rounding on a long
// degenerate path (hundreds of pivots on pour20's 500-row problems) can pick a wrong row among
// ties and end on a false ray in double; so only a ray in long double, whose 11 more bits keep
// those paths exact, is taken as the answer.
std::pair<SolveStatus, std::string> LemkeSolver::exact_lexicographic(const Lcp& lcp, VecX& z,
                                                                     SolveReport& report) {
  using Exact = LemkeTableau<long double>;
  if (past(deadline_)) return {SolveStatus::TimeBudget, ""};
  if (report.iterations >= budget_) {
    z.setZero(lcp.size());
    return {SolveStatus::MaxIterations, "pivot limit " + std::to_string(budget_) + " reached"};
  }
  exact_.bind(lcp, tolerance_);
  exact_.start_cold();
  const Exact::End end = exact_.run(Exact::Rule::Lexicographic, budget_, report);
  if (end == Exact::End::Solution) {
    if (accept(exact_, z) || restart_from(lcp, exact_, z, report)) return {SolveStatus::Solved, ""};
    exact_.extract(z);
    return {SolveStatus::NumericalFailure,
            "complementary basis reached but its residual exceeds the tolerance "
            "(ill-conditioned basis)"};
  }
  z.setZero(lcp.size());
  switch (end) {
    case Exact::End::Ray:
      return {SolveStatus::Unsolvable, ray_message(report)};
    case Exact::End::IterationLimit:
      return {SolveStatus::MaxIterations, "pivot limit " + std::to_string(budget_) + " reached"};
    default:
      return {SolveStatus::NumericalFailure, "the basis became numerically singular"};
  }
}

// The fast path (lemke_revised.hpp) from the complementary basis of Z: the basis as it is, else
// Harris' run from it. Its answer counts only if its natural residual on (M, q) is within the
// tolerance; otherwise z is left as it came and the dense tableau runs from the same start.
bool LemkeSolver::fast_solved_from(const Lcp& lcp, const std::vector<int>& Z, int max_pivots,
                                   VecX& z, SolveReport& report, bool* ended_on_ray, Cover cover) {
  if (ended_on_ray) *ended_on_ray = false;
  // Small problems (PGS's 9-row contact blocks, stack10) are done faster dense.
  if (lcp.size() < kFastPathRows) return false;
  if (!revised_.start(Z, cover)) return false;
  // The basis as it is, if it solves the problem to the tolerance (its degenerate basic values
  // may sit a rounding error below zero); else Lemke from it.
  revised_.extract(candidate_);
  fast_residual_ = revised_.residual(candidate_);
  if (fast_residual_ <= tolerance_) {
    revised_.basic_z(basis_);
  } else {
    const LemkeRevised::End end = revised_.run(max_pivots, report);
    if (ended_on_ray) *ended_on_ray = end == LemkeRevised::End::Ray;
    if (end != LemkeRevised::End::Solution) return false;
    revised_.extract(candidate_);
    fast_residual_ = revised_.residual(candidate_);
    if (fast_residual_ > tolerance_) return false;
    revised_.basic_z(basis_);
    // The complementary basis without z0 answers exactly, which keeps the next step's warm
    // basis feasible (pour20, steps 150-1050: 634 of 900 steps then need no pivot, against 1).
    if (revised_.drop_z0()) {
      revised_.extract(polished_);
      const double polished = revised_.residual(polished_);
      if (polished < fast_residual_) {
        candidate_.swap(polished_);
        fast_residual_ = polished;
        revised_.basic_z(basis_);
      }
    }
  }
  z = candidate_;
  return true;
}

// The complementary basis {z_i : i in Z} ∪ {w_i : i not in Z}, if it is a solution: solves
// M_ZZ z_Z = -q_Z with two steps of iterative refinement (which recover the digits an
// ill-conditioned M_ZZ costs) and checks the natural residual. (Block principal pivoting from
// here, moving every infeasible index at once, diverges on pour20's pile: M is not a P-matrix.)
bool LemkeSolver::try_basis(const Lcp& lcp, const std::vector<int>& Z, VecX& z, double tolerance) {
  const int k = static_cast<int>(Z.size());
  gather_m(lcp, Z, Z, MZZ_);
  qZ_.resize(k);
  for (int j = 0; j < k; ++j) qZ_(j) = lcp.q(Z[j]);
  const Eigen::PartialPivLU<MatX> lu(MZZ_);
  zZ_ = -lu.solve(qZ_);
  for (int round = 0; round < 2 && zZ_.allFinite(); ++round) zZ_ -= lu.solve(MZZ_ * zZ_ + qZ_);
  if (!zZ_.allFinite() || (k > 0 && zZ_.minCoeff() < -tolerance)) return false;
  candidate_.setZero(lcp.size());
  for (int j = 0; j < k; ++j) candidate_(Z[j]) = std::max(0.0, zZ_(j));
  const double residual = natural_residual(lcp, candidate_);
  if (residual > tolerance) return false;
  accepted_residual_ = residual;
  z = candidate_;
  return true;
}

}  // namespace pegsim
