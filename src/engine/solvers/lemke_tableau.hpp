// The revised tableau of Lemke's method: the basis inverse B^-1 of the system
//   w - M z - d z0 = q,   w, z, z0 >= 0,   w_i z_i = 0,
// (Cottle, Pang & Stone, "The Linear Complementarity Problem", Algorithm 4.4.5), in the
// arithmetic T (double, or long double for the last, exact-rule run of LemkeSolver).
//
// Any complementary basis B can start the method if the covering vector is d = B e: then
// B^-1 (q + d z0) = B^-1 q + e z0 is feasible for z0 large enough. The cold start is B = I,
// d = e (the classical method); a warm start is the basis of a previous solution.
//
// Both products of a pivot skip what is exactly zero, so they cost what the problem's
// sparsity leaves, not n^2: M's columns couple only contacts that share a body (pour20: about
// 5 % of a 1000-row column), and column j of B^-1 stays e_j until row j is pivoted on (B's
// column j is then still w_j's, e_j), so the pivot row of B^-1 is zero outside the rows pivoted
// so far. Skipping exact zeros leaves every computed entry as the dense update gives it.
#pragma once

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/lemke_cover.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

template <typename T>
class LemkeTableau {
 public:
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  enum class End { Solution, Ray, IterationLimit, Singular };
  // Ratio test: Harris' (fast and stable on degenerate problems, but it may in principle cycle)
  // or the lexicographic one (cannot cycle, so its ray proves Lemke cannot solve the problem).
  enum class Rule { Harris, Lexicographic };

  // Binds the problem; `tolerance` is the natural residual accepted as a solution.
  void bind(const Lcp& lcp, double tolerance) {
    lcp_ = &lcp;
    n_ = lcp.size();
    q_ = lcp.q.cast<T>();
    const T q_norm = n_ ? q_.cwiseAbs().maxCoeff() : T(0);
    const T m_norm = T(m_max_abs(lcp));
    x_floor_ = kTie * q_norm;
    lex_zero_ = m_norm * std::numeric_limits<T>::epsilon();
    tolerance_ = tolerance;
    columns_indexed_ = false;
  }

  // The wall-clock time after which run() stops as at its pivot limit (SolverOptions::deadline).
  void set_deadline(Deadline deadline) { deadline_ = deadline; }

  // The cold start B = I with lemke_cover.hpp's d of `cover` (the classical d = e by default).
  void start_cold(Cover cover = Cover::Unit) {
    index_columns();
    Binv_.setIdentity(n_, n_);
    x_ = q_;
    cold_covering_vector(*lcp_, cover, d_);
    cover_ = d_;  // B = I
    basic_.resize(n_);
    row_of_.assign(2 * n_ + 1, -1);
    for (int i = 0; i < n_; ++i) basic_[i] = row_of_[i] = i;
  }

