// Lemke's method on the revised tableau: the basis inverse B^-1 of the system
//   w - M z - d z0 = q,   w, z, z0 >= 0,   w_i z_i = 0,
// (Cottle, Pang & Stone, "The Linear Complementarity Problem", Algorithm 4.4.5), with the
// lexicographic ratio test of §4.9 so that degenerate problems cannot cycle.
//
// Any complementary basis B can start the method if the covering vector is d = B e: then
// B^-1 (q + d z0) = B^-1 q + e z0 is feasible for z0 large enough. The cold start is B = I,
// d = e (the classical method); a warm start is the basis of the previous solution.
#include "engine/solvers/lemke.hpp"

#include <Eigen/LU>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

namespace pegsim {
namespace {

using Clock = std::chrono::steady_clock;

// A pivot entry smaller than this fraction of the column's largest entry is treated as zero.
constexpr double kPivotTolerance = 1e-11;
// Harris' ratio test lets basic values go this far (relative to |q|) below zero, and treats
// pivots within this relative distance as equal.
constexpr double kTieTolerance = 1e-12;

// Indices i with z_i > 0: the z-part of the basis guessed from a previous solution.
std::vector<int> positive_indices(const VecX& z) {
  std::vector<int> idx;
  for (int i = 0; i < z.size(); ++i)
    if (z(i) > 0.0) idx.push_back(i);
  return idx;
}

// M restricted to rows `rows` and columns `cols`.
MatX gather(const MatX& M, const std::vector<int>& rows, const std::vector<int>& cols) {
  MatX S(rows.size(), cols.size());
  for (std::size_t j = 0; j < cols.size(); ++j)
    for (std::size_t i = 0; i < rows.size(); ++i) S(i, j) = M(rows[i], cols[j]);
  return S;
}

// Solves M_ZZ z_Z = -q_Z (the complementary basis with z_Z basic, w basic elsewhere) and writes
// z (zero outside Z). Returns false if M_ZZ is numerically singular.
bool solve_basis(const Lcp& lcp, const std::vector<int>& Z, VecX& z) {
  z.setZero(lcp.size());
  if (Z.empty()) return true;
  const MatX MZZ = gather(lcp.M, Z, Z);
  const Eigen::PartialPivLU<MatX> lu(MZZ);
  VecX qZ(Z.size());
  for (std::size_t i = 0; i < Z.size(); ++i) qZ(i) = lcp.q(Z[i]);
  VecX zZ = -lu.solve(qZ);
  // Two steps of iterative refinement recover the digits an ill-conditioned M_ZZ costs.
  for (int k = 0; k < 2 && zZ.allFinite(); ++k) zZ -= lu.solve(MZZ * zZ + qZ);
  if (!zZ.allFinite()) return false;
  for (std::size_t i = 0; i < Z.size(); ++i) z(Z[i]) = zZ(i);
  return true;
}

}  // namespace

SolveReport LemkeSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = Clock::now();
  SolveReport report;
  report.solver = "lemke";
  const int n = lcp.size();
  n_ = n;
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };

  if (lcp.M.rows() != n || lcp.M.cols() != n) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, "M is not square of the size of q");
  }
  if (!lcp.M.allFinite() || !lcp.q.allFinite()) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, "M or q has a non-finite entry");
  }
  const double q_norm = n ? lcp.q.cwiseAbs().maxCoeff() : 0.0;
  const double tolerance = options.tolerance * (1.0 + q_norm);
  const double m_norm = n ? lcp.M.cwiseAbs().maxCoeff() : 0.0;
  x_floor_ = kTieTolerance * q_norm;
  lex_zero_ = m_norm * std::numeric_limits<double>::epsilon();
  tolerance_ = tolerance;

  // Each run of the method below gets at most `quick` pivots, except the last, which gets what
  // is left of the budget. `limit` is cumulative, as report.iterations.
  const int budget = options.max_iterations;
  const int quick = std::min(budget, 4 * n + 100);
  auto solved = [&](End end) {
    if (end != End::Solution) return false;
    extract(lcp, z);
    return natural_residual(lcp, z) <= tolerance;
  };

  // Warm start: the previous basis as it is, else the method from that basis.
  if (options.warm_start && z.size() == n && z.allFinite()) {
    const VecX guess = z;
    if (try_basis(lcp, guess, z, tolerance)) return finish(SolveStatus::Solved, "");
    lexicographic_ = false;
    if (start_from_basis(lcp, guess) &&
        solved(pivot_until_done(lcp, std::min(budget, report.iterations + quick), report)))
      return finish(SolveStatus::Solved, "");
  }

  // Cold start: z = 0 solves the problem when q >= 0 (to the tolerance, whose residual is then
  // max(-q_i)); otherwise the classical method, first with the stable ratio test, then with the
  // lexicographic one, which cannot cycle: only its ray proves that Lemke cannot solve it.
  z.setZero(n);
  if (n == 0 || lcp.q.minCoeff() >= -tolerance) return finish(SolveStatus::Solved, "");
  lexicographic_ = false;
  start_cold(lcp);
  if (solved(pivot_until_done(lcp, std::min(budget, report.iterations + quick), report)))
    return finish(SolveStatus::Solved, "");
  lexicographic_ = true;
  start_cold(lcp);
  const End end = pivot_until_done(lcp, budget, report);
  if (solved(end)) return finish(SolveStatus::Solved, "");
  switch (end) {
    case End::Solution:
      return finish(SolveStatus::NumericalFailure,
                    "complementary basis reached but its residual exceeds the tolerance "
                    "(ill-conditioned basis)");
    case End::Ray:
      return finish(SolveStatus::Unsolvable,
                    "secondary ray after " + std::to_string(report.iterations) +
                        " pivots: Lemke's method cannot reach a solution of this problem");
    case End::IterationLimit:
      return finish(SolveStatus::MaxIterations,
                    "pivot limit " + std::to_string(options.max_iterations) + " reached");
    case End::Singular:
      break;
  }
  return finish(SolveStatus::NumericalFailure, "the basis became numerically singular");
}

