#include "engine/solvers/interior_point.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

constexpr double kToBoundary = 0.995;  // fraction of the step to the boundary of z, w > 0

// Largest alpha in (0, 1] with x + alpha dx >= 0.
double step_to_boundary(const VecX& x, const VecX& dx) {
  double alpha = 1.0;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (dx(i) < 0.0) alpha = std::min(alpha, -x(i) / dx(i));
  return alpha;
}

}  // namespace

SolveReport InteriorPointSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = "interior-point";
  const int n = lcp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };
  if (const char* defect = lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (n == 0) return finish(SolveStatus::Solved, "");
  const double q_norm = lcp.q.cwiseAbs().maxCoeff();
  const double tolerance = options.tolerance * (1.0 + q_norm);

  // A warm start is no help to an interior method (its iterates must stay off the boundary):
  // the start is z = w = (1 + |q|) e, infeasible in w = M z + q.
  z.setConstant(n, 1.0 + q_norm);
  w_.setConstant(n, 1.0 + q_norm);
  VecX best = VecX::Zero(n);
  double best_residual = natural_residual(lcp, best);
  m_by_rows(lcp, m_rows_);
  K_.set_pattern(m_rows_, {});
  bool ordered = false;  // K's columns ordered for the sparse LU (its pattern is fixed)
  tried_.clear();        // the active set the crossover last failed on

  for (int k = 1; k <= options.max_iterations; ++k) {
    multiply_m(lcp, z, r_);
    r_ = w_ - r_ - lcp.q;  // primal infeasibility w - M z - q
    const double mu = z.dot(w_) / n;

    // Newton system of (w - M z - q = 0, z o w = target): with dw = M dz - r,
    // (Z M + W) dz = target - z o w + Z r.
    for (int i = 0; i < n; ++i) {
      K_.clear_row(i);
      K_.add_m_row(i, z(i), i);
      K_.add(i, i, w_(i));
    }
    K_columns_ = K_.matrix();
    if (!ordered) lu_.analyzePattern(K_columns_);
    ordered = true;
    lu_.factorize(K_columns_);
    if (lu_.info() != Eigen::Success) {
      z = best;
      return finish(SolveStatus::NumericalFailure, "the Newton system became singular");
    }
    // Predictor (affine scaling, target 0), then Mehrotra's centring sigma = (mu_aff / mu)^3
    // and the second-order correction -dz_aff o dw_aff.
    rhs_ = -z.cwiseProduct(w_) + z.cwiseProduct(r_);
    dz_aff_ = lu_.solve(rhs_);
    multiply_m(lcp, dz_aff_, dw_aff_);
    dw_aff_ -= r_;
    const double alpha_aff = std::min(step_to_boundary(z, dz_aff_), step_to_boundary(w_, dw_aff_));
    const double mu_aff = (z + alpha_aff * dz_aff_).dot(w_ + alpha_aff * dw_aff_) / n;
    const double sigma = std::pow(std::max(0.0, mu_aff) / mu, 3);
    rhs_.array() += sigma * mu - dz_aff_.array() * dw_aff_.array();
    dz_ = lu_.solve(rhs_);
    if (!dz_.allFinite()) {
      z = best;
      return finish(SolveStatus::NumericalFailure, "the Newton system became singular");
    }
    multiply_m(lcp, dz_, dw_);
    dw_ -= r_;
    const double alpha =
        std::min(1.0, kToBoundary * std::min(step_to_boundary(z, dz_), step_to_boundary(w_, dw_)));
    z += alpha * dz_;
    w_ += alpha * dw_;
    report.iterations = k;

    const double residual = natural_residual(lcp, z);
    if (residual < best_residual) {
      best_residual = residual;
      best = z;
    }
    // The crossover, once the gap is small; its answer depends on the active set alone, so a
    // set it has failed on is not tried again.
    if (z.dot(w_) / n < 1e-6 * (1.0 + q_norm)) {
      active_.resize(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) active_[static_cast<std::size_t>(i)] = z(i) > w_(i);
      if (active_ != tried_) {
        if (active_set_solution(lcp, z, w_, tolerance, candidate_)) {
          z = candidate_;
          if (report.keep_history) report.record(natural_residual(lcp, z));
          return finish(SolveStatus::Solved, "");
        }
        tried_ = active_;
      }
    }
    report.record(residual);
    if (residual <= tolerance) return finish(SolveStatus::Solved, "");
    if (!z.allFinite() || !w_.allFinite()) {
      z = best;
      return finish(SolveStatus::NumericalFailure, "the iterates became non-finite");
    }
    if (options.out_of_time()) {
      z = best;
      return finish(SolveStatus::TimeBudget, time_budget_message(k));
    }
  }
  z = best;
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
