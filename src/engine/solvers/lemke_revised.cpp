// Revised Lemke (lemke_revised.hpp): sparse LU of the basis, eta updates, FTRAN / BTRAN.
#include "engine/solvers/lemke_revised.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

bool LemkeRevised::bind(const Lcp& lcp, double tolerance) {
  lcp_ = &lcp;
  n_ = lcp.size();
  tolerance_ = tolerance;
  const double q_norm = n_ ? lcp.q.cwiseAbs().maxCoeff() : 0.0;
  x_floor_ = kTie * q_norm;
  double m_norm = 0.0;
  bool finite = true;
  col_start_.assign(n_ + 1, 0);
  m_row_.clear();
  m_value_.clear();
  auto keep = [&](int i, double v) {
    m_row_.push_back(i);
    m_value_.push_back(v);
    finite = finite && std::isfinite(v);
    m_norm = std::max(m_norm, std::abs(v));
  };
  // A sparse M gives its columns as they are; a dense one is scanned, by bodies when it can be.
  const bool sparse = m_is_sparse(lcp);
  const bool by_bodies = !sparse && coupled_blocks(lcp);
  for (int j = 0; j < n_; ++j) {
    auto read = [&](int begin, int end) {
      for (int i = begin; i < end; ++i)
        if (lcp.M(i, j) != 0.0) keep(i, lcp.M(i, j));
    };
    if (sparse) {
      for_each_in_column(lcp, j, keep);
    } else if (!by_bodies) {
      read(0, n_);
    } else {
      const int J = block_of_[j];
      for (int e = coupled_start_[J]; e < coupled_start_[J + 1]; ++e) {
        const int I = coupled_[e];
        read(lcp.block_starts[I], I + 1 < blocks_ ? lcp.block_starts[I + 1] : n_);
      }
    }
    col_start_[j + 1] = static_cast<int>(m_row_.size());
  }
  lex_zero_ = m_norm * std::numeric_limits<double>::epsilon();
  counts_ = Counts{};
  return finite;
}

bool LemkeRevised::start(const std::vector<int>& Z, Cover cover) {
  const int n = n_;
  last_leaving_ = -1;
  basic_.resize(n);
  row_of_.assign(2 * n + 1, -1);
  for (int i = 0; i < n; ++i) basic_[i] = i;
  if (Z.empty()) {  // the cold start: B = I, B^-1 d = d
    cold_covering_vector(*lcp_, cover, d_);
    cover_ = d_;
  } else {
    d_.setOnes(n);
    cover_.setOnes(n);
  }
  for (int j : Z) {
    basic_[j] = n + j;
    d_(j) = 0.0;
  }
  for (int i = 0; i < n; ++i) row_of_[basic_[i]] = i;
  // From a warm basis d = B e: the w columns' e_i plus the z columns' -M_j.
  for (int j : Z)
    for (int k = col_start_[j]; k < col_start_[j + 1]; ++k) d_(m_row_[k]) -= m_value_[k];
  return refactor();
}

