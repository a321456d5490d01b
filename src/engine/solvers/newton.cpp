#include "engine/solvers/newton.hpp"

#include <chrono>
#include <cmath>
#include <string>

namespace pegsim {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kArmijo = 1e-4;      // sufficient decrease of psi per unit of directional slope
constexpr double kMinStep = 1e-12;    // the line search gives up below this step length

}  // namespace

void NewtonSolver::evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& H) const {
  w.noalias() = lcp.M * z;
  w += lcp.q;
  H.resize(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    if (map_ == Map::MinMap) H(i) = std::min(z(i), w(i));
    else H(i) = std::hypot(z(i), w(i)) - z(i) - w(i);
  }
}

// An element of the generalized (B- or C-) Jacobian of H at z.
//   minmap:  row i is e_i^T where z_i <= w_i, else M_i (Erleben eq. 47);
//   Fischer: row i is (z_i / r - 1) e_i^T + (w_i / r - 1) M_i with r = |(z_i, w_i)|; at the
//            kink r = 0 any direction of the unit circle is valid: (1/√2, 1/√2) is used.
void NewtonSolver::jacobian(const Lcp& lcp, const VecX& z, const VecX& w) {
  const Eigen::Index n = z.size();
  J_.resize(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (map_ == Map::MinMap) {
      if (z(i) <= w(i)) {
        J_.row(i).setZero();
        J_(i, i) = 1.0;
      } else {
        J_.row(i) = lcp.M.row(i);
      }
      continue;
    }
    const double r = std::hypot(z(i), w(i));
    const double a = r > 0.0 ? z(i) / r - 1.0 : M_SQRT1_2 - 1.0;
    const double b = r > 0.0 ? w(i) / r - 1.0 : M_SQRT1_2 - 1.0;
    J_.row(i) = b * lcp.M.row(i);
    J_(i, i) += a;
  }
}

SolveReport NewtonSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = Clock::now();
  SolveReport report;
  report.solver = std::string(name());
  const int n = lcp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    z = z.cwiseMax(0.0);  // H = 0 only at z >= 0; a tiny negative entry is rounding
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };
  if (!(options.warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  if (const char* defect = lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (n == 0) return finish(SolveStatus::Solved, "");

  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  evaluate(lcp, z, w_, H_);
  for (int k = 1; k <= options.max_iterations; ++k) {
    if (z.cwiseMax(0.0).cwiseMin(w_).cwiseAbs().maxCoeff() <= tolerance &&
        natural_residual(lcp, z.cwiseMax(0.0)) <= tolerance)
      return finish(SolveStatus::Solved, "");
    const double psi = 0.5 * H_.squaredNorm();
    jacobian(lcp, z, w_);
    grad_.noalias() = J_.transpose() * H_;
    lu_.compute(J_);
    dz_ = -lu_.solve(H_);
    double slope = grad_.dot(dz_);
    // Newton direction unusable (singular J, or not downhill on psi): steepest descent.
    if (!dz_.allFinite() || !(slope < 0.0)) {
      dz_ = -grad_;
      slope = -grad_.squaredNorm();
    }
    double step = 1.0;
    bool decreased = false;
    while (step >= kMinStep) {
      trial_ = z + step * dz_;
      evaluate(lcp, trial_, w_trial_, H_trial_);
      if (0.5 * H_trial_.squaredNorm() <= psi + kArmijo * step * slope) {
        decreased = true;
        break;
      }
      step *= 0.5;
    }
    report.iterations = k;
    // At the limit of the arithmetic (singular J on degenerate contact problems) psi stops
    // decreasing; the active set is usually right by then.
    if (!decreased && active_set_solution(lcp, z, w_, tolerance, trial_)) {
      z.swap(trial_);
      return finish(SolveStatus::Solved, "");
    }
    if (!decreased)
      return finish(SolveStatus::NumericalFailure,
                    "the line search found no decrease of the merit function (a local minimum "
                    "of |H|^2 that is no solution)");
    z.swap(trial_);
    w_.swap(w_trial_);
    H_.swap(H_trial_);
    report.residual_history.push_back(natural_residual(lcp, z.cwiseMax(0.0)));
  }
  if (natural_residual(lcp, z.cwiseMax(0.0)) <= tolerance) return finish(SolveStatus::Solved, "");
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
