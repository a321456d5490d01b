// A sparse Jacobian filled row by row over a pattern fixed for a whole solve. The generalized
// Jacobians of the Newton methods (newton.hpp, ncp.hpp, alart_curnier.hpp) are, row by row, a
// row of M scaled plus a few entries on the row's own contact; their pattern is M's, the
// diagonal and those entries, whatever branch of min, of the projection or of the cone a row
// takes. Keeping the pattern (zeros stored where a branch leaves an entry out) lets the sparse
// LU order the columns once per solve (sparse_direction.hpp).
#pragma once

#include <utility>
#include <vector>

#include <Eigen/SparseCore>

#include "engine/solvers/lcp.hpp"

namespace pegsim {

using SparseRowsX = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

// M of `lcp` by rows (its nonzeros, dense or sparse form alike).
void m_by_rows(const Lcp& lcp, SparseRowsX& out);
// M(index, index) by rows, a principal block (index without repeats).
void m_block_by_rows(const Lcp& lcp, const std::vector<int>& index, SparseRowsX& out);

class JacobianRows {
 public:
  // The pattern: m's nonzeros, the diagonal and `extra` (row, column) pairs; values zero.
  void set_pattern(const SparseRowsX& m, const std::vector<std::pair<int, int>>& extra);
  // Row i's values to zero.
  void clear_row(int i);
  // J(i, j) += v; (i, j) must lie in the pattern.
  void add(int i, int j, double v);
  // Row i += scale * row `row` of m (the m given to set_pattern).
  void add_m_row(int i, double scale, int row);
  // Row i *= scale.
  void scale_row(int i, double scale);
  double value(int i, int j) const;
  const SparseRowsX& matrix() const { return J_; }
  int size() const { return static_cast<int>(J_.rows()); }

 private:
  SparseRowsX J_;
  const SparseRowsX* m_ = nullptr;
};

}  // namespace pegsim
