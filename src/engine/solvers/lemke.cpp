// Lemke's method: the order of runs on the tableau (lemke_tableau.hpp) and the warm start.
#include "engine/solvers/lemke.hpp"

#include <Eigen/LU>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

using Clock = std::chrono::steady_clock;

SolveReport LemkeSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = Clock::now();
  SolveReport report;
  report.solver = "lemke";
  const int n = lcp.size();
  basis_.clear();
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };

  // The fast path reads every entry of M as it binds the problem, and checks them there: one
  // pass over the dense M instead of two (on pour20's 900-row problems, 6.5 MB each).
  const bool sparse = n >= kFastPathRows;
  if (const char* defect = sparse ? lcp_shape_defect(lcp) : lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  const double q_norm = n ? lcp.q.cwiseAbs().maxCoeff() : 0.0;
  const double tolerance = options.tolerance * (1.0 + q_norm);
  tolerance_ = tolerance;
  if (sparse && !revised_.bind(lcp, tolerance)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, "M or q has a non-finite entry");
  }
  // The fast path's answers come with their residual, computed over M's nonzeros.
  auto finish_fast = [&]() {
    return finish_report(std::move(report), SolveStatus::Solved, "", fast_residual_, t0);
  };

  // Runs 1 and 2 get at most `quick` pivots each; the last run gets what is left of the budget.
  const int budget = options.max_iterations;
  const int quick = std::min(budget, 4 * n + 100);
  using Fast = LemkeTableau<double>;
  // The dense tableau is bound when a run needs it (its bind reads all of M): the fast path
  // answers most large problems alone.
  bool dense_bound = false;
  auto dense = [&]() -> Fast& {
    if (!dense_bound) fast_.bind(lcp, tolerance);
    dense_bound = true;
    return fast_;
  };
  auto accept = [&](auto& tableau) {
    tableau.extract(z);
    if (natural_residual(lcp, z) > tolerance) return false;
    tableau.basic_z(basis_);
    return true;
  };
  // A run can end on a complementary basis whose answer misses the tolerance: the ratio test
  // ignores column entries below kPivot of the largest, so a basic w_i may drift a little
  // below zero (polygon_pour under PEG, seed 6, h = 0.01, step 355: w_i = -1.9e-9 after 1090
  // pivots). Lemke again from that basis, with a fresh B^-1 and d = B e, pivots the stray
  // variable back (there: 2 pivots, residual 2.8e-15).
  auto restart_from = [&](auto& tableau) {
    tableau.basic_z(basis_);
    Z_.clear();
    for (int i = 0; i < n; ++i)
      if (basis_[i]) Z_.push_back(i);
    basis_.clear();
    return dense().start_from_basis(Z_) &&
           fast_.run(Fast::Rule::Harris, std::min(budget, report.iterations + n / 2 + 20),
                     report) == Fast::End::Solution &&
           accept(fast_);
  };
  auto fast_solved = [&](Fast::End end) {
    return end == Fast::End::Solution && (accept(fast_) || restart_from(fast_));
  };

  // 1. Warm start: the previous basis as it is, else the method from that basis. The basis,
  // when known, is what to start from: the support {z_i > 0} of a pile's answer alone makes a
  // singular M_ZZ (pour20: the sticking contacts' slip variables are basic at zero).
  if (options.warm_start && z.size() == n && z.allFinite()) {
    const std::vector<char>* was_basic =
        options.warm_basis && options.warm_basis->size() == static_cast<std::size_t>(n)
            ? options.warm_basis
            : nullptr;
    Z_.clear();
    for (int i = 0; i < n; ++i)
      if (z(i) > 0.0 || (was_basic && (*was_basic)[i])) Z_.push_back(i);
    if (!Z_.empty()) {
      bool ray = false;
      if (fast_solved_from(lcp, Z_, std::min(budget, report.iterations + n / 2 + 20), z, report,
                           &ray))
        return finish_fast();
      // A warm run the fast path ended on a ray, the dense tableau would repeat pivot for pivot
      // (test FastPathWarmAnswersSolveThePour20Problems): the cold start follows at once. Such
      // a ray proves nothing about the LCP: the covering vector d = B e has negative entries,
      // and Lemke's ray argument (Cottle–Pang–Stone §4.4) needs d > 0. pour20's pile meets one
      // on a few steps in a hundred (along the ray z0 and z grow without bound, d^T z < 0).
      if (!ray && try_basis(lcp, Z_, z, tolerance)) {
        basis_.assign(n, 0);
        for (int i : Z_) basis_[i] = 1;
        return finish(SolveStatus::Solved, "");
      }
      // A warm run that is not done after n/2 pivots is no cheaper than a cold one (pour20:
      // warm runs either finish in about n/4 pivots or wander for thousands).
      if (!ray && dense().start_from_basis(Z_) &&
          fast_solved(fast_.run(Fast::Rule::Harris,
                                std::min(budget, report.iterations + n / 2 + 20), report)))
        return finish(SolveStatus::Solved, "");
    }
  }

  // z = 0 solves the problem when q >= 0 (to the tolerance: the residual is then max(-q_i)).
  z.setZero(n);
  if (n == 0 || lcp.q.minCoeff() >= -tolerance) return finish(SolveStatus::Solved, "");

  // 2. The classical method with Harris' ratio test: on the degenerate problems of contact
  // (coplanar contacts, friction directions spanning one plane) it keeps the pivots large.
  Z_.clear();
  if (fast_solved_from(lcp, Z_, std::min(budget, report.iterations + quick), z, report))
    return finish_fast();
  dense().start_cold();
  if (fast_solved(
          fast_.run(Fast::Rule::Harris, std::min(budget, report.iterations + quick), report)))
    return finish(SolveStatus::Solved, "");

  // 3. The lexicographic rule, which cannot cycle, first in double. Rounding on a long
  // degenerate path (hundreds of pivots on pour20's 500-row problems) can pick a wrong row
  // among ties and end on a false ray; so only a ray in long double, whose 11 more bits keep
  // those paths exact, is taken as the answer.
  dense().start_cold();
  if (fast_solved(fast_.run(Fast::Rule::Lexicographic, std::min(budget, report.iterations + quick),
                            report)))
    return finish(SolveStatus::Solved, "");
  using Exact = LemkeTableau<long double>;
  exact_.bind(lcp, tolerance);
  exact_.start_cold();
  const Exact::End end = exact_.run(Exact::Rule::Lexicographic, budget, report);
  if (end == Exact::End::Solution) {
    if (accept(exact_) || restart_from(exact_)) return finish(SolveStatus::Solved, "");
    exact_.extract(z);
    return finish(SolveStatus::NumericalFailure,
                  "complementary basis reached but its residual exceeds the tolerance "
                  "(ill-conditioned basis)");
  }
  z.setZero(n);
  switch (end) {
    case Exact::End::Ray:
      return finish(SolveStatus::Unsolvable,
                    "secondary ray after " + std::to_string(report.iterations) +
                        " pivots: Lemke's method cannot reach a solution of this problem");
    case Exact::End::IterationLimit:
      return finish(SolveStatus::MaxIterations,
                    "pivot limit " + std::to_string(options.max_iterations) + " reached");
    default:
      return finish(SolveStatus::NumericalFailure, "the basis became numerically singular");
  }
}

// The fast path (lemke_revised.hpp) from the complementary basis of Z: the basis as it is, else
// Harris' run from it. Its answer counts only if its natural residual on (M, q) is within the
// tolerance; otherwise z is left as it came and the dense tableau runs from the same start.
bool LemkeSolver::fast_solved_from(const Lcp& lcp, const std::vector<int>& Z, int max_pivots,
                                   VecX& z, SolveReport& report, bool* ended_on_ray) {
  if (ended_on_ray) *ended_on_ray = false;
  // Small problems (PGS's 9-row contact blocks, stack10) are done faster dense.
  if (lcp.size() < kFastPathRows) return false;
  if (!revised_.start(Z)) return false;
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
  if (natural_residual(lcp, candidate_) > tolerance) return false;
  z = candidate_;
  return true;
}

}  // namespace pegsim
