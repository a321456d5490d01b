// Sparse LU with a condition estimate, and the regularized least-squares step
// (sparse_direction.hpp).
#include "engine/solvers/sparse_direction.hpp"

#include <cmath>

namespace pegsim {
namespace {

constexpr int kRefinements = 2;  // iterated Tikhonov rounds after the first (sparse_direction.hpp)

double one_norm(const SparseMatX& A) {
  double norm = 0.0;
  for (int j = 0; j < A.outerSize(); ++j) {
    double column = 0.0;
    for (SparseMatX::InnerIterator it(A, j); it; ++it) column += std::abs(it.value());
    norm = std::max(norm, column);
  }
  return norm;
}

}  // namespace

// Higham's Alg. 4.1: the power method's sign iteration for max |A^-1 x|_1 over |x|_1 = 1
// (at most five rounds), then the alternating test vector that catches its worst cases.
double SparseDirection::inverse_norm_estimate() {
  const Eigen::Index n = J_.rows();
  x_ = VecX::Constant(n, 1.0 / static_cast<double>(n));
  double estimate = 0.0;
  for (int round = 0; round < 5; ++round) {
    y_ = lu_.solve(x_);
    const double norm = y_.lpNorm<1>();
    if (round > 0 && norm <= estimate) break;
    estimate = norm;
    for (Eigen::Index i = 0; i < n; ++i) y_(i) = y_(i) >= 0.0 ? 1.0 : -1.0;
    g_ = lu_.transpose().solve(y_);
    Eigen::Index j = 0;
    const double largest = g_.cwiseAbs().maxCoeff(&j);
    if (largest <= g_.dot(x_)) break;
    x_.setZero();
    x_(j) = 1.0;
  }
  for (Eigen::Index i = 0; i < n; ++i)
    x_(i) = (i % 2 == 0 ? 1.0 : -1.0) *
            (1.0 + static_cast<double>(i) / static_cast<double>(std::max<Eigen::Index>(n - 1, 1)));
  y_ = lu_.solve(x_);
  return std::max(estimate, 2.0 * y_.lpNorm<1>() / (3.0 * static_cast<double>(n)));
}

bool SparseDirection::solve(const SparseRowsX& J, const VecX& b, double singular, VecX& dz) {
  J_ = J;  // column-major for SuperLU's column ordering
  if (!lu_ordered_) {
    lu_.analyzePattern(J_);
    lu_ordered_ = true;
  }
  lu_.factorize(J_);
  if (lu_.info() != Eigen::Success) return false;
  const double norm = one_norm(J_);
  const double inverse = inverse_norm_estimate();
  if (!(norm > 0.0) || !std::isfinite(inverse) || !(1.0 / (norm * inverse) > singular))
    return false;
  dz = lu_.solve(b);
  return dz.allFinite();
}

bool SparseDirection::least_squares(const SparseRowsX& J, const VecX& b, double relative,
                                    VecX& dz) {
  J_ = J;
  N_ = J_.transpose() * J_;
  double largest = 0.0;
  for (int j = 0; j < N_.outerSize(); ++j) largest = std::max(largest, N_.coeff(j, j));
  const double mu2 = relative * relative * (largest > 0.0 ? largest : 1.0);
  for (int j = 0; j < N_.outerSize(); ++j) N_.coeffRef(j, j) += mu2;
  if (!ldlt_ordered_ || N_.nonZeros() != ldlt_nonzeros_) {
    ldlt_.analyzePattern(N_);
    ldlt_ordered_ = true;
    ldlt_nonzeros_ = N_.nonZeros();
  }
  ldlt_.factorize(N_);
  if (ldlt_.info() != Eigen::Success) return false;
  g_.noalias() = J_.transpose() * b;
  dz = ldlt_.solve(g_);
  for (int round = 0; round < kRefinements; ++round) {
    r_.noalias() = J_ * dz;
    y_.noalias() = J_.transpose() * r_;
    r_ = g_ - y_;
    dz += ldlt_.solve(r_);
  }
  return dz.allFinite();
}

bool SparseDirection::solve_or_least_squares(const SparseRowsX& J, const VecX& b, VecX& dz) {
  return solve(J, b, kSingular, dz) || least_squares(J, b, kMu, dz);
}

}  // namespace pegsim
