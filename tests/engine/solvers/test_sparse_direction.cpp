// The Newton methods' sparse linear algebra: Jacobians filled row by row over a fixed pattern
// (jacobian_rows.hpp) and their directions (sparse_direction.hpp): LU where J is regular, by
// Higham's condition estimate, and the iterated Tikhonov step where it is singular, against
// dense LU and the complete orthogonal decomposition's minimum-norm step.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <random>

#include "engine/solvers/jacobian_rows.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/sparse_direction.hpp"
#include "lcp_testing.hpp"

namespace pegsim {
namespace {

SparseRowsX sparse_rows(const MatX& A) {
  return A.sparseView();
}

// A random n x n matrix of rank `rank` with singular values 1, ..., down to `smallest` (log
// spaced) and zeros after: U diag(s) V^T.
MatX with_singular_values(int n, int rank, double smallest, std::mt19937& rng) {
  const MatX U = Eigen::HouseholderQR<MatX>(test::uniform(n, n, rng)).householderQ();
  const MatX V = Eigen::HouseholderQR<MatX>(test::uniform(n, n, rng)).householderQ();
  VecX s = VecX::Zero(n);
  for (int i = 0; i < rank; ++i)
    s(i) = std::pow(smallest, rank > 1 ? static_cast<double>(i) / (rank - 1) : 0.0);
  return U * s.asDiagonal() * V.transpose();
}

// Rows set, scaled, cleared and combined from M's rows give the dense matrix the same operations
// give; entries the operations leave out are stored zeros, so the pattern never changes.
TEST(JacobianRows, RowOperationsMatchTheDenseOnes) {
  std::mt19937 rng(3);
  MatX M = test::uniform(6, 6, rng);
  M(1, 4) = M(4, 1) = M(2, 2) = M(5, 0) = 0.0;
  const SparseRowsX m = sparse_rows(M);
  JacobianRows J;
  J.set_pattern(m, {{1, 4}, {5, 0}});
  const Eigen::Index pattern = J.matrix().nonZeros();
  EXPECT_EQ(pattern, m.nonZeros() + 3);  // the extras and the missing diagonal entry (2, 2)
  MatX expected = MatX::Zero(6, 6);
  for (int i = 0; i < 6; ++i) {
    J.clear_row(i);
    J.add_m_row(i, 0.5 * (i + 1), i);
    expected.row(i) = 0.5 * (i + 1) * M.row(i);
  }
  J.add(2, 2, 3.0);
  expected(2, 2) += 3.0;
  J.add(1, 4, -1.0);
  expected(1, 4) += -1.0;
  J.scale_row(3, -2.0);
  expected.row(3) *= -2.0;
  J.clear_row(5);
  J.add(5, 0, 7.0);
  expected.row(5).setZero();
  expected(5, 0) = 7.0;
  EXPECT_EQ(MatX(J.matrix()), expected);
  EXPECT_EQ(J.value(5, 0), 7.0);
  EXPECT_EQ(J.value(1, 4), -1.0);
  EXPECT_EQ(J.matrix().nonZeros(), pattern);
}

// A principal block of M by rows, in the order asked for, from the dense and the sparse form.
TEST(JacobianRows, PrincipalBlockOfEitherForm) {
  std::mt19937 rng(4);
  Lcp lcp;
  lcp.M = test::uniform(7, 7, rng);
  lcp.M(3, 5) = lcp.M(6, 3) = 0.0;
  lcp.q = VecX::Zero(7);
  const std::vector<int> index{6, 3, 5, 0};
  MatX expected(4, 4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) expected(i, j) = lcp.M(index[i], index[j]);
  SparseRowsX block;
  m_block_by_rows(lcp, index, block);
  EXPECT_EQ(MatX(block), expected);
  EXPECT_EQ(block.nonZeros(), 14);  // M(3, 5) and M(6, 3) are not stored
  make_sparse(lcp);
  m_block_by_rows(lcp, index, block);
  EXPECT_EQ(MatX(block), expected);
}

// On regular matrices the sparse LU's step is the dense LU's, and a singular or nearly singular
// matrix (reciprocal condition far below 1e-12) is refused.
TEST(SparseDirection, SolvesRegularSystemsAndRefusesSingularOnes) {
  std::mt19937 rng(5);
  SparseDirection direction;
  VecX dz;
  for (int n : {1, 5, 40}) {
    direction.reset();
    const MatX A = test::uniform(n, n, rng) + 2.0 * MatX::Identity(n, n);
    const VecX b = test::uniform(n, 1, rng);
    ASSERT_TRUE(direction.solve(sparse_rows(A), b, 1e-12, dz)) << n;
    const VecX dense = Eigen::PartialPivLU<MatX>(A).solve(b);
    EXPECT_LE((dz - dense).cwiseAbs().maxCoeff(), 1e-10 * (1.0 + dense.cwiseAbs().maxCoeff()));
  }
  const int n = 30;
  direction.reset();
  EXPECT_FALSE(direction.solve(sparse_rows(with_singular_values(n, n - 2, 1e-3, rng)),
                               VecX::Ones(n), 1e-12, dz));
  direction.reset();  // rank n with a smallest singular value of 1e-15
  EXPECT_FALSE(direction.solve(sparse_rows(with_singular_values(n, n, 1e-15, rng)), VecX::Ones(n),
                               1e-12, dz));
  direction.reset();  // 1e-9: accepted at 1e-12, refused at 1e-6
  const SparseRowsX mild = sparse_rows(with_singular_values(n, n, 1e-9, rng));
  EXPECT_TRUE(direction.solve(mild, VecX::Ones(n), 1e-12, dz));
  EXPECT_FALSE(direction.solve(mild, VecX::Ones(n), 1e-6, dz));
}

// Where the singular values are 1 .. 1e-3 and exact zeros, the iterated Tikhonov step at
// mu = 1e-6 is the minimum-norm least-squares step (the complete orthogonal decomposition's):
// to rounding where the system is consistent; where it is not, to the 1e-16 / mu^2 that the
// normal equations' rounding leaves along the null space (b's part outside J's range enters
// J^T b through rounding only).
TEST(SparseDirection, LeastSquaresIsTheMinimumNormStepAboveMu) {
  std::mt19937 rng(9);
  SparseDirection direction;
  VecX dz;
  const int n = 25;
  for (int rank : {25, 20, 12}) {
    const MatX A = with_singular_values(n, rank, 1e-3, rng);
    const VecX consistent = A * test::uniform(n, 1, rng);
    const VecX inconsistent = test::uniform(n, 1, rng);
    for (const VecX& b : {consistent, inconsistent}) {
      direction.reset();
      ASSERT_TRUE(direction.least_squares(sparse_rows(A), b, 1e-6, dz));
      const VecX minimum_norm = Eigen::CompleteOrthogonalDecomposition<MatX>(A).solve(b);
      const double agreement = &b == &consistent || rank == n ? 1e-8 : 1e-3;
      EXPECT_LE((dz - minimum_norm).norm(), agreement * minimum_norm.norm())
          << "rank " << rank << (&b == &consistent ? " consistent" : " inconsistent");
    }
  }
}

// A singular value of 1e-12 (1e6 below mu) among 1 .. 1e-3: the minimum-norm step follows its
// direction 1e12 far; this step leaves it out, as the decomposition truncated there would.
TEST(SparseDirection, LeastSquaresLeavesOutDirectionsFarBelowMu) {
  std::mt19937 rng(4);
  const int n = 25;
  const MatX A =
      with_singular_values(n, n - 1, 1e-3, rng) + 1e-12 * with_singular_values(n, 1, 1.0, rng);
  Eigen::JacobiSVD<MatX> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  ASSERT_LT(svd.singularValues()(n - 1), 1e-11);
  const VecX b = VecX::Ones(n);
  const VecX truncated =
      svd.matrixV().leftCols(n - 1) * (svd.matrixU().leftCols(n - 1).transpose() * b)
                                          .cwiseQuotient(svd.singularValues().head(n - 1));
  SparseDirection direction;
  VecX dz;
  ASSERT_TRUE(direction.least_squares(sparse_rows(A), b, 1e-6, dz));
  EXPECT_LE((dz - truncated).norm(), 1e-3 * truncated.norm());
  EXPECT_GT(svd.solve(b).norm(), 1e6 * truncated.norm());  // what the full inverse would do
}

}  // namespace
}  // namespace pegsim
