// Reading an LCP's M whether it is dense (Lcp::M) or held by its nonzeros (Lcp::S). The products
// add in the order of Eigen's dense matrix-vector product, so a problem gives the same bits in
// either form and a run does not depend on how its problems were stored.
#pragma once

#include <vector>

#include "engine/solvers/lcp.hpp"

namespace pegsim {

// True when S holds M (M is then 0 x 0).
inline bool m_is_sparse(const Lcp& lcp) {
  return lcp.M.size() == 0 && lcp.S.rows() > 0;
}

// M's rows and columns, whichever form holds it.
Eigen::Index m_rows(const Lcp& lcp);
Eigen::Index m_cols(const Lcp& lcp);

double m_entry(const Lcp& lcp, int i, int j);
// Whether `count` doubles from `values` are all finite, in one vectorized pass.
bool all_finite(const double* values, Eigen::Index count);
bool m_all_finite(const Lcp& lcp);
double m_max_abs(const Lcp& lcp);
// max_i sum_j |M_ij|, M's infinity norm.
double m_max_row_sum(const Lcp& lcp);

// y = M x.
void multiply_m(const Lcp& lcp, const VecX& x, VecX& y);
// y += M(:, first : first + count) x, x of size count.
void add_columns_product(const Lcp& lcp, int first, int count, const Eigen::Ref<const VecX>& x,
                         VecX& y);

// out = M(rows, cols).
void gather_m(const Lcp& lcp, const std::vector<int>& rows, const std::vector<int>& cols,
              MatX& out);

// out = M(first : first + count, first : first + count), a diagonal block.
void diagonal_block_m(const Lcp& lcp, int first, int count, MatX& out);

// Calls f(i, M_ij) for the nonzeros of column j, rows ascending.
template <class F>
void for_each_in_column(const Lcp& lcp, int j, F&& f) {
  if (m_is_sparse(lcp)) {
    for (SparseMatX::InnerIterator it(lcp.S, j); it; ++it)
      f(static_cast<int>(it.row()), it.value());
    return;
  }
  for (Eigen::Index i = 0; i < lcp.M.rows(); ++i)
    if (lcp.M(i, j) != 0.0) f(static_cast<int>(i), lcp.M(i, j));
}

// The problem with M dense: `lcp` itself when it is, else `workspace`, a copy of `lcp` with M
// filled from S (for writers of dense file formats and dense reference code in tests).
const Lcp& with_dense_m(const Lcp& lcp, Lcp& workspace);

// Converts `lcp` in place to the dense or the sparse form (the sparse one stores no zero).
void make_dense(Lcp& lcp);
void make_sparse(Lcp& lcp);

}  // namespace pegsim
