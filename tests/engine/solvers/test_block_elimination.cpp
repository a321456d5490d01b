// BlockElimination against a dense LU on systems with the implicit step's structure: blocks of
// local unknowns coupled to a few shared ones.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "engine/solvers/block_elimination.hpp"

namespace pegsim {
namespace {

// `shared` unknowns first, then `blocks` blocks of `size`; block k's rows and columns reach its
// own unknowns and shared unknowns k % shared .. k % shared + 2 (a pair and its bodies).
struct Structured {
  Eigen::SparseMatrix<double> A;
  std::vector<std::vector<int>> blocks;
};

Structured structured(int shared, int blocks, int size, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = shared + blocks * size;
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < shared; ++i) t.emplace_back(i, i, 4.0 + u(rng));
  Structured s;
  for (int k = 0; k < blocks; ++k) {
    std::vector<int>& g = s.blocks.emplace_back();
    for (int i = 0; i < size; ++i) g.push_back(shared + k * size + i);
    for (int r : g) {
      for (int c : g) t.emplace_back(r, c, u(rng) + (r == c ? 3.0 : 0.0));
      for (int j = 0; j < 3; ++j) {
        const int b = (k + j) % shared;
        t.emplace_back(r, b, u(rng));
        t.emplace_back(b, r, u(rng));
      }
    }
  }
  s.A.resize(n, n);
  s.A.setFromTriplets(t.begin(), t.end());
  return s;
}

TEST(BlockElimination, SolvesLikeADenseLuAndKeepsItsPatternFromCallToCall) {
  std::mt19937 rng(7);
  Structured s = structured(12, 20, 8, rng);
  BlockElimination elimination(s.blocks);
  for (int call = 0; call < 3; ++call) {
    for (int k = 0; k < s.A.outerSize(); ++k)
      for (Eigen::SparseMatrix<double>::InnerIterator it(s.A, k); it; ++it)
        it.valueRef() *= 1.0 + 0.1 * call;  // new values, same pattern
    const VecX b = VecX::LinSpaced(s.A.rows(), -1.0, 2.0);
    VecX x;
    ASSERT_TRUE(elimination.solve(s.A, b, x)) << "call " << call;
    const VecX dense = Eigen::PartialPivLU<MatX>(MatX(s.A)).solve(b);
    EXPECT_LE((x - dense).cwiseAbs().maxCoeff(), 1e-10 * dense.cwiseAbs().maxCoeff());
  }
}

TEST(BlockElimination, DeclinesSingularBlocksAndBlocksThatReachEachOther) {
  std::mt19937 rng(8);
  const VecX b = VecX::Ones(12 + 4 * 3);
  VecX x;
  Structured singular = structured(12, 4, 3, rng);
  const int g = singular.blocks[2][1];
  for (int c : singular.blocks[2]) singular.A.coeffRef(g, c) = 0.0;  // a zero row of A_gg
  EXPECT_FALSE(BlockElimination(singular.blocks).solve(singular.A, b, x));
  Structured coupled = structured(12, 4, 3, rng);
  coupled.A.coeffRef(coupled.blocks[0][0], coupled.blocks[1][0]) = 1.0;
  EXPECT_FALSE(BlockElimination(coupled.blocks).solve(coupled.A, b, x));
}

}  // namespace
}  // namespace pegsim