// The basis {z_i : guess_i > 0} ∪ {w_i : guess_i = 0}, if it is a solution.
bool LemkeSolver::try_basis(const Lcp& lcp, const VecX& guess, VecX& z, double tolerance) {
  const std::vector<int> Z = positive_indices(guess);
  if (Z.empty()) return false;
  VecX candidate;
  if (!solve_basis(lcp, Z, candidate)) return false;
  if (candidate.minCoeff() < -tolerance) return false;
  candidate = candidate.cwiseMax(0.0);
  if (natural_residual(lcp, candidate) > tolerance) return false;
  z = candidate;
  return true;
}

// Tableau of the complementary basis guessed from `guess`, with d = B e. In the ordering
// (Z, N) the basis is B = [-M_ZZ 0; -M_NZ I], so B^-1 = [-M_ZZ^-1 0; -M_NZ M_ZZ^-1 I].
bool LemkeSolver::start_from_basis(const Lcp& lcp, const VecX& guess) {
  const int n = n_;
  const std::vector<int> Z = positive_indices(guess);
  std::vector<int> N;
  std::vector<char> in_Z(n, 0);
  for (int i : Z) in_Z[i] = 1;
  for (int i = 0; i < n; ++i)
    if (!in_Z[i]) N.push_back(i);

  const MatX inv_ZZ = Eigen::PartialPivLU<MatX>(gather(lcp.M, Z, Z)).inverse();
  if (!inv_ZZ.allFinite()) return false;
  const MatX NZ = gather(lcp.M, N, Z) * inv_ZZ;
  Binv_.setIdentity(n, n);
  for (std::size_t j = 0; j < Z.size(); ++j) {
    for (std::size_t i = 0; i < Z.size(); ++i) Binv_(Z[i], Z[j]) = -inv_ZZ(i, j);
    for (std::size_t i = 0; i < N.size(); ++i) Binv_(N[i], Z[j]) = -NZ(i, j);
  }
  basic_.resize(n);
  row_of_.assign(2 * n + 1, -1);
  d_.setZero(n);
  for (int i = 0; i < n; ++i) {
    basic_[i] = in_Z[i] ? n + i : i;
    row_of_[basic_[i]] = i;
    d_(i) = in_Z[i] ? 0.0 : 1.0;
  }
  for (int j : Z) d_ -= lcp.M.col(j);
  x_.noalias() = Binv_ * lcp.q;
  return x_.allFinite();
}

