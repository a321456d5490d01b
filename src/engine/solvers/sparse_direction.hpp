// Newton directions from a sparse generalized Jacobian J (jacobian_rows.hpp), for the Newton
// methods on the LCP and the NCP (newton.hpp, proximal_newton.hpp, ncp_crossover.hpp):
//  - J dz = b by a sparse LU (SuperLU's supernodal algorithm in Eigen's SparseLU, COLAMD column
//    order fixed per pattern) when J is regular: no zero pivot and a reciprocal condition number
//    above a threshold, estimated in the 1-norm by Hager's method as refined by Higham
//    ("FORTRAN codes for estimating the one-norm of a real or complex matrix", ACM TOMS 14, 1988,
//    Alg. 4.1; LAPACK's xLACON and Eigen's dense LU estimate it the same way), from a few solves
//    with the factors;
//  - where J is singular (contact problems make it so: coplanar contacts share their load in any
//    proportion, frictionless contacts leave columns empty), a regularized least-squares step,
//    iterated Tikhonov: from dz = 0, three times
//      dz += (J^T J + mu^2 I)^-1 J^T (b - J dz)
//    with one sparse Cholesky (LDL^T) factorization of J^T J + mu^2 I. Along a singular vector of
//    J with singular value s it gives the minimum-norm least-squares step's 1 / s times the
//    filter 1 - (mu^2 / (s^2 + mu^2))^3: 1 where s >> mu, 0 on the null space, and a smooth cut
//    near s = mu below which directions the arithmetic cannot resolve are left out (what a rank
//    threshold does in a complete orthogonal decomposition, without a dense n x n factorization).
//    The later rounds also refine the normal equations' rounding (their condition is 1 / mu^2).
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "engine/solvers/jacobian_rows.hpp"

namespace pegsim {

class SparseDirection {
 public:
  // The Newton methods' choices: LU's reciprocal condition at or below which J counts singular
  // (as with their dense LU before), and mu of the least-squares step relative to J's largest
  // column.
  static constexpr double kSingular = 1e-12;
  static constexpr double kMu = 1e-6;
  // A new pattern follows: the next factorizations order their columns afresh.
  void reset() { lu_ordered_ = ldlt_ordered_ = false; }
  // dz = J^-1 b; false when J is singular: a zero pivot, an estimated reciprocal condition
  // number in the 1-norm at or below `singular`, or a non-finite dz.
  bool solve(const SparseRowsX& J, const VecX& b, double singular, VecX& dz);
  // The iterated Tikhonov step above with mu = relative * (J's largest column norm).
  // False only when the factorization fails (J non-finite).
  bool least_squares(const SparseRowsX& J, const VecX& b, double relative, VecX& dz);
  // solve() with kSingular where J is regular, else least_squares() with kMu: the step of a
  // minimum-norm solver without its dense factorization. False only when both fail.
  bool solve_or_least_squares(const SparseRowsX& J, const VecX& b, VecX& dz);

 private:
  // An estimate of |J^-1|_1 from the current LU factors.
  double inverse_norm_estimate();

  SparseMatX J_, N_;
  Eigen::SparseLU<SparseMatX, Eigen::COLAMDOrdering<int>> lu_;
  Eigen::SimplicialLDLT<SparseMatX> ldlt_;
  bool lu_ordered_ = false, ldlt_ordered_ = false;
  Eigen::Index ldlt_nonzeros_ = 0;
  VecX x_, y_, g_, r_;
};

}  // namespace pegsim
