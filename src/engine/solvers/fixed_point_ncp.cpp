// The projected fixed point on the NCP with the quadratic cone (fixed_point.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/solvers/fixed_point.hpp"
#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

SolveReport FixedPointSolver::solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = "fixed-point";
  const int n = ncp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), ncp, z, t0);
  };
  if (const char* defect = start_ncp_solve(ncp, options.warm_start, z))
    return finish(SolveStatus::NumericalFailure, defect);
  if (n == 0) return finish(SolveStatus::Solved, "");
  const double bound = m_max_row_sum(ncp.linear);
  if (!(bound > 0.0)) return finish(SolveStatus::NumericalFailure, "M is zero");
  const double alpha = 1.0 / bound;
  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());

  clamp_to_bounds(ncp, z);
  for (int k = 0;; ++k) {
    multiply_m(ncp.linear, z, w_);
    w_ += ncp.linear.q;
    set_slip_speeds(ncp, w_, z);
    ncp.evaluate(z, w_, F_);
    const double residual = natural_residual_at(ncp, z, F_);  // of the current z
    if (k > 0) report.record(residual);
    if (!z.allFinite()) {
      z.setZero(n);
      return finish(SolveStatus::NumericalFailure, "the iterates became non-finite (diverged)");
    }
    if (residual <= tolerance) return finish(SolveStatus::Solved, "");
    if (k == options.max_iterations) break;
    if (options.out_of_time()) return finish(SolveStatus::TimeBudget, time_budget_message(k));
    report.iterations = k + 1;
    // The gradient step on every row, projected on [0, inf) where bounded (free rows: a
    // cone's tangents, projected below) ...
    z -= alpha * w_;
    clamp_to_bounds(ncp, z);
    // ... and p_t onto the disk of radius mu p_n, (2.20).
    for (const FrictionCone& c : ncp.cones) {
      auto pt = z.segment(c.normal + 1, c.tangents);
      const double radius = c.mu * z(c.normal), length = pt.norm();
      if (length > radius) pt *= radius / length;
    }
  }
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
