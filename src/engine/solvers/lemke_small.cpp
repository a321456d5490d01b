#include "engine/solvers/lemke_small.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

bool LemkeSmall::bind(const Lcp& lcp) {
  const int n = n_ = lcp.size();
  double m_norm = 0.0, q_norm = 0.0;
  bool finite = true;
  auto take = [&](double& to, double v) {
    to = v;
    finite = finite && std::isfinite(v);
    m_norm = std::max(m_norm, std::abs(v));
  };
  if (m_is_sparse(lcp)) {
    for (int j = 0; j < n; ++j) std::fill_n(M_[j], n, 0.0);
    for (int j = 0; j < n; ++j)
      for_each_in_column(lcp, j, [&](int i, double v) { take(M_[j][i], v); });
  } else {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) take(M_[j][i], lcp.M(i, j));
  }
  for (int i = 0; i < n; ++i) {
    q_[i] = lcp.q(i);
    finite = finite && std::isfinite(q_[i]);
    q_norm = std::max(q_norm, std::abs(q_[i]));
  }
  lex_zero_ = m_norm * std::numeric_limits<double>::epsilon();
  q_norm_ = q_norm;
  x_floor_ = kTie * q_norm;
  return finite;
}

bool LemkeSmall::solve(double tolerance, int max_pivots, Deadline deadline, VecX& z,
                       double& residual, std::vector<char>& basis, SolveReport& report) {
  switch (n_) {
    case 2:
      return run<2>(tolerance, max_pivots, deadline, z, residual, basis, report);
    case 3:
      return run<3>(tolerance, max_pivots, deadline, z, residual, basis, report);
    case 4:
      return run<4>(tolerance, max_pivots, deadline, z, residual, basis, report);
    case 5:
      return run<5>(tolerance, max_pivots, deadline, z, residual, basis, report);
    case 6:
      return run<6>(tolerance, max_pivots, deadline, z, residual, basis, report);
    default:
      return run<0>(tolerance, max_pivots, deadline, z, residual, basis, report);
  }
}

template <int N>
bool LemkeSmall::run(double tolerance, int max_pivots, Deadline deadline, VecX& z, double& residual,
                     std::vector<char>& basis, SolveReport& report) {
  const int n = rows<N>();
  const int z0 = 2 * n;
  ray_ = false;
  clear_ray_ = true;
  for (int i = 0; i < n; ++i) {
    x_[i] = q_[i];
    std::fill_n(Binv_[i], n, 0.0);
    Binv_[i][i] = 1.0;
    basic_[i] = i;
  }
  std::fill_n(row_of_, 2 * n + 1, -1);
  for (int i = 0; i < n; ++i) row_of_[i] = i;
  if (report.keep_history)
    report.residual_history.reserve(report.residual_history.size() + 2 * n + 2);

  // z0 enters with column -d = -e and replaces the lexicographically smallest row of
  // [x, B^-1] (the most negative q_r), which makes every x_i >= 0. This choice is made on the
  // data as given (x = q, B^-1 = I): exact, ties included.
  std::fill_n(a_, n, 1.0);
  int row = 0;
  for (int r = 1; r < n; ++r)
    if (x_[r] < x_[row] || (x_[r] == x_[row] && lex_less<N>(r, row))) row = r;
  std::fill_n(a_, n, -1.0);
  int leaving = basic_[row];
  pivot<N>(row, z0);
  if (report.keep_history) report.record(pivot_residual<N>());

  // Complementary pivots until z0 leaves, or reaches zero (then the point solves the LCP).
  while (leaving != z0 && x_[row_of_[z0]] > tolerance) {
    if (report.iterations >= max_pivots || past(deadline)) return false;
    const int entering = leaving < n ? leaving + n : leaving - n;
    if (entering < n) {
      std::copy_n(Binv_[entering], n, a_);  // B^-1 e_i
    } else {
      const double* m = M_[entering - n];  // B^-1 (-M e_j)
      std::fill_n(a_, n, 0.0);
      for (int k = 0; k < n; ++k)
        if (m[k] != 0.0)
          for (int i = 0; i < n; ++i) a_[i] -= Binv_[k][i] * m[k];
    }
    row = leaving_row<N>();
    if (clear_ray_) clear_ray_ = row < 0 ? clear_ray<N>() : clear_choice<N>(row);
    if (row < 0) {  // a ray: clear_ray_ says whether the long double run must decide
      ray_ = true;
      return false;
    }
    leaving = basic_[row];
    pivot<N>(row, entering);
    ++report.iterations;
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(x_[i])) return false;
    if (report.keep_history) report.record(pivot_residual<N>());
  }

  residual = extract<N>(z);
  if (!(residual <= tolerance)) return false;
  basis.assign(n, 0);
  for (int i = 0; i < n; ++i) basis[i] = row_of_[n + i] >= 0;
  return true;
}

