// The fixed-pattern, row-filled sparse Jacobian of the Newton methods.
#include "engine/solvers/jacobian_rows.hpp"

#include <algorithm>
#include <cassert>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

void m_by_rows(const Lcp& lcp, SparseRowsX& out) {
  const int n = static_cast<int>(m_rows(lcp));
  std::vector<Eigen::Triplet<double>> entries;
  for (int j = 0; j < static_cast<int>(m_cols(lcp)); ++j)
    for_each_in_column(lcp, j, [&](int i, double v) { entries.emplace_back(i, j, v); });
  out.resize(n, static_cast<int>(m_cols(lcp)));
  out.setFromTriplets(entries.begin(), entries.end());
  out.makeCompressed();
}

void m_block_by_rows(const Lcp& lcp, const std::vector<int>& index, SparseRowsX& out) {
  std::vector<int> position(static_cast<std::size_t>(m_rows(lcp)), -1);
  for (std::size_t k = 0; k < index.size(); ++k)
    position[static_cast<std::size_t>(index[k])] = static_cast<int>(k);
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t k = 0; k < index.size(); ++k)
    for_each_in_column(lcp, index[k], [&](int i, double v) {
      if (position[static_cast<std::size_t>(i)] >= 0)
        entries.emplace_back(position[static_cast<std::size_t>(i)], static_cast<int>(k), v);
    });
  const auto m = static_cast<int>(index.size());
  out.resize(m, m);
  out.setFromTriplets(entries.begin(), entries.end());
  out.makeCompressed();
}

void JacobianRows::set_pattern(const SparseRowsX& m,
                               const std::vector<std::pair<int, int>>& extra) {
  m_ = &m;
  const int n = static_cast<int>(m.rows());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(m.nonZeros() + n) + extra.size());
  for (int i = 0; i < n; ++i) {
    entries.emplace_back(i, i, 0.0);
    for (SparseRowsX::InnerIterator it(m, i); it; ++it) entries.emplace_back(i, it.col(), 0.0);
  }
  for (const auto& [i, j] : extra) entries.emplace_back(i, j, 0.0);
  J_.resize(n, n);
  J_.setFromTriplets(entries.begin(), entries.end());  // duplicates summed: zeros
  J_.makeCompressed();
}

void JacobianRows::clear_row(int i) {
  double* v = J_.valuePtr();
  std::fill(v + J_.outerIndexPtr()[i], v + J_.outerIndexPtr()[i + 1], 0.0);
}

void JacobianRows::add(int i, int j, double v) {
  const int* begin = J_.innerIndexPtr() + J_.outerIndexPtr()[i];
  const int* end = J_.innerIndexPtr() + J_.outerIndexPtr()[i + 1];
  const int* at = std::lower_bound(begin, end, j);
  assert(at != end && *at == j);
  J_.valuePtr()[at - J_.innerIndexPtr()] += v;
}

void JacobianRows::add_m_row(int i, double scale, int row) {
  // Both rows' columns ascend and m's row lies in the pattern's: one merge.
  int k = J_.outerIndexPtr()[i];
  const int* columns = J_.innerIndexPtr();
  for (SparseRowsX::InnerIterator it(*m_, row); it; ++it) {
    while (columns[k] < it.col()) ++k;
    assert(columns[k] == it.col());
    J_.valuePtr()[k] += scale * it.value();
  }
}

void JacobianRows::scale_row(int i, double scale) {
  double* v = J_.valuePtr();
  for (int k = J_.outerIndexPtr()[i]; k < J_.outerIndexPtr()[i + 1]; ++k) v[k] *= scale;
}

double JacobianRows::value(int i, int j) const {
  const int* begin = J_.innerIndexPtr() + J_.outerIndexPtr()[i];
  const int* end = J_.innerIndexPtr() + J_.outerIndexPtr()[i + 1];
  const int* at = std::lower_bound(begin, end, j);
  return at != end && *at == j ? J_.valuePtr()[at - J_.innerIndexPtr()] : 0.0;
}

}  // namespace pegsim
