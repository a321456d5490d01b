#include "engine/solvers/block_elimination.hpp"

#include <algorithm>

namespace pegsim {

void BlockElimination::index(int n) {
  if (int(kept_.size()) == n) return;
  block_of_.assign(std::size_t(n), -1);
  position_.assign(std::size_t(n), -1);
  for (std::size_t k = 0; k < blocks_.size(); ++k)
    for (std::size_t i = 0; i < blocks_[k].size(); ++i) {
      block_of_[std::size_t(blocks_[k][i])] = int(k);
      position_[std::size_t(blocks_[k][i])] = int(i);
    }
  solved_.resize(blocks_.size());
  kept_.assign(std::size_t(n), -1);
  kept_unknowns_.clear();
  for (int i = 0; i < n; ++i)
    if (block_of_[std::size_t(i)] < 0) {
      kept_[std::size_t(i)] = int(kept_unknowns_.size());
      kept_unknowns_.push_back(i);
    }
  pattern_known_ = false;
}

// Per block, the kept unknowns its rows reach (A_gk's columns) and the rows of S its unknowns
// reach (A_kg's rows), from A's pattern; false where a block's rows reach another block.
bool BlockElimination::find_pattern(const Eigen::SparseMatrix<double>& A) {
  columns_.assign(blocks_.size(), {});
  rows_of_.assign(blocks_.size(), {});
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    std::vector<int>& columns = columns_[k];
    std::vector<int>& reached = rows_of_[k];
    for (int i : blocks_[k]) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows_, i); it; ++it) {
        const int c = int(it.col());
        if (block_of_[std::size_t(c)] >= 0 && block_of_[std::size_t(c)] != int(k)) return false;
        if (kept_[std::size_t(c)] >= 0) columns.push_back(c);
      }
      for (Eigen::SparseMatrix<double>::InnerIterator it(A, i); it; ++it)
        if (kept_[std::size_t(it.row())] >= 0) reached.push_back(kept_[std::size_t(it.row())]);
    }
    for (std::vector<int>* v : {&columns, &reached}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
  }
  return true;
}

// A_gg^-1 rhs into rhs; false where A_gg is singular (its reciprocal condition estimate below
// 1e-13). Blocks of up to 8 (a pair of two single functions: 8 in 3D, 6 planar) go through a
// fixed-size LU, padded with the identity: the dynamic one's overhead was most of their cost.
bool BlockElimination::solve_block(const MatX& A, MatX& rhs) {
  const Eigen::Index m = A.rows();
  if (m <= 8) {
    Eigen::Matrix<double, 8, 8> padded = Eigen::Matrix<double, 8, 8>::Identity();
    padded.topLeftCorner(m, m) = A;
    const Eigen::PartialPivLU<Eigen::Matrix<double, 8, 8>> lu(padded);
    if (!(lu.rcond() > 1e-13)) return false;
    Eigen::Matrix<double, 8, Eigen::Dynamic> b =
        Eigen::Matrix<double, 8, Eigen::Dynamic>::Zero(8, rhs.cols());
    b.topRows(m) = rhs;
    rhs = lu.solve(b).topRows(m);
    return true;
  }
  lu_block_.compute(A);
  if (!(lu_block_.rcond() > 1e-13)) return false;
  rhs = lu_block_.solve(rhs).eval();
  return true;
}