// z from the basic values, refined twice with B^-1 as LemkeTableau::extract refines them (the
// tableau's second correction, z_Z from an LU of M_ZZ, is left to the general runs: a tiny
// answer that misses the tolerance goes there). A round whose basis equations hold exactly
// would change nothing, nor would the next: refining stops there. Returns z's natural residual.
template <int N>
double LemkeSmall::extract(VecX& z) {
  const int n = rows<N>();
  for (int round = 0; round < 2; ++round) {
    double res[kMaxRows];
    std::copy_n(q_, n, res);
    for (int r = 0; r < n; ++r) {
      const int v = basic_[r];
      if (v < n)
        res[v] -= x_[r];
      else if (v < 2 * n)
        for (int k = 0; k < n; ++k) res[k] += x_[r] * M_[v - n][k];
      else
        for (int k = 0; k < n; ++k) res[k] += x_[r];
    }
    if (std::all_of(res, res + n, [](double r) { return r == 0.0; })) break;
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i) x_[i] += Binv_[k][i] * res[k];
  }
  z.setZero(n);
  for (int i = 0; i < n; ++i)
    if (row_of_[n + i] >= 0) z(i) = std::max(0.0, x_[row_of_[n + i]]);
  return residual_of<N>(z);
}

// max_i |min(z_i, (M z + q)_i)| on the copy: natural_residual on the Lcp (its sparse or dense
// product) costs 10-15 ns more at n = 2, a tenth of the solve this file exists to make cheap.
template <int N>
double LemkeSmall::residual_of(const VecX& z) const {
  const int n = rows<N>();
  double residual = 0.0;
  for (int i = 0; i < n; ++i) {
    double w = q_[i];
    for (int j = 0; j < n; ++j) w += M_[j][i] * z(j);
    residual = std::max(residual, std::abs(std::min(z(i), w)));
  }
  return residual;
}

// Harris' ratio test as LemkeTableau::leaving_row: the largest pivot among the rows whose
// ratio is within the relaxed minimum; z0's row first (it ends the run).
template <int N>
double LemkeSmall::column_largest() const {
  const int n = rows<N>();
  double largest = 1.0;
  for (int r = 0; r < n; ++r) largest = std::max(largest, std::abs(a_[r]));
  return largest;
}

template <int N>
int LemkeSmall::leaving_row() const {
  const int n = rows<N>();
  const double threshold = kPivot * column_largest<N>();
  double theta = std::numeric_limits<double>::infinity();
  for (int r = 0; r < n; ++r)
    if (a_[r] > threshold) theta = std::min(theta, (std::max(x_[r], 0.0) + x_floor_) / a_[r]);
  if (std::isinf(theta)) return -1;
  const int z0_row = row_of_[2 * n];
  int best = -1;
  for (int r = 0; r < n; ++r) {
    if (a_[r] <= threshold || std::max(x_[r], 0.0) / a_[r] > theta) continue;
    if (r == z0_row) return r;
    if (best < 0 || a_[r] > a_[best] * (1 + kTie) ||
        (!(a_[best] > a_[r] * (1 + kTie)) && lex_less<N>(r, best)))
      best = r;
  }
  return best;
}

