// The two forms of M behind one set of reads; the sparse products mimic Eigen 3.4's dense
// column-major matrix-vector product (GeneralMatrixVector.h) sum for sum.
#include "engine/solvers/lcp_matrix.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

Eigen::Index m_rows(const Lcp& lcp) {
  return m_is_sparse(lcp) ? lcp.S.rows() : lcp.M.rows();
}
Eigen::Index m_cols(const Lcp& lcp) {
  return m_is_sparse(lcp) ? lcp.S.cols() : lcp.M.cols();
}

double m_entry(const Lcp& lcp, int i, int j) {
  return m_is_sparse(lcp) ? lcp.S.coeff(i, j) : lcp.M(i, j);
}

// x * 0 is 0 for a finite x and NaN for an infinite or NaN one, so the sum of the products is
// 0 exactly when every entry is finite: one vectorized pass (Eigen's allFinite compares entry
// by entry, ~8 instructions each).
bool all_finite(const double* values, Eigen::Index count) {
  return (Eigen::Map<const VecX>(values, count).array() * 0.0).sum() == 0.0;
}

// (S may be uncompressed, e.g. after an insertion: read it through its iterators.)
bool m_all_finite(const Lcp& lcp) {
  if (!m_is_sparse(lcp)) return all_finite(lcp.M.data(), lcp.M.size());
  // Compressed: the nonzeros lie in one array, checked in one pass.
  if (lcp.S.isCompressed()) return all_finite(lcp.S.valuePtr(), lcp.S.nonZeros());
  bool finite = true;
  for (Eigen::Index j = 0; j < lcp.S.outerSize(); ++j)
    for (SparseMatX::InnerIterator it(lcp.S, j); it; ++it)
      finite = finite && std::isfinite(it.value());
  return finite;
}

double m_max_abs(const Lcp& lcp) {
  if (!m_is_sparse(lcp)) return lcp.M.size() ? lcp.M.cwiseAbs().maxCoeff() : 0.0;
  if (lcp.S.isCompressed())
    return lcp.S.nonZeros()
               ? Eigen::Map<const VecX>(lcp.S.valuePtr(), lcp.S.nonZeros()).cwiseAbs().maxCoeff()
               : 0.0;
  double m = 0.0;
  for (Eigen::Index j = 0; j < lcp.S.outerSize(); ++j)
    for (SparseMatX::InnerIterator it(lcp.S, j); it; ++it) m = std::max(m, std::abs(it.value()));
  return m;
}

double m_max_row_sum(const Lcp& lcp) {
  if (!m_is_sparse(lcp)) return lcp.M.size() ? lcp.M.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
  VecX sums = VecX::Zero(lcp.S.rows());
  for (Eigen::Index j = 0; j < lcp.S.outerSize(); ++j)
    for (SparseMatX::InnerIterator it(lcp.S, j); it; ++it) sums(it.row()) += std::abs(it.value());
  return sums.size() ? sums.maxCoeff() : 0.0;
}

namespace {
// y += S(:, first : first + count) x as Eigen's dense product sums it: the columns in chunks
// (all of them below 128, else 16, or 4 when a column of the dense matrix would take 32000 bytes
// or more), each row's chunk sum started at +0 and added to y_i, every row for every chunk. The
// zeros the dense product multiplies add +-0 to a chunk sum, which changes no sum.
void add_product(const SparseMatX& S, int first, int count, const double* x, VecX& y) {
  if (count == 0) return;
  const Eigen::Index n = S.rows();
  const int chunk =
      count < 128 ? count : (n * static_cast<Eigen::Index>(sizeof(double)) < 32000 ? 16 : 4);
  // Scratch per thread (the GUI steps on a worker thread): the chunk sums.
  thread_local std::vector<double> sum;
  if (static_cast<Eigen::Index>(sum.size()) < n) sum.assign(static_cast<std::size_t>(n), 0.0);
  for (int j2 = 0; j2 < count; j2 += chunk) {
    const int jend = std::min(j2 + chunk, count);
    for (int j = j2; j < jend; ++j) {
      const double xj = x[j];
      if (xj == 0.0) continue;  // +-0 products change no sum (M is finite)
      for (SparseMatX::InnerIterator it(S, first + j); it; ++it)
        sum[static_cast<std::size_t>(it.row())] += it.value() * xj;
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      y(i) += sum[static_cast<std::size_t>(i)];
      sum[static_cast<std::size_t>(i)] = 0.0;
    }
  }
}
}  // namespace

