// Shared helpers of the solver tests: an independent check of a solution, the Siconos problems
// and seeded random problems.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/ncp.hpp"
#include "engine/solvers/solver.hpp"
#include "io/siconos_lcp.hpp"
#include "io/siconos_mlcp.hpp"

namespace pegsim {
// GoogleTest prints statuses by name.
inline void PrintTo(SolveStatus s, std::ostream* os) {
  *os << to_string(s);
}
}  // namespace pegsim

namespace pegsim::test {

// The accuracy every test asks of a solution: 1e-8 relative to the data, the solvers' default
// tolerance being 1e-10.
inline double accuracy(const Lcp& lcp) {
  return 1e-8 * (1.0 + lcp.q.cwiseAbs().maxCoeff());
}

// M as a dense matrix, whichever form the problem holds it in (the simulator's is sparse).
inline MatX dense_m(const Lcp& lcp) {
  return m_is_sparse(lcp) ? MatX(lcp.S) : lcp.M;
}

// dF/dz of an NCP at z (w = M z + q), dense, from Ncp::jacobian on its sparse pattern.
inline MatX ncp_jacobian(const Ncp& ncp, const VecX& z, const VecX& w) {
  SparseRowsX m;
  m_by_rows(ncp.linear, m);
  JacobianRows J;
  ncp_jacobian_pattern(ncp, m, J);
  ncp.jacobian(z, w, J);
  return MatX(J.matrix());
}

// ||min(z, M z + q)||_inf recomputed here, independently of natural_residual and the report.
inline double own_residual(const Lcp& lcp, const VecX& z) {
  const MatX M = dense_m(lcp);
  double r = 0.0;
  for (int i = 0; i < lcp.size(); ++i) {
    double w = lcp.q(i);
    for (int j = 0; j < lcp.size(); ++j) w += M(i, j) * z(j);
    r = std::max(r, std::abs(std::min(z(i), w)));
  }
  return r;
}

// z solves the LCP to `accuracy(lcp)`: finite, z >= 0, w = M z + q >= -tol, z_i w_i ~ 0 and the
// natural residual small.
inline ::testing::AssertionResult is_solution(const Lcp& lcp, const VecX& z) {
  const double tol = accuracy(lcp);
  if (z.size() != lcp.size())
    return ::testing::AssertionFailure() << "z has size " << z.size() << ", not " << lcp.size();
  if (!z.allFinite()) return ::testing::AssertionFailure() << "z is not finite";
  if (z.minCoeff() < 0.0) return ::testing::AssertionFailure() << "min z = " << z.minCoeff();
  const VecX w = dense_m(lcp) * z + lcp.q;
  if (w.minCoeff() < -tol)
    return ::testing::AssertionFailure() << "min w = " << w.minCoeff() << " < -" << tol;
  for (int i = 0; i < lcp.size(); ++i)
    if (std::abs(z(i) * w(i)) > tol * (1.0 + std::max(std::abs(z(i)), std::abs(w(i)))))
      return ::testing::AssertionFailure()
             << "z_" << i << " w_" << i << " = " << z(i) << " * " << w(i) << " not complementary";
  const double r = own_residual(lcp, z);
  if (r > tol) return ::testing::AssertionFailure() << "natural residual " << r << " > " << tol;
  return ::testing::AssertionSuccess();
}

// The report is consistent with z: residual_history non-empty and ending on report.residual,
// which is the natural residual of the returned z.
inline ::testing::AssertionResult report_matches(const Lcp& lcp, const VecX& z,
                                                 const SolveReport& report) {
  if (report.residual_history.empty())
    return ::testing::AssertionFailure() << "empty residual history";
  if (report.residual_history.back() != report.residual)
    return ::testing::AssertionFailure() << "history ends on " << report.residual_history.back()
                                         << ", report.residual is " << report.residual;
  const double own = own_residual(lcp, z);
  const double slack =
      1e-13 * (1.0 + lcp.q.cwiseAbs().maxCoeff() + m_max_abs(lcp) * z.cwiseAbs().sum());
  if (!(std::abs(report.residual - own) <= slack))
    return ::testing::AssertionFailure()
           << "report.residual " << report.residual << " but z has residual " << own;
  return ::testing::AssertionSuccess();
}

// One solve with a fresh solver; z starts as given (used only with options.warm_start).
struct Run {
  SolveReport report;
  VecX z;
};

inline Run run(const std::string& solver, const Lcp& lcp, const SolverOptions& options = {},
               VecX z = VecX()) {
  const auto s = make_solver(solver);
  EXPECT_NE(s, nullptr) << solver;
  Run r;
  if (!s) return r;
  r.report = s->solve(lcp, z, options);
  r.z = z;
  return r;
}

inline std::string describe(const Run& r) {
  return std::string(to_string(r.report.status)) + ", " + std::to_string(r.report.iterations) +
         " iterations, residual " + std::to_string(r.report.residual) + ": " + r.report.message;
}

// z solves the MCP l <= z <= u _|_ w = M z + q to `accuracy(lcp)`, checked row by row: inside
// the bounds; at l, w >= 0; at u, w <= 0; strictly between, w = 0.
inline ::testing::AssertionResult is_mcp_solution(const Lcp& lcp, const VecX& z) {
  const double tol = accuracy(lcp);
  if (z.size() != lcp.size())
    return ::testing::AssertionFailure() << "z has size " << z.size() << ", not " << lcp.size();
  if (!z.allFinite()) return ::testing::AssertionFailure() << "z is not finite";
  const VecX w = dense_m(lcp) * z + lcp.q;
  for (int i = 0; i < lcp.size(); ++i) {
    const double l = lcp.has_bounds() ? lcp.lower(i) : 0.0;
    const double u = lcp.has_bounds() ? lcp.upper(i) : INFINITY;
    const double near = tol * (1.0 + std::abs(z(i)));
    if (z(i) < l - near || z(i) > u + near)
      return ::testing::AssertionFailure()
             << "z_" << i << " = " << z(i) << " outside [" << l << ", " << u << "]";
    const bool at_l = z(i) - l <= near, at_u = u - z(i) <= near;
    const bool ok = (at_l && w(i) >= -tol) || (at_u && w(i) <= tol) || std::abs(w(i)) <= tol;
    if (!ok)
      return ::testing::AssertionFailure() << "row " << i << ": z = " << z(i) << " in [" << l
                                           << ", " << u << "] but w = " << w(i);
  }
  return ::testing::AssertionSuccess();
}

inline Lcp siconos_mlcp(const std::string& name) {
  return read_siconos_mlcp(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "siconos-mlcp" /
                           (name + "_mlcp.dat"));
}

// The Siconos problems that have a solution (NOTICE.md, and by hand: the CPS and Pang ones
// are positive semidefinite and feasible, or have an explicit solution).
inline const std::vector<std::string> kSolvableSiconos = {
    "lcp_mmc",
    "lcp_deudeu",
    "lcp_deudeu_block",
    "lcp_trivial",
    "lcp_trivial_block",
    "lcp_ortiz",
    "lcp_ortiz_block",
    "lcp_exp_murty",
    "lcp_exp_murty2",
    "lcp_CPS_1",
    "lcp_CPS_2",
    "lcp_CPS_4",
    "lcp_CPS_4bis",
    "lcp_CPS_5",
    "lcp_Pang_isolated_sol",
    "lcp_inf_sol_perturbed",
    "lcp_enum_fails",
    "lcp_tobenna",
};

inline Lcp siconos(const std::string& name) {
  return read_siconos_lcp(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "siconos-lcp" /
                          (name + ".dat"));
}

inline MatX uniform(int rows, int cols, std::mt19937& rng, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> u(lo, hi);
  MatX A(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) A(i, j) = u(rng);
  return A;
}

// Symmetric positive definite: M = A A^T + I, q uniform in [-1, 1].
inline Lcp random_spd(int n, std::mt19937& rng) {
  const MatX A = uniform(n, n, rng);
  Lcp lcp;
  lcp.M = A * A.transpose() + MatX::Identity(n, n);
  lcp.q = uniform(n, 1, rng);
  return lcp;
}

// Non-symmetric P-matrix: strictly row diagonally dominant with a positive diagonal (each of
// its principal submatrices is too, so every principal minor is positive).
inline Lcp random_dominant(int n, std::mt19937& rng) {
  Lcp lcp;
  lcp.M = uniform(n, n, rng);
  const VecX margin = uniform(n, 1, rng, 0.1, 1.0);
  for (int i = 0; i < n; ++i) {
    lcp.M(i, i) = 0.0;
    lcp.M(i, i) = lcp.M.row(i).cwiseAbs().sum() + margin(i);
  }
  lcp.q = uniform(n, 1, rng);
  return lcp;
}

// Fixed-seed random problems, sizes 5..60: symmetric positive definite and strictly diagonally
// dominant (both P-matrices), each Solved with a verified solution and a matching report.
inline void expect_solves_random_problems(const std::string& solver) {
  std::mt19937 rng(20240611);
  for (int n : {5, 8, 13, 21, 34, 60})
    for (int trial = 0; trial < 3; ++trial)
      for (const bool symmetric : {true, false}) {
        const Lcp lcp = symmetric ? random_spd(n, rng) : random_dominant(n, rng);
        const Run r = run(solver, lcp);
        const std::string what = (symmetric ? "spd n = " : "dominant n = ") + std::to_string(n) +
                                 " trial " + std::to_string(trial) + ": " + describe(r);
        EXPECT_EQ(r.report.status, SolveStatus::Solved) << what;
        EXPECT_TRUE(is_solution(lcp, r.z)) << what;
        EXPECT_TRUE(report_matches(lcp, r.z, r.report)) << what;
      }
}

}  // namespace pegsim::test
