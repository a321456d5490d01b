// A sparse linear solve A x = b that first eliminates small blocks of unknowns local to a few
// rows (static condensation): with A = [A_kk A_kg; A_gk A_gg], A_gg block diagonal over the
// blocks, the Schur complement S = A_kk - A_kg A_gg^-1 A_gk is factorized by sparse LU and
//   S x_k = b_k - A_kg A_gg^-1 b_g,   x_g = A_gg^-1 (b_g - A_gk x_k).
// The geometrically implicit step's closest points and multipliers are such blocks: each pair's
// couple only to themselves and to its two bodies' velocities, and eliminating them leaves the
// velocities and the impulses, less than half the unknowns, for the LU.
#pragma once

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

class BlockElimination {
 public:
  // blocks: disjoint sets of unknowns, each to be eliminated together.
  explicit BlockElimination(std::vector<std::vector<int>> blocks) : blocks_(std::move(blocks)) {}

  // Solves A x = b; false (x unset) where there are no blocks, a block of A_gg is singular (its
  // reciprocal condition estimate below 1e-13), a block's rows reach into another block's
  // unknowns, or the LU of S fails: the caller then factorizes A whole. A's pattern must stay from
  // call to call (S's symbolic analysis is kept).
  bool solve(const Eigen::SparseMatrix<double>& A, const VecX& b, VecX& x);

 private:
  void index(int n);
  bool find_pattern(const Eigen::SparseMatrix<double>& A);
  bool solve_block(const MatX& A, MatX& rhs);

  std::vector<std::vector<int>> blocks_;
  std::vector<int> kept_;                  // unknown -> row of S, or -1 (in a block)
  std::vector<int> block_of_;              // unknown -> its block, or -1
  std::vector<int> position_;              // unknown -> its place in its block, or -1
  std::vector<std::vector<int>> columns_;  // per block: the kept unknowns its rows reach
  std::vector<std::vector<int>> rows_of_;  // per block: the rows of S its unknowns reach
  std::vector<MatX> solved_;               // per block: A_gg^-1 [A_gk, b_g]
  MatX Agg_, Akg_, update_;
  Eigen::PartialPivLU<MatX> lu_block_;
  std::vector<int> kept_unknowns_;
  Eigen::SparseMatrix<double, Eigen::RowMajor> rows_;
  std::vector<Eigen::Triplet<double>> entries_;
  std::vector<int> slot_;  // per entry of S in the order gathered: its place in S's values
  // columns_, rows_of_, S's pattern, slot_ and the symbolic analysis of S are A's pattern's.
  bool pattern_known_ = false;
  Eigen::SparseMatrix<double> schur_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
};

}  // namespace pegsim