// The body form's contract (lcp.hpp): rows of different blocks couple only through a body both
// act on. Per block, the blocks it may couple with, ascending (itself included), so that bind
// reads those rows of M only, in the order a full scan would (pour20's pile: ~1/3 of M).
bool LemkeRevised::coupled_blocks(const Lcp& lcp) {
  const LcpBodyForm& f = lcp.body_form;
  const int n = lcp.size();
  if (f.empty() || lcp.block_starts.empty() || static_cast<int>(f.body_a.size()) != n ||
      static_cast<int>(f.body_b.size()) != n || lcp.block_starts.front() != 0)
    return false;
  blocks_ = static_cast<int>(lcp.block_starts.size());
  block_of_.resize(n);
  for (int I = 0; I < blocks_; ++I) {
    const int end = I + 1 < blocks_ ? lcp.block_starts[I + 1] : n;
    if (lcp.block_starts[I] >= end || end > n) return false;
    for (int i = lcp.block_starts[I]; i < end; ++i) block_of_[i] = I;
  }
  // Blocks per body (ascending, once each), then per block the union over its bodies.
  auto valid = [&](int b) { return b >= 0 && b < f.bodies; };
  auto for_each_body = [&](int I, auto&& visit) {
    const int end = I + 1 < blocks_ ? lcp.block_starts[I + 1] : n;
    for (int i = lcp.block_starts[I]; i < end; ++i) {
      if (valid(f.body_a[i])) visit(f.body_a[i]);
      if (valid(f.body_b[i])) visit(f.body_b[i]);
    }
  };
  body_start_.assign(f.bodies + 1, 0);
  mark_.assign(f.bodies, -1);
  for (int I = 0; I < blocks_; ++I)
    for_each_body(I, [&](int b) {
      if (mark_[b] != I) ++body_start_[b + 1];
      mark_[b] = I;
    });
  for (int b = 0; b < f.bodies; ++b) body_start_[b + 1] += body_start_[b];
  body_blocks_.resize(body_start_[f.bodies]);
  fill_.assign(body_start_.begin(), body_start_.end() - 1);
  mark_.assign(f.bodies, -1);
  for (int I = 0; I < blocks_; ++I)
    for_each_body(I, [&](int b) {
      if (mark_[b] != I) body_blocks_[fill_[b]++] = I;
      mark_[b] = I;
    });
  coupled_start_.assign(1, 0);
  coupled_.clear();
  mark_.assign(blocks_, -1);
  for (int I = 0; I < blocks_; ++I) {
    merged_.clear();
    merged_.push_back(I);
    mark_[I] = I;
    for_each_body(I, [&](int b) {
      for (int e = body_start_[b]; e < body_start_[b + 1]; ++e)
        if (mark_[body_blocks_[e]] != I) {
          mark_[body_blocks_[e]] = I;
          merged_.push_back(body_blocks_[e]);
        }
    });
    std::sort(merged_.begin(), merged_.end());
    coupled_.insert(coupled_.end(), merged_.begin(), merged_.end());
    coupled_start_.push_back(static_cast<int>(coupled_.size()));
  }
  return true;
}

// B from its basic columns, factored afresh; x = B^-1 q recomputed from it. Only the block S
// of B on the rows R whose w_i is not basic and the z (and z0) columns is factored: a basic w_i
// is a unit column, so after ordering w's rows first
//   B = [ I   B_WZ ]        B y = a:   S y_Z = a_R,   y_W = a_W - B_WZ y_Z,
//       [ 0   S    ]
// and S has as many rows as basic z's (pour20's pile: about 260 of 900).
bool LemkeRevised::refactor() {
  const int n = n_;
  w_slot_.assign(n, -1);
  z_slot_.clear();
  for (int r = 0; r < n; ++r) {
    if (basic_[r] < n)
      w_slot_[basic_[r]] = r;
    else
      z_slot_.push_back(r);
  }
  r_row_.clear();
  r_index_.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    if (w_slot_[i] >= 0) continue;
    r_index_[i] = static_cast<int>(r_row_.size());
    r_row_.push_back(i);
  }
  const int k = static_cast<int>(z_slot_.size());
  // S from the z columns' entries on R; -B_WZ (M_ij, or d_i for z0) kept by column for the
  // solves, so that they touch only W's entries.
  triplets_.clear();
  wz_start_.assign(1, 0);
  wz_slot_.clear();
  wz_value_.clear();
  auto entry = [&](int i, int b, double minus_b) {
    if (r_index_[i] >= 0) {
      triplets_.emplace_back(r_index_[i], b, -minus_b);
    } else {
      wz_slot_.push_back(w_slot_[i]);
      wz_value_.push_back(minus_b);
    }
  };
  for (int b = 0; b < k; ++b) {
    const int v = basic_[z_slot_[b]];
    if (v < 2 * n) {
      for (int e = col_start_[v - n]; e < col_start_[v - n + 1]; ++e)
        entry(m_row_[e], b, m_value_[e]);
    } else {
      for (int i = 0; i < n; ++i)
        if (d_(i) != 0.0) entry(i, b, d_(i));
    }
    wz_start_.push_back(static_cast<int>(wz_slot_.size()));
  }
  ++counts_.refactorizations;
  eta_row_.clear();
  eta_start_.assign(1, 0);
  eta_index_start_.assign(1, 0);
  eta_index_.clear();
  eta_pivot_.clear();
  eta_value_.clear();
  if (k > 0) {
    S_.resize(k, k);
    S_.setFromTriplets(triplets_.begin(), triplets_.end());
    lu_.analyzePattern(S_);
    lu_.factorize(S_);
    if (lu_.info() != Eigen::Success) return false;
  }
  x_ = lcp_->q;
  ftran(x_);
  return x_.allFinite();
}

