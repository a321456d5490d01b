#include "engine/solvers/fixed_point.hpp"

#include <chrono>
#include <string>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

SolveReport FixedPointSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = "fixed-point";
  const int n = lcp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };
  if (!(options.warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  if (const char* defect = lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (n == 0) return finish(SolveStatus::Solved, "");
  const double bound = m_max_row_sum(lcp);
  if (!(bound > 0.0)) return finish(SolveStatus::NumericalFailure, "M is zero");
  const double alpha = 1.0 / bound;
  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());

  z = z.cwiseMax(0.0);
  for (int k = 1; k <= options.max_iterations; ++k) {
    multiply_m(lcp, z, w_);
    w_ += lcp.q;
    const double residual = z.cwiseMin(w_).cwiseAbs().maxCoeff();  // of the current z
    if (residual <= tolerance) return finish(SolveStatus::Solved, "");
    z = (z - alpha * w_).cwiseMax(0.0);
    report.iterations = k;
    if (report.keep_history) report.record(natural_residual(lcp, z));
    if (!z.allFinite()) {
      z.setZero(n);
      return finish(SolveStatus::NumericalFailure, "the iterates became non-finite (diverged)");
    }
    if (options.out_of_time()) return finish(SolveStatus::TimeBudget, time_budget_message(k));
  }
  if (natural_residual(lcp, z) <= tolerance) return finish(SolveStatus::Solved, "");
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
