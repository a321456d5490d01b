// solve_mcp_newton on small mixed complementarity problems with known answers.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/solvers/mcp_newton.hpp"

namespace pegsim {
namespace {

// A particle of mass m moving down at v0 onto n floors at once (a body on near-redundant
// contacts): unknowns (v, p_1 .. p_n), rows
//   m (v - v0) - sum_i p_i = 0                 Newton-Euler, free
//   0 <= p_i _|_ v + i d >= 0                  floor i's gap rate, floor i lower by i d h
// Floor 1 holds the particle (v = -d, p_1 = -m (v0 + d)); the others open by (i - 1) d and carry
// nothing. For small d the floors' rows are redundant to within d: Newton's linearization with
// several floors active is inconsistent by d, and without the proximal term on the impulses'
// rows its direction is huge along their near null space.
NonlinearMcp floors(int n, double m, double v0, double d) {
  NonlinearMcp mcp;
  mcp.size = n + 1;
  mcp.bounded.assign(std::size_t(n + 1), 1);
  mcp.bounded[0] = 0;
  mcp.proximal.assign(std::size_t(n + 1), 1);
  mcp.proximal[0] = 0;
  mcp.evaluate = [=](const VecX& z, VecX& F, SparseMatrix* J) {
    F.resize(n + 1);
    F(0) = m * (z(0) - v0);
    std::vector<Eigen::Triplet<double>> t{{0, 0, m}};
    for (int i = 1; i <= n; ++i) {
      F(0) -= z(i);
      F(i) = z(0) + i * d;
      t.emplace_back(0, i, -1.0);
      t.emplace_back(i, 0, 1.0);
      t.emplace_back(i, i, 0.0);
    }
    if (J) {
      J->resize(n + 1, n + 1);
      J->setFromTriplets(t.begin(), t.end());
    }
  };
  return mcp;
}

TEST(McpNewton, NearRedundantContactsAreSolvedWithTheHoldingFloorAlone) {
  const double m = 2.0, v0 = -0.5;
  for (double d : {1e-9, 1e-7, 1e-5, 1e-3})
    for (double start : {0.0, 0.2, 1.0}) {
      const NonlinearMcp mcp = floors(4, m, v0, d);
      VecX z = VecX::Constant(5, start);
      const McpNewtonReport report = solve_mcp_newton(mcp, z);
      ASSERT_TRUE(report.solved) << "d " << d << ", start " << start << ": " << report.failure;
      EXPECT_LE(report.residual, 1e-10);
      EXPECT_NEAR(z(0), -d, 1e-10);
      EXPECT_NEAR(z(1), -m * (v0 + d), 1e-10);
      for (int i = 2; i <= 4; ++i) EXPECT_NEAR(z(i), 0.0, 1e-10) << "floor " << i;
    }
}

}  // namespace
}  // namespace pegsim