void LemkeSolver::start_cold(const Lcp& lcp) {
  const int n = n_;
  Binv_.setIdentity(n, n);
  x_ = lcp.q;
  d_.setOnes(n);
  basic_.resize(n);
  row_of_.assign(2 * n + 1, -1);
  for (int i = 0; i < n; ++i) basic_[i] = row_of_[i] = i;
}

LemkeSolver::End LemkeSolver::pivot_until_done(const Lcp& lcp, int max_pivots, SolveReport& report) {
  const int n = n_;
  const int z0 = 2 * n;
  if (x_.minCoeff() >= 0.0) return End::Solution;  // the starting basis is already feasible
  if (max_pivots < 1) return End::IterationLimit;

  // z0 enters with column B^-1 (-d) = -e; it replaces the lexicographically smallest row of
  // [x, B^-1], i.e. the most negative x_r, and makes every x_i >= 0.
  a_.setOnes(n);
  int row = lexicographic_row(a_, 0.0);
  a_ = -a_;
  int leaving = basic_[row];
  pivot(row, z0, a_);  // not counted: iterations are the complementary pivots, as in Murty's
  record_residual(report);  // 2^n - 1 (Murty, "Linear complementarity...", 1988, §6.1)

  // Complementary pivoting: the complement of the variable that just left enters. A degenerate
  // path can bring z0 to zero without it leaving; the point then solves the LCP (its residual
  // is at most |d| z0), so the method stops there too.
  while (leaving != z0 && x_(row_of_[z0]) * d_.cwiseAbs().maxCoeff() > tolerance_) {
    if (report.iterations >= max_pivots) return End::IterationLimit;
    const int entering = leaving < n ? leaving + n : leaving - n;
    entering_column(lcp, entering, a_);
    row = leaving_row(a_);
    if (row < 0) return End::Ray;
    leaving = basic_[row];
    pivot(row, entering, a_);
    ++report.iterations;
    if (!x_.allFinite()) return End::Singular;
    record_residual(report);
  }
  return End::Solution;
}

// Column of `variable` in the current tableau: B^-1 times its column of [I, -M, -d].
void LemkeSolver::entering_column(const Lcp& lcp, int variable, VecX& a) const {
  if (variable < n_) {
    a = Binv_.col(variable);
  } else {
    a.noalias() = Binv_ * lcp.M.col(variable - n_);
    a = -a;
  }
}

// Ratio test in two passes (Harris, "Pivot selection methods of the Devex LP code", 1973): the
// step theta* is the smallest ratio with every x_r allowed to go x_floor_-negative; of the rows
// that block within theta*, z0 leaves if it can (ending the method), else the one with the
// largest pivot a_r, so that degenerate problems, where many rows tie at ratio 0, never pivot on
// a tiny entry. Equal pivots are ordered lexicographically on B^-1_r / a_r (§4.9).
// Returns -1 when no row blocks (a ray).
int LemkeSolver::leaving_row(const VecX& a) const {
  const double threshold = kPivotTolerance * std::max(1.0, a.cwiseAbs().maxCoeff());
  if (lexicographic_) return lexicographic_row(a, threshold);
  double theta = INFINITY;
  for (int r = 0; r < n_; ++r)
    if (a(r) > threshold) theta = std::min(theta, (std::max(x_(r), 0.0) + x_floor_) / a(r));
  if (theta == INFINITY) return -1;
  const int z0_row = row_of_[2 * n_];
  int best = -1;
  for (int r = 0; r < n_; ++r) {
    if (a(r) <= threshold || std::max(x_(r), 0.0) / a(r) > theta) continue;
    if (r == z0_row) return r;
    if (best < 0 || a(r) > a(best) * (1.0 + kTieTolerance) ||
        (!(a(best) > a(r) * (1.0 + kTieTolerance)) && lex_less(r, best, a)))
      best = r;
  }
  return best;
}