// y <- B_0^-1 y (y in: by equation; out: by basis slot), through S as refactor() says.
void LemkeRevised::solve_factor(VecX& y) {
  const int n = n_;
  const int k = static_cast<int>(z_slot_.size());
  solved_.resize(n);
  for (int i = 0; i < n; ++i)
    if (w_slot_[i] >= 0) solved_(w_slot_[i]) = y(i);
  if (k > 0) {
    part_.resize(k);
    for (int a = 0; a < k; ++a) part_(a) = y(r_row_[a]);
    part_ = lu_.solve(part_).eval();
    // y_W -= B_WZ y_Z.
    for (int b = 0; b < k; ++b) {
      const double yz = part_(b);
      solved_(z_slot_[b]) = yz;
      if (yz == 0.0) continue;
      for (int e = wz_start_[b]; e < wz_start_[b + 1]; ++e)
        solved_(wz_slot_[e]) += wz_value_[e] * yz;
    }
  }
  y.swap(solved_);
}

// u <- B_0^-T u (u in: by basis slot; out: by equation): u_W = v_W, then
// S^T u_R = v_Z - B_WZ^T u_W.
void LemkeRevised::solve_factor_transposed(VecX& u) {
  const int n = n_;
  const int k = static_cast<int>(z_slot_.size());
  solved_.resize(n);
  for (int i = 0; i < n; ++i)
    if (w_slot_[i] >= 0) solved_(i) = u(w_slot_[i]);
  if (k > 0) {
    part_.resize(k);
    for (int b = 0; b < k; ++b) {
      double rhs = u(z_slot_[b]);
      for (int e = wz_start_[b]; e < wz_start_[b + 1]; ++e) rhs += wz_value_[e] * u(wz_slot_[e]);
      part_(b) = rhs;
    }
    part_ = lu_.transpose().solve(part_).eval();
    for (int a = 0; a < k; ++a) solved_(r_row_[a]) = part_(a);
  }
  u.swap(solved_);
}

void LemkeRevised::column_of(int variable, VecX& column) const {
  const int n = n_;
  if (variable < n) {
    column.setZero(n);
    column(variable) = 1.0;
  } else if (variable < 2 * n) {
    column.setZero(n);
    for (int k = col_start_[variable - n]; k < col_start_[variable - n + 1]; ++k)
      column(m_row_[k]) = -m_value_[k];
  } else {
    column = -d_;
  }
}

// B^-1 y = E_k ... E_1 B_0^-1 y: the factor's solve, then the etas in the order they came.
void LemkeRevised::ftran(VecX& y) {
  solve_factor(y);
  for (std::size_t e = 0; e < eta_row_.size(); ++e) {
    const int r = eta_row_[e];
    if (y(r) == 0.0) continue;
    const double t = y(r) / eta_pivot_[e];
    const double* value = eta_value_.data() + eta_start_[e];
    if (eta_dense(e)) {
      y -= t * Eigen::Map<const VecX>(value, n_);  // its row r holds 0
    } else {
      const int* index = eta_index_.data() + eta_index_start_[e];
      const int count = eta_start_[e + 1] - eta_start_[e];
      for (int k = 0; k < count; ++k) y(index[k]) -= value[k] * t;
    }
    y(r) = t;
  }
}

// Row r of B^-1 = e_r^T E_k ... E_1 B_0^-1: the etas transposed in reverse order, then a
// solve with B_0^T.
std::size_t LemkeRevised::btran_row(int r) {
  for (std::size_t c = 0; c < cached_row_.size(); ++c)
    if (cached_row_[c] == r) return c;
  const std::size_t slot = cached_row_.size();
  cached_row_.push_back(r);
  if (cached_.size() <= slot) cached_.resize(slot + 1);
  VecX& u = cached_[slot];
  u.setZero(n_);
  u(r) = 1.0;
  for (std::size_t e = eta_row_.size(); e-- > 0;) {
    const int p = eta_row_[e];
    const double* value = eta_value_.data() + eta_start_[e];
    double s = u(p);
    if (eta_dense(e)) {  // in row order, as the sparse sum: the pivots do not see the storage
      for (int i = 0; i < n_; ++i) s -= u(i) * value[i];
    } else {
      const int* index = eta_index_.data() + eta_index_start_[e];
      const int count = eta_start_[e + 1] - eta_start_[e];
      for (int k = 0; k < count; ++k) s -= u(index[k]) * value[k];
    }
    u(p) = s / eta_pivot_[e];
  }
  solve_factor_transposed(u);
  return slot;
}