void multiply_m(const Lcp& lcp, const VecX& x, VecX& y) {
  if (!m_is_sparse(lcp)) {
    y.noalias() = lcp.M * x;
    return;
  }
  y.setZero(lcp.S.rows());
  add_product(lcp.S, 0, static_cast<int>(lcp.S.cols()), x.data(), y);
}

void add_columns_product(const Lcp& lcp, int first, int count, const Eigen::Ref<const VecX>& x,
                         VecX& y) {
  if (!m_is_sparse(lcp)) {
    y.noalias() += lcp.M.middleCols(first, count) * x;
    return;
  }
  add_product(lcp.S, first, count, x.data(), y);
}

void gather_m(const Lcp& lcp, const std::vector<int>& rows, const std::vector<int>& cols,
              MatX& out) {
  out.resize(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(cols.size()));
  if (!m_is_sparse(lcp)) {
    for (std::size_t j = 0; j < cols.size(); ++j)
      for (std::size_t i = 0; i < rows.size(); ++i) out(i, j) = lcp.M(rows[i], cols[j]);
    return;
  }
  // Each column's nonzeros scattered to the rows asked for (a row may be asked for twice).
  thread_local std::vector<int> first_at, next;
  const auto n = static_cast<std::size_t>(lcp.S.rows());
  first_at.assign(n, -1);
  next.assign(rows.size(), -1);
  for (std::size_t k = rows.size(); k-- > 0;) {
    next[k] = first_at[static_cast<std::size_t>(rows[k])];
    first_at[static_cast<std::size_t>(rows[k])] = static_cast<int>(k);
  }
  out.setZero();
  for (std::size_t j = 0; j < cols.size(); ++j)
    for (SparseMatX::InnerIterator it(lcp.S, cols[j]); it; ++it)
      for (int k = first_at[static_cast<std::size_t>(it.row())]; k >= 0;
           k = next[static_cast<std::size_t>(k)])
        out(k, static_cast<Eigen::Index>(j)) = it.value();
}

void diagonal_block_m(const Lcp& lcp, int first, int count, MatX& out) {
  if (!m_is_sparse(lcp)) {
    out = lcp.M.block(first, first, count, count);
    return;
  }
  out.setZero(count, count);
  for (int j = 0; j < count; ++j)
    for (SparseMatX::InnerIterator it(lcp.S, first + j); it; ++it) {
      if (it.row() < first) continue;
      if (it.row() >= first + count) break;
      out(it.row() - first, j) = it.value();
    }
}

const Lcp& with_dense_m(const Lcp& lcp, Lcp& workspace) {
  if (!m_is_sparse(lcp)) return lcp;
  workspace.M = MatX(lcp.S);
  workspace.S.resize(0, 0);
  workspace.q = lcp.q;
  workspace.block_starts = lcp.block_starts;
  workspace.lower = lcp.lower;
  workspace.upper = lcp.upper;
  workspace.body_form = lcp.body_form;
  return workspace;
}

void make_dense(Lcp& lcp) {
  if (!m_is_sparse(lcp)) return;
  lcp.M = MatX(lcp.S);
  lcp.S.resize(0, 0);
}

void make_sparse(Lcp& lcp) {
  if (m_is_sparse(lcp) || lcp.M.size() == 0) return;
  lcp.S = lcp.M.sparseView(0.0, 0.0);
  lcp.M.resize(0, 0);
}

}  // namespace pegsim
