// Solvers by name: the one place that knows every solver, so settings, the CLI and the GUI
// can list and choose them.
#include "engine/solvers/lemke.hpp"
#include "engine/solvers/pgs.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

std::unique_ptr<Solver> make_solver(std::string_view name) {
  if (name == "lemke") return std::make_unique<LemkeSolver>();
  if (name == "pgs") return std::make_unique<PgsSolver>();
  return nullptr;
}

std::vector<std::string> solver_names() { return {"lemke", "pgs"}; }

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Solved: return "solved";
    case SolveStatus::MaxIterations: return "max-iterations";
    case SolveStatus::Unsolvable: return "unsolvable";
    case SolveStatus::NumericalFailure: return "numerical-failure";
  }
  return "?";
}

SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          const Lcp& lcp, const VecX& z,
                          std::chrono::steady_clock::time_point start) {
  report.status = status;
  report.message = std::move(message);
  report.residual = natural_residual(lcp, z);
  if (report.residual_history.empty() || report.residual_history.back() != report.residual)
    report.residual_history.push_back(report.residual);
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace pegsim