// The lexicographic rule (§4.9): the minimum ratio x_r / a_r, exact ties broken by the first
// differing entry of B^-1_r / a_r. Entries below |M| eps count as zero and differences are
// compared cross-multiplied, so rounding noise never decides (the order must be exact for the
// rule to rule out cycling).
int LemkeSolver::lexicographic_row(const VecX& a, double threshold) const {
  int best = -1;
  double ratio = INFINITY;
  for (int r = 0; r < n_; ++r) {
    if (a(r) <= threshold) continue;
    const double t = x_(r) / a(r);
    if (t < ratio) {
      ratio = t;
      best = r;
    } else if (t == ratio && lex_less(r, best, a)) {
      best = r;
    }
  }
  return best;
}

// Is row r1 of [x, B^-1] / a lexicographically smaller than row r2, past an exact ratio tie?
bool LemkeSolver::lex_less(int r1, int r2, const VecX& a) const {
  for (int k = 0; k < n_; ++k) {
    const double b1 = std::abs(Binv_(r1, k)) < lex_zero_ ? 0.0 : Binv_(r1, k);
    const double b2 = std::abs(Binv_(r2, k)) < lex_zero_ ? 0.0 : Binv_(r2, k);
    const double delta = b1 * a(r2) - b2 * a(r1);  // sign of b1 / a1 - b2 / a2, as a > 0
    if (delta < -lex_zero_) return true;
    if (delta > lex_zero_) return false;
  }
  return false;
}

// Gauss–Jordan step on row `row` with the entering column `a` (which it overwrites).
void LemkeSolver::pivot(int row, int variable, const VecX& a_in) {
  const double p = a_in(row);
  row_ = Binv_.row(row) / p;
  const double x_row = x_(row) / p;
  a_ = a_in;
  a_(row) = 0.0;
  Binv_.noalias() -= a_ * row_;
  Binv_.row(row) = row_;
  x_ -= x_row * a_;
  x_(row) = x_row;
  row_of_[basic_[row]] = -1;
  basic_[row] = variable;
  row_of_[variable] = row;
}

// Natural residual of the current almost-complementary point in O(n): there w = M z + q + d z0,
// so M z + q = w - d z0 with w, z, z0 read off the basic values.
void LemkeSolver::record_residual(SolveReport& report) const {
  const int n = n_;
  auto value = [&](int variable) { return row_of_[variable] >= 0 ? x_(row_of_[variable]) : 0.0; };
  const double z0 = value(2 * n);
  double r = 0.0;
  for (int i = 0; i < n; ++i)
    r = std::max(r, std::abs(std::min(value(n + i), value(i) - d_(i) * z0)));
  report.residual_history.push_back(r);
}

// z from the basic values, then recomputed from the final basis (M_ZZ z_Z = -q_Z) when that is
// more accurate than the values carried through the pivots.
void LemkeSolver::extract(const Lcp& lcp, VecX& z) {
  const int n = n_;
  z.setZero(n);
  std::vector<int> Z;
  for (int i = 0; i < n; ++i) {
    const int r = row_of_[n + i];
    if (r < 0) continue;
    z(i) = std::max(0.0, x_(r));
    Z.push_back(i);
  }
  if (row_of_[2 * n] >= 0) return;  // z0 still basic (at zero level, or on a ray)
  VecX refined;
  if (!solve_basis(lcp, Z, refined)) return;
  refined = refined.cwiseMax(0.0);
  if (natural_residual(lcp, refined) < natural_residual(lcp, z)) z = refined;
}

}  // namespace pegsim
