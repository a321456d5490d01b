// The proximal-point Newton method on Alart–Curnier's equations (proximal_newton.hpp).
#include "engine/solvers/proximal_newton.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

constexpr double kFirstEps = 1e-2;  // measured on pour20's unsolved steps (docs/solvers.md)
constexpr double kLargestEps = 1e-1;
constexpr double kSmallestEps = 1e-10;
constexpr int kSubproblemSteps = 50;  // Newton steps per subproblem
constexpr int kSubproblems = 200;
constexpr int kRetry = 10;  // solved subproblems in a row after which a stalled eps is retried

}  // namespace

void ProximalNewton::direction() {
  rhs_ = -G_;
  if (!direction_.solve_or_least_squares(J_.matrix(), rhs_, dz_)) dz_.setZero(G_.size());
}

void ProximalNewton::set_diagonal(double eps) {
  // M's zero diagonal entries (slip rows) stay zero and unstored.
  for (int i = 0; i < proximal_.size(); ++i) {
    if (diagonal_(i) == 0.0) continue;
    proximal_.linear.S.coeffRef(i, i) = (1.0 + eps) * diagonal_(i);
    m_rows_.coeffRef(i, i) = (1.0 + eps) * diagonal_(i);
  }
}

bool ProximalNewton::newton(const Ncp& ncp, VecX& z, double tolerance, double inner_tolerance,
                            int steps, SolveReport& report) {
  const Lcp& lin = proximal_.linear;
  proximal_.evaluate(z, w_, F_);
  equations_.residual(proximal_, z, w_, G_);
  for (int step = 0; step < steps; ++step) {
    if (natural_residual_at(proximal_, z, F_) <= inner_tolerance) return true;
    equations_.jacobian(proximal_, z, w_, J_);
    direction();
    // Armijo's backtracking on |G|^2 / 2 along the direction.
    const double psi = 0.5 * G_.squaredNorm();
    bool accepted = false;
    for (double s = 1.0; s > 1e-12 && !accepted; s *= 0.5) {
      trial_ = z + s * dz_;
      multiply_m(lin, trial_, w_trial_);
      w_trial_ += lin.q;
      equations_.residual(proximal_, trial_, w_trial_, G_trial_);
      accepted = 0.5 * G_trial_.squaredNorm() <= (1.0 - 1e-4 * s) * psi;
    }
    ++report.iterations;
    if (!accepted) return false;
    z.swap(trial_);
    G_.swap(G_trial_);
    proximal_.evaluate(z, w_, F_);
    ncp.evaluate(z, w_ncp_, F_ncp_);
    const double residual = natural_residual_at(ncp, z, F_ncp_);
    report.record(residual);
    if (residual <= tolerance) return true;
  }
  return natural_residual_at(proximal_, z, F_) <= inner_tolerance;
}

SolveReport ProximalNewton::solve(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = "proximal-newton";
  auto finish = [&](SolveStatus status, std::string message) {
    clamp_to_bounds(ncp, z);  // G = 0 only inside the bounds; a tiny excursion is rounding
    return finish_report(std::move(report), status, std::move(message), ncp, z, t0);
  };
  if (const char* defect = start_ncp_solve(ncp, options.warm_start, z))
    return finish(SolveStatus::NumericalFailure, defect);
  for (const FrictionCone& c : ncp.cones)
    if (c.tangents > 2)
      return finish(SolveStatus::NumericalFailure,
                    "a friction cone has more than two tangent rows");
  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());
  proximal_ = ncp;
  if (!m_is_sparse(proximal_.linear)) make_sparse(proximal_.linear);
  diagonal_.resize(ncp.size());
  for (int i = 0; i < ncp.size(); ++i) diagonal_(i) = m_entry(ncp.linear, i, i);
  m_by_rows(proximal_.linear, m_rows_);
  ncp_jacobian_pattern(proximal_, m_rows_, J_);
  direction_.reset();
  double eps = kFirstEps;
  double floor = kSmallestEps;  // raised past every eps whose subproblem stalled
  int solved_in_row = 0;
  for (int k = 0;
       k < kSubproblems && report.iterations < options.max_iterations && !options.out_of_time();
       ++k) {
    ncp.evaluate(z, w_ncp_, F_ncp_);
    const double residual = natural_residual_at(ncp, z, F_ncp_);
    if (residual <= tolerance) return finish(SolveStatus::Solved, "");
    // Subproblem k: M + eps D, q - eps D z_k (the proximal term eps D (z - z_k)).
    set_diagonal(eps);
    proximal_.linear.q = ncp.linear.q - eps * diagonal_.cwiseProduct(z);
    equations_.prepare(proximal_);
    centre_ = z;
    const int steps = std::min(kSubproblemSteps, options.max_iterations - report.iterations);
    if (newton(ncp, z, tolerance, 0.1 * tolerance, steps, report)) {
      if (++solved_in_row % kRetry == 0) floor = std::max(0.1 * floor, kSmallestEps);
      eps = std::max(0.1 * eps, floor);
      continue;
    }
    // A stalled subproblem: keep its end only if it is closer to a solution, and take shorter
    // proximal steps.
    ncp.evaluate(z, w_ncp_, F_ncp_);
    if (!(natural_residual_at(ncp, z, F_ncp_) <= residual)) z = centre_;
    solved_in_row = 0;
    eps = std::min(10.0 * eps, kLargestEps);
    floor = std::max(floor, eps);
  }
  ncp.evaluate(z, w_ncp_, F_ncp_);
  if (natural_residual_at(ncp, z, F_ncp_) <= tolerance) return finish(SolveStatus::Solved, "");
  if (options.out_of_time())
    return finish(SolveStatus::TimeBudget, time_budget_message(report.iterations));
  return finish(SolveStatus::MaxIterations,
                "proximal Newton on Alart-Curnier's equations: iteration limit " +
                    std::to_string(options.max_iterations) + " or " + std::to_string(kSubproblems) +
                    " subproblems reached");
}

}  // namespace pegsim
