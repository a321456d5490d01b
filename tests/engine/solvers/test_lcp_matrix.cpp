// M held by its nonzeros reads and multiplies exactly as the dense M: same bits, so a run does
// not depend on the form its problems were stored in.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "engine/solvers/lcp.hpp"
#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

// A random n x n M with about `fill` of its entries nonzero plus the diagonal, and q.
Lcp random_problem(int n, double fill, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-2.0, 2.0), u(0.0, 1.0);
  Lcp lcp;
  lcp.M.setZero(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (i == j || u(rng) < fill) lcp.M(i, j) = value(rng);
  lcp.q = VecX::NullaryExpr(n, [&]() { return value(rng); });
  return lcp;
}

// z with zeros, negative zeros and both signs, as solvers' iterates have.
VecX random_vector(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0), u(0.0, 1.0);
  VecX z(n);
  for (int i = 0; i < n; ++i) {
    const double r = u(rng);
    z(i) = r < 0.2 ? 0.0 : r < 0.25 ? -0.0 : value(rng);
  }
  return z;
}

bool same_bits(const VecX& a, const VecX& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

Lcp sparse_copy(const Lcp& dense) {
  Lcp s = dense;
  make_sparse(s);
  return s;
}

// Around each of the dense product's chunk sizes: all columns below 128, 16 below 4000 rows, 4
// from there (Eigen 3.4, GeneralMatrixVector.h). If Eigen or the compiler flags (FMA) change the
// dense sums, this test says so.
TEST(LcpMatrix, SparseProductHasTheDenseProductsBits) {
  for (int n : {1, 7, 50, 127, 128, 129, 360, 900, 4000}) {
    const Lcp dense = random_problem(n, n < 1000 ? 0.1 : 0.01, 11u + static_cast<unsigned>(n));
    const Lcp sparse = sparse_copy(dense);
    ASSERT_TRUE(m_is_sparse(sparse));
    ASSERT_EQ(dense.M.size(), static_cast<Eigen::Index>(n) * n);
    for (unsigned seed : {1u, 2u}) {
      const VecX z = random_vector(n, seed);
      const VecX expected = dense.M * z;
      VecX y;
      multiply_m(sparse, z, y);
      EXPECT_TRUE(same_bits(y, expected)) << "n = " << n;
      EXPECT_EQ(natural_residual(sparse, z), natural_residual(dense, z)) << "n = " << n;
    }
  }
}

TEST(LcpMatrix, SparseColumnBlockProductAddsWhatTheDenseOneAdds) {
  for (int n : {60, 360, 4000}) {
    const Lcp dense = random_problem(n, n < 1000 ? 0.1 : 0.01, 5u + static_cast<unsigned>(n));
    const Lcp sparse = sparse_copy(dense);
    for (int count : {1, 7, 16, 17, 127, 128, 200}) {
      if (count > n) continue;
      const int first = (n - count) / 3;
      const VecX x = random_vector(count, static_cast<unsigned>(count));
      VecX expected = random_vector(n, 99u);
      VecX y = expected;
      expected.noalias() += dense.M.middleCols(first, count) * x;
      add_columns_product(sparse, first, count, x, y);
      EXPECT_TRUE(same_bits(y, expected)) << "n = " << n << ", columns " << first << " + " << count;
    }
  }
}

TEST(LcpMatrix, EntriesBlocksAndTheDenseCopyAgree) {
  const Lcp dense = random_problem(40, 0.2, 3u);
  const Lcp sparse = sparse_copy(dense);
  EXPECT_EQ(sparse.S.nonZeros(), (dense.M.array() != 0.0).count());
  EXPECT_EQ(m_max_abs(sparse), m_max_abs(dense));
  const std::vector<int> rows = {3, 0, 17, 3, 39}, cols = {39, 5, 5, 0};
  MatX a, b;
  gather_m(dense, rows, cols, a);
  gather_m(sparse, rows, cols, b);
  EXPECT_EQ(a, b);
  for (int j = 0; j < 40; ++j)
    for (int i = 0; i < 40; ++i) EXPECT_EQ(m_entry(sparse, i, j), dense.M(i, j));
  Lcp workspace;
  EXPECT_EQ(&with_dense_m(dense, workspace), &dense);
  const Lcp& copy = with_dense_m(sparse, workspace);
  EXPECT_EQ(copy.M, dense.M);
  EXPECT_EQ(copy.q, dense.q);
  Lcp back = sparse;
  make_dense(back);
  EXPECT_FALSE(m_is_sparse(back));
  EXPECT_EQ(back.M, dense.M);
}

TEST(LcpMatrix, TheInputCheckReadsTheSparseForm) {
  Lcp sparse = sparse_copy(random_problem(30, 0.2, 4u));
  EXPECT_EQ(lcp_defect(sparse), nullptr);
  sparse.S.coeffRef(4, 7) = std::numeric_limits<double>::quiet_NaN();
  ASSERT_NE(lcp_defect(sparse), nullptr);
  EXPECT_STREQ(lcp_defect(sparse), "M or q has a non-finite entry");
  Lcp wrong = sparse_copy(random_problem(30, 0.2, 4u));
  wrong.q.resize(29);
  EXPECT_STREQ(lcp_defect(wrong), "M is not square of the size of q");
}

}  // namespace
}  // namespace pegsim