LemkeRevised::End LemkeRevised::run(int max_pivots, SolveReport& report) {
  const int n = n_;
  const int z0 = 2 * n;
  if (feasible()) return End::Solution;
  if (max_pivots < 1) return End::Doubtful;

  // z0 enters with column B^-1 (-d) = -cover_ and replaces the lexicographically smallest row
  // of [x, B^-1] / cover_ (from a warm basis, cover_ = e: the most negative x_r; Cottle–Pang–
  // Stone §4.9).
  a_ = cover_;
  cached_row_.clear();
  int row = lexicographic_row(a_, 0.0);
  a_ = -a_;
  int leaving = basic_[row];
  if (!pivot(row, z0, a_)) return End::Doubtful;
  record_residual(report);

  while (leaving != z0 && x_(row_of_[z0]) * d_.cwiseAbs().maxCoeff() > tolerance_) {
    if (report.iterations >= max_pivots || past(deadline_)) return End::Doubtful;
    const int entering = leaving < n ? leaving + n : leaving - n;
    column_of(entering, a_);
    ftran(a_);
    cached_row_.clear();
    row = leaving_row(a_);
    if (row < 0) return End::Ray;
    leaving = basic_[row];
    if (!pivot(row, entering, a_)) return End::Doubtful;
    ++report.iterations;
    if (!x_.allFinite()) return End::Doubtful;
    record_residual(report);
  }
  last_leaving_ = leaving;
  return End::Solution;
}

// Why: a run stopped at z0 |d| <= tolerance answers with residual up to the tolerance, and
// the next step's warm basis then misses by as much: on pour20's resting pile 15-25 basic z at
// -5e-10 and 40-60 w at -1e-9, from which Lemke wanders ~170 degenerate pivots. The last
// leaving variable l (at zero) takes z0's place, rather than its complement: both bases are
// complementary, but with l back the pair's other member stays nonbasic, and on pour20
// (steps 150-1050) 634 of 900 steps then need no pivot, against 194 with the complement.
bool LemkeRevised::drop_z0() {
  const int n = n_;
  const int row = row_of_[2 * n];
  if (row < 0 || last_leaving_ < 0 || last_leaving_ == 2 * n) return false;
  const int entering = last_leaving_;
  column_of(entering, a_);
  ftran(a_);
  if (!(std::abs(a_(row)) > kPivot * a_.cwiseAbs().maxCoeff())) return false;
  if (!pivot(row, entering, a_)) return false;
  last_leaving_ = 2 * n;
  return x_.allFinite();
}

// Harris' two-pass ratio test, as the dense tableau's (lemke_tableau.hpp): the step theta*
// with every x_r allowed x_floor_ below zero, then of the rows blocking within theta* z0 if it
// can leave, else the largest pivot, equal pivots ordered lexicographically on B^-1_r / a_r.
int LemkeRevised::leaving_row(const VecX& a) {
  const double threshold = kPivot * std::max(1.0, a.cwiseAbs().maxCoeff());
  double theta = std::numeric_limits<double>::infinity();
  // The second pass visits the rows the first found eligible (on a pile, a few of n).
  eligible_.clear();
  for (int r = 0; r < n_; ++r)
    if (a(r) > threshold) {
      eligible_.push_back(r);
      theta = std::min(theta, (std::max(x_(r), 0.0) + x_floor_) / a(r));
    }
  if (std::isinf(theta)) return -1;
  const int z0_row = row_of_[2 * n_];
  int best = -1;
  for (const int r : eligible_) {
    if (std::max(x_(r), 0.0) / a(r) > theta) continue;
    if (r == z0_row) return r;
    if (best < 0 || a(r) > a(best) * (1 + kTie)) {
      best = r;
    } else if (!(a(best) > a(r) * (1 + kTie))) {
      ++counts_.ties;
      if (lex_less(r, best, a)) best = r;
    }
  }
  return best;
}

int LemkeRevised::lexicographic_row(const VecX& a, double threshold) {
  int best = -1;
  double ratio = std::numeric_limits<double>::infinity();
  for (int r = 0; r < n_; ++r) {
    if (a(r) <= threshold) continue;
    const double t = x_(r) / a(r);
    if (t < ratio) {
      ratio = t;
      best = r;
    } else if (t == ratio) {
      ++counts_.ties;
      if (lex_less(r, best, a)) best = r;
    }
  }
  return best;
}