bool BlockElimination::solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x) {
  if (blocks_.empty()) return false;
  const int n = int(A.rows());
  index(n);
  rows_ = A;  // row access for A_gk
  if (!pattern_known_ && !find_pattern(A)) return false;
  // S's entries: gathered as triplets on the first call, which fixes its pattern; after that
  // added into its values in the same order, each at the slot the first call found.
  entries_.clear();
  std::size_t next = 0;
  if (pattern_known_) std::fill_n(schur_.valuePtr(), schur_.nonZeros(), 0.0);
  auto add = [&](int row, int col, double value) {
    if (pattern_known_)
      schur_.valuePtr()[slot_[next++]] += value;
    else
      entries_.emplace_back(row, col, value);
  };
  VecX rhs(Eigen::Index(kept_unknowns_.size()));
  for (std::size_t i = 0; i < kept_unknowns_.size(); ++i)
    rhs(Eigen::Index(i)) = b(kept_unknowns_[i]);
  for (int col = 0; col < n; ++col) {
    if (kept_[std::size_t(col)] < 0) continue;
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, col); it; ++it)
      if (kept_[std::size_t(it.row())] >= 0)
        add(kept_[std::size_t(it.row())], kept_[std::size_t(col)], it.value());
  }
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    const std::vector<int>& g = blocks_[k];
    const std::vector<int>& columns = columns_[k];
    const std::vector<int>& reached = rows_of_[k];
    const int m = int(g.size());
    // solved_[k] = A_gg^-1 [A_gk, b_g].
    Agg_.setZero(m, m);
    MatX& solved = solved_[k];
    solved.setZero(m, Eigen::Index(columns.size()) + 1);
    for (int r = 0; r < m; ++r) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rows_, g[std::size_t(r)]);
           it; ++it) {
        const int c = int(it.col());
        if (block_of_[std::size_t(c)] == int(k))
          Agg_(r, position_[std::size_t(c)]) = it.value();
        else
          solved(r, std::lower_bound(columns.begin(), columns.end(), c) - columns.begin()) =
              it.value();
      }
      solved(r, Eigen::Index(columns.size())) = b(g[std::size_t(r)]);
    }
    if (!solve_block(Agg_, solved)) return false;
    // S -= A_kg A_gg^-1 A_gk, rhs -= A_kg A_gg^-1 b_g, with A_kg dense over the rows it reaches.
    Akg_.setZero(Eigen::Index(reached.size()), m);
    for (int r = 0; r < m; ++r)
      for (Eigen::SparseMatrix<double>::InnerIterator it(A, g[std::size_t(r)]); it; ++it) {
        const int row = kept_[std::size_t(it.row())];
        if (row >= 0)
          Akg_(std::lower_bound(reached.begin(), reached.end(), row) - reached.begin(), r) =
              it.value();
      }
    update_.noalias() = Akg_ * solved;
    for (std::size_t a = 0; a < reached.size(); ++a) {
      const Eigen::Index ia = Eigen::Index(a);
      for (std::size_t j = 0; j < columns.size(); ++j)
        add(reached[a], kept_[std::size_t(columns[j])], -update_(ia, Eigen::Index(j)));
      rhs(reached[a]) -= update_(ia, Eigen::Index(columns.size()));
    }
  }
  if (!pattern_known_) {
    const Eigen::Index kept = Eigen::Index(kept_unknowns_.size());
    schur_.resize(kept, kept);
    schur_.setFromTriplets(entries_.begin(), entries_.end());
    slot_.clear();
    for (const Eigen::Triplet<double>& t : entries_) {
      const int* first = schur_.innerIndexPtr() + schur_.outerIndexPtr()[t.col()];
      const int* last = schur_.innerIndexPtr() + schur_.outerIndexPtr()[t.col() + 1];
      slot_.push_back(int(std::lower_bound(first, last, t.row()) - schur_.innerIndexPtr()));
    }
    lu_.analyzePattern(schur_);
    pattern_known_ = true;
  } else if (next != slot_.size()) {  // A's pattern changed: find it anew next time
    pattern_known_ = false;
    return false;
  }
  lu_.factorize(schur_);
  if (lu_.info() != Eigen::Success) return false;
  const VecX xk = lu_.solve(rhs);
  if (lu_.info() != Eigen::Success) return false;
  x.resize(n);
  for (std::size_t i = 0; i < kept_unknowns_.size(); ++i)
    x(kept_unknowns_[i]) = xk(Eigen::Index(i));
  // x_g = A_gg^-1 b_g - A_gg^-1 A_gk x_k.
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    const std::vector<int>& columns = columns_[k];
    const MatX& s = solved_[k];
    for (std::size_t r = 0; r < blocks_[k].size(); ++r) {
      double v = s(Eigen::Index(r), Eigen::Index(columns.size()));
      for (std::size_t j = 0; j < columns.size(); ++j)
        v -= s(Eigen::Index(r), Eigen::Index(j)) * xk(kept_[std::size_t(columns[j])]);
      x(blocks_[k][r]) = v;
    }
  }
  return true;
}

}  // namespace pegsim