// A choice of the ratio test holds by a margin far beyond rounding when the row taken is the
// only one eligible within kClear: every other row with a_r above the pivot threshold keeps
// x_r - t a_r above kClear of the scale after the step t, no entry lies within a factor two of
// the threshold, and the pivot is no smaller than kClear of the column's largest entry. Exact
// arithmetic under the lexicographic rule then takes the same row: the minimum ratio is unique.
// (Rounding in x and a is about eps |B^-1| times the data's scale: clear_ray bounds |B^-1|.)
template <int N>
bool LemkeSmall::clear_choice(int row) const {
  const int n = rows<N>();
  const double largest = column_largest<N>();
  double scale = q_norm_;
  for (int r = 0; r < n; ++r) scale = std::max(scale, std::abs(x_[r]));
  const double threshold = kPivot * largest;
  if (!(a_[row] >= kClear * largest)) return false;
  const double t = std::max(x_[row], 0.0) / a_[row];
  for (int r = 0; r < n; ++r) {
    if (a_[r] > 0.5 * threshold && a_[r] <= 2.0 * threshold) return false;
    if (r != row && a_[r] > threshold && !(x_[r] - t * a_[r] > kClear * scale)) return false;
  }
  return true;
}

// A ray holds by the same margin when every entry of the entering column is below half the
// pivot threshold and B^-1 stays within kGrowth (so that rounding, ~1e-16 kGrowth of the scale,
// is far below every margin): no rounding of that size makes an entry block.
template <int N>
bool LemkeSmall::clear_ray() const {
  const int n = rows<N>();
  const double largest = column_largest<N>();
  for (int r = 0; r < n; ++r)
    if (a_[r] > 0.5 * kPivot * largest) return false;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      if (!(std::abs(Binv_[k][i]) <= kGrowth)) return false;
  return true;
}

// Is row r1 of B^-1 / a lexicographically smaller than row r2 (§4.9)? Entries below |M| eps
// count as zero, differences are compared cross-multiplied.
template <int N>
bool LemkeSmall::lex_less(int r1, int r2) const {
  const int n = rows<N>();
  for (int k = 0; k < n; ++k) {
    const double b1 = std::abs(Binv_[k][r1]) < lex_zero_ ? 0.0 : Binv_[k][r1];
    const double b2 = std::abs(Binv_[k][r2]) < lex_zero_ ? 0.0 : Binv_[k][r2];
    const double delta = b1 * a_[r2] - b2 * a_[r1];
    if (delta < -lex_zero_) return true;
    if (delta > lex_zero_) return false;
  }
  return false;
}

// Gauss–Jordan step on `row` with the entering column a_. The pivot row is updated with the
// others and then overwritten: no test in the inner loops.
template <int N>
void LemkeSmall::pivot(int row, int variable) {
  const int n = rows<N>();
  const double p = a_[row];
  const double x_row = x_[row] / p;
  for (int k = 0; k < n; ++k) {
    const double r = Binv_[k][row];
    if (r == 0.0) continue;
    const double scaled = r / p;
    for (int i = 0; i < n; ++i) Binv_[k][i] -= a_[i] * scaled;
    Binv_[k][row] = scaled;
  }
  for (int i = 0; i < n; ++i) x_[i] -= x_row * a_[i];
  x_[row] = x_row;
  row_of_[basic_[row]] = -1;
  basic_[row] = variable;
  row_of_[variable] = row;
}

// Natural residual of the almost-complementary point: M z + q = w - d z0 there.
template <int N>
double LemkeSmall::pivot_residual() const {
  const int n = rows<N>();
  auto value = [&](int v) { return row_of_[v] >= 0 ? x_[row_of_[v]] : 0.0; };
  const double z0 = value(2 * n);
  double r = 0.0;
  for (int i = 0; i < n; ++i) r = std::max(r, std::abs(std::min(value(n + i), value(i) - z0)));
  return r;
}

}  // namespace pegsim