// Row r1 of B^-1 / a lexicographically before row r2's, entries below |M| eps counting as
// zero, as in the dense tableau.
bool LemkeRevised::lex_less(int r1, int r2, const VecX& a) {
  const std::size_t slot1 = btran_row(r1), slot2 = btran_row(r2);
  const VecX& row1 = cached_[slot1];
  const VecX& row2 = cached_[slot2];
  for (int k = 0; k < n_; ++k) {
    const double b1 = std::abs(row1(k)) < lex_zero_ ? 0.0 : row1(k);
    const double b2 = std::abs(row2(k)) < lex_zero_ ? 0.0 : row2(k);
    const double delta = b1 * a(r2) - b2 * a(r1);
    if (delta < -lex_zero_) return true;
    if (delta > lex_zero_) return false;
  }
  return false;
}

// The basis change in product form: x updated as the tableau's, the entering column kept as an
// eta; a small pivot or a long eta file makes the factor afresh (which recomputes x).
bool LemkeRevised::pivot(int row, int variable, const VecX& a) {
  const double p = a(row);
  const double x_row = x_(row) / p;
  for (int i = 0; i < n_; ++i)
    if (a(i) != 0.0 && i != row) x_(i) -= a(i) * x_row;
  x_(row) = x_row;
  row_of_[basic_[row]] = -1;
  basic_[row] = variable;
  row_of_[variable] = row;
  if (static_cast<int>(eta_row_.size()) >= kRefactor ||
      std::abs(p) < kSmallEta * a.cwiseAbs().maxCoeff())
    return refactor();
  eta_row_.push_back(row);
  eta_pivot_.push_back(p);
  // A column over half full is kept whole (its pivot row as 0), so that FTRAN and BTRAN apply
  // it in one pass without indices (FTRAN's vectorized): on the piles B^-1 a fills nearly every
  // row.
  int nonzeros = 0;
  for (int i = 0; i < n_; ++i) nonzeros += a(i) != 0.0;
  if (2 * nonzeros > n_) {
    eta_value_.insert(eta_value_.end(), a.data(), a.data() + n_);
    eta_value_[eta_value_.size() - static_cast<std::size_t>(n_ - row)] = 0.0;
  } else {
    for (int i = 0; i < n_; ++i) {
      if (a(i) == 0.0 || i == row) continue;
      eta_index_.push_back(i);
      eta_value_.push_back(a(i));
    }
  }
  eta_start_.push_back(static_cast<int>(eta_value_.size()));
  eta_index_start_.push_back(static_cast<int>(eta_index_.size()));
  return true;
}

// Natural residual of the almost-complementary point in O(n), as the dense tableau records it.
void LemkeRevised::record_residual(SolveReport& report) const {
  if (!report.keep_history) return;
  const int n = n_;
  auto value = [&](int v) { return row_of_[v] >= 0 ? x_(row_of_[v]) : 0.0; };
  const double z0 = value(2 * n);
  double r = 0.0;
  for (int i = 0; i < n; ++i)
    r = std::max(r, std::abs(std::min(value(n + i), value(i) - d_(i) * z0)));
  report.record(r);
}

void LemkeRevised::extract(VecX& z) {
  const int n = n_;
  // Iterative refinement: x += B^-1 (q - B x), B's columns taken afresh from [I, -M, -d].
  for (int round = 0; round < 2; ++round) {
    res_ = lcp_->q;
    for (int r = 0; r < n; ++r) {
      const int v = basic_[r];
      if (v < n) {
        res_(v) -= x_(r);
      } else if (v < 2 * n) {
        for (int k = col_start_[v - n]; k < col_start_[v - n + 1]; ++k)
          res_(m_row_[k]) += x_(r) * m_value_[k];
      } else {
        res_ += x_(r) * d_;
      }
    }
    ftran(res_);
    x_ += res_;
  }
  z.setZero(n);
  for (int i = 0; i < n; ++i)
    if (row_of_[n + i] >= 0) z(i) = std::max(0.0, x_(row_of_[n + i]));
}

double LemkeRevised::residual(const VecX& z) {
  res_ = lcp_->q;
  for (int j = 0; j < n_; ++j) {
    if (z(j) == 0.0) continue;
    for (int k = col_start_[j]; k < col_start_[j + 1]; ++k) res_(m_row_[k]) += m_value_[k] * z(j);
  }
  return n_ ? z.cwiseMin(res_).cwiseAbs().maxCoeff() : 0.0;
}

void LemkeRevised::basic_z(std::vector<char>& flags) const {
  flags.assign(n_, 0);
  for (int i = 0; i < n_; ++i) flags[i] = row_of_[n_ + i] >= 0;
}

}  // namespace pegsim