  // The complementary basis {z_i : i in Z} ∪ {w_i : i not in Z} with d = B e. In the ordering
  // (Z, N), B = [-M_ZZ 0; -M_NZ I], so B^-1 = [-M_ZZ^-1 0; -M_NZ M_ZZ^-1 I].
  bool start_from_basis(const std::vector<int>& Z) {
    index_columns();
    const int n = n_;
    std::vector<char> in_Z(n, 0);
    for (int i : Z) in_Z[i] = 1;
    std::vector<int> N;
    for (int i = 0; i < n; ++i)
      if (!in_Z[i]) N.push_back(i);
    const Mat inv_ZZ = Eigen::PartialPivLU<Mat>(gather(Z, Z)).inverse();
    if (!inv_ZZ.allFinite()) return false;
    const Mat NZ = gather(N, Z) * inv_ZZ;
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
      d_(i) = in_Z[i] ? T(0) : T(1);
    }
    for (int j : Z)
      for (int k = col_start_[j]; k < col_start_[j + 1]; ++k) d_(m_row_[k]) -= m_value_[k];
    cover_.setOnes(n);  // B^-1 d = e
    x_.noalias() = Binv_ * q_;
    return x_.allFinite();
  }

  // Pivots until z0 leaves (or reaches zero), a ray, or `max_pivots` complementary pivots in
  // all (report.iterations, which every pivot increments, is cumulative over runs).
  End run(Rule rule, int max_pivots, SolveReport& report) {
    const int n = n_;
    const int z0 = 2 * n;
    rule_ = rule;
    if (x_.minCoeff() >= T(0)) return End::Solution;  // the starting basis is already feasible
    if (max_pivots < 1) return End::IterationLimit;

    // z0 enters with column B^-1 (-d) = -cover_; it replaces the lexicographically smallest row
    // of [x, B^-1] / cover_ (from a warm basis, cover_ = e: the most negative x_r) and makes
    // every x_i >= 0.
    a_ = cover_;
    int row = lexicographic_row(a_, T(0));
    a_ = -a_;
    int leaving = basic_[row];
    pivot(row, z0, a_);       // not counted: iterations are the complementary pivots, as in Murty's
    record_residual(report);  // 2^n - 1 (Murty, "Linear complementarity...", 1988, §6.1)

    // Complementary pivoting: the complement of the variable that just left enters. A
    // degenerate path can bring z0 to zero without it leaving; the point then solves the LCP
    // (its residual is at most |d| z0), so the method stops there too.
    while (leaving != z0 && x_(row_of_[z0]) * d_.cwiseAbs().maxCoeff() > T(tolerance_)) {
      if (report.iterations >= max_pivots || past(deadline_)) return End::IterationLimit;
      const int entering = leaving < n ? leaving + n : leaving - n;
      entering_column(entering, a_);
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

  // Per variable: 1 if z_i is basic.
  void basic_z(std::vector<char>& flags) const {
    flags.assign(n_, 0);
    for (int i = 0; i < n_; ++i) flags[i] = row_of_[n_ + i] >= 0;
  }

  // z from the final basis: the basic values refined, then (if z0 has left) recomputed from
  // M_ZZ z_Z = -q_Z when that is more accurate. Returns z's natural residual.
  double extract(VecX& z) {
    const int n = n_;
    refine();
    z.setZero(n);
    // Workspaces kept between solves: a tiny problem then allocates nothing here.
    std::vector<int>& Z = extract_Z_;
    Z.clear();
    for (int i = 0; i < n; ++i) {
      const int r = row_of_[n + i];
      if (r < 0) continue;
      z(i) = std::max(0.0, static_cast<double>(x_(r)));
      Z.push_back(i);
    }
    // z0 still basic (at zero level, or a ray): no M_ZZ to solve.
    if (row_of_[2 * n] >= 0 || Z.empty()) return natural_residual(*lcp_, z);
    gather_m(*lcp_, Z, Z, extract_M_);
    extract_lu_.compute(extract_M_.cast<T>());
    const Eigen::Index k = static_cast<Eigen::Index>(Z.size());
    extract_q_.resize(k);
    for (Eigen::Index i = 0; i < k; ++i) extract_q_(i) = q_(Z[std::size_t(i)]);
    extract_z_.noalias() = -extract_lu_.solve(extract_q_);
    const double basic = natural_residual(*lcp_, z);
    if (!extract_z_.allFinite()) return basic;
    extract_refined_.setZero(n);
    for (Eigen::Index i = 0; i < k; ++i)
      extract_refined_(Z[std::size_t(i)]) = std::max(0.0, static_cast<double>(extract_z_(i)));
    const double refined = natural_residual(*lcp_, extract_refined_);
    if (!(refined < basic)) return basic;
    z = extract_refined_;
    return refined;
  }

 private:
  // A pivot entry smaller than this fraction of the column's largest entry (or of 1) is
  // treated as zero: pivoting on it would make B nearly singular.
  static constexpr T kPivot = T(1e-9);
  // Harris' test lets basic values go this far (relative to |q|) below zero, and treats pivots
  // within this relative distance as equal.
  static constexpr T kTie = T(1e-12);

  // M by columns, nonzeros only (compressed sparse columns), in T; once per bound problem, and
  // only when the method pivots (a warm basis that solves the problem needs none of it).
  void index_columns() {
    if (columns_indexed_) return;
    col_start_.assign(n_ + 1, 0);
    m_row_.clear();
    m_value_.clear();
    for (int j = 0; j < n_; ++j) {
      for_each_in_column(*lcp_, j, [&](int i, double v) {
        m_row_.push_back(i);
        m_value_.push_back(T(v));
      });
      col_start_[j + 1] = static_cast<int>(m_row_.size());
    }
    columns_indexed_ = true;
  }

  Mat gather(const std::vector<int>& rows, const std::vector<int>& cols) const {
    MatX S;
    gather_m(*lcp_, rows, cols, S);
    return S.cast<T>();
  }

  // Column of `variable` in the current tableau: B^-1 times its column of [I, -M, -d]; for
  // z_j, -B^-1 M_j summed over the nonzeros of M_j only.
  void entering_column(int variable, Vec& a) const {
    if (variable < n_) {
      a = Binv_.col(variable);
      return;
    }
    const int j = variable - n_;
    a.setZero(n_);
    for (int k = col_start_[j]; k < col_start_[j + 1]; ++k)
      a.noalias() -= Binv_.col(m_row_[k]) * m_value_[k];
  }

  // Harris' two-pass ratio test ("Pivot selection methods of the Devex LP code", 1973): the
  // step theta* is the smallest ratio with every x_r allowed to go x_floor_-negative; of the
  // rows that block within theta*, z0 leaves if it can (ending the method), else the one with
  // the largest pivot a_r, so that degenerate problems, where many rows tie at ratio 0, never
  // pivot on a tiny entry. Equal pivots are ordered lexicographically on B^-1_r / a_r (§4.9).
  // Returns -1 when no row blocks (a ray).
  int leaving_row(const Vec& a) const {
    const T threshold = kPivot * std::max(T(1), a.cwiseAbs().maxCoeff());
    if (rule_ == Rule::Lexicographic) return lexicographic_row(a, threshold);
    T theta = std::numeric_limits<T>::infinity();
    for (int r = 0; r < n_; ++r)
      if (a(r) > threshold) theta = std::min(theta, (std::max(x_(r), T(0)) + x_floor_) / a(r));
    if (std::isinf(theta)) return -1;
    const int z0_row = row_of_[2 * n_];
    int best = -1;
    for (int r = 0; r < n_; ++r) {
      if (a(r) <= threshold || std::max(x_(r), T(0)) / a(r) > theta) continue;
      if (r == z0_row) return r;
      if (best < 0 || a(r) > a(best) * (1 + kTie) ||
          (!(a(best) > a(r) * (1 + kTie)) && lex_less(r, best, a)))
        best = r;
    }
    return best;
  }

  // The lexicographic rule (§4.9): the minimum ratio x_r / a_r, exact ties broken by the first
  // differing entry of B^-1_r / a_r. Entries below |M| eps count as zero and differences are
  // compared cross-multiplied, so rounding noise never decides (the order must be exact for
  // the rule to rule out cycling).
  int lexicographic_row(const Vec& a, T threshold) const {
    int best = -1;
    T ratio = std::numeric_limits<T>::infinity();
    for (int r = 0; r < n_; ++r) {
      if (a(r) <= threshold) continue;
      const T t = x_(r) / a(r);
      if (t < ratio) {
        ratio = t;
        best = r;
      } else if (t == ratio && lex_less(r, best, a)) {
        best = r;
      }
    }
    return best;
  }

  // Is row r1 of [x, B^-1] / a lexicographically smaller than row r2, past a ratio tie?
  bool lex_less(int r1, int r2, const Vec& a) const {
    for (int k = 0; k < n_; ++k) {
      const T b1 = std::abs(Binv_(r1, k)) < lex_zero_ ? T(0) : Binv_(r1, k);
      const T b2 = std::abs(Binv_(r2, k)) < lex_zero_ ? T(0) : Binv_(r2, k);
      const T delta = b1 * a(r2) - b2 * a(r1);  // sign of b1 / a1 - b2 / a2, as a > 0
      if (delta < -lex_zero_) return true;
      if (delta > lex_zero_) return false;
    }
    return false;
  }

  // Gauss–Jordan step on row `row` with the entering column `a_in`: B^-1 -= col row^T, one
  // column of B^-1 per nonzero of the pivot row (the others would subtract exact zeros).
  void pivot(int row, int variable, const Vec& a_in) {
    const T p = a_in(row);
    const T x_row = x_(row) / p;
    col_ = a_in;
    col_(row) = T(0);
    for (int k = 0; k < n_; ++k) {
      const T r = Binv_(row, k);
      if (r == T(0)) continue;
      const T scaled = r / p;
      Binv_.col(k).noalias() -= col_ * scaled;
      Binv_(row, k) = scaled;
    }
    x_ -= x_row * col_;
    x_(row) = x_row;
    row_of_[basic_[row]] = -1;
    basic_[row] = variable;
    row_of_[variable] = row;
  }

  // Natural residual of the current almost-complementary point in O(n): there
  // w = M z + q + d z0, so M z + q = w - d z0 with w, z, z0 read off the basic values.
  void record_residual(SolveReport& report) const {
    if (!report.keep_history) return;
    const int n = n_;
    auto value = [&](int v) { return row_of_[v] >= 0 ? x_(row_of_[v]) : T(0); };
    const T z0 = value(2 * n);
    T r = 0;
    for (int i = 0; i < n; ++i)
      r = std::max(r, std::abs(std::min(value(n + i), value(i) - d_(i) * z0)));
    report.record(static_cast<double>(r));
  }

  // Iterative refinement of the basic values with the tableau's own B^-1: the residual
  // q - B x of the basis equations, with B's columns taken afresh from [I, -M, -d], mapped back
  // through B^-1. A long degenerate path leaves x with an error that grows with the pivots;
  // two rounds recover it while B^-1 is still a fair inverse.
  void refine() {
    const int n = n_;
    for (int round = 0; round < 2; ++round) {
      res_ = q_;
      for (int r = 0; r < n; ++r) {
        const int v = basic_[r];
        if (v < n)
          res_(v) -= x_(r);
        else if (v < 2 * n)
          for (int k = col_start_[v - n]; k < col_start_[v - n + 1]; ++k)
            res_(m_row_[k]) += x_(r) * m_value_[k];
        else
          res_ += x_(r) * d_;
      }
      x_.noalias() += Binv_ * res_;
    }
  }

  // Variables: w_i = i, z_i = n + i, the artificial z0 = 2n.
  const Lcp* lcp_ = nullptr;
  int n_ = 0;
  Vec q_;
  Mat Binv_;                // inverse of the basis matrix, columns of [I, -M, -d]
  Vec x_;                   // values of the basic variables, row by row
  Vec d_;                   // covering vector
  Vec cover_;               // B^-1 d at the start: cold_covering_vector, or e from a warm basis
  T x_floor_ = 0;           // how far below zero Harris' test lets a basic value go
  T lex_zero_ = 0;          // |M| eps: smaller tableau entries count as zero
  double tolerance_ = 0.0;  // natural residual accepted as a solution
  Deadline deadline_ = kNoDeadline;
  Rule rule_ = Rule::Harris;
  // extract()'s workspaces.
  std::vector<int> extract_Z_;
  MatX extract_M_;
  Eigen::PartialPivLU<Mat> extract_lu_;
  Vec extract_q_, extract_z_;
  VecX extract_refined_;
  std::vector<int> basic_;              // variable basic in each row
  std::vector<int> row_of_;             // row of each variable, -1 when nonbasic
  Vec a_, col_, res_;                   // entering column, pivot column and residual workspaces
  std::vector<int> col_start_, m_row_;  // M in compressed sparse columns (bind)
  std::vector<T> m_value_;
  bool columns_indexed_ = false;
};

}  // namespace pegsim
