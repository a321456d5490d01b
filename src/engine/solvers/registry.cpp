// Solvers by name: the one place that knows every solver, so settings, the CLI and the GUI
// can list and choose them.
#include "engine/solvers/fixed_point.hpp"
#include "engine/solvers/interior_point.hpp"
#include "engine/solvers/lemke.hpp"
#include "engine/solvers/newton.hpp"
#include "engine/solvers/path.hpp"
#include "engine/solvers/pgs.hpp"
#include "engine/solvers/pgs_contact.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

// Over-relaxation of "psor" and relaxation of "projected-jacobi" (thesis §2.4: about 0.5
// makes Jacobi converge on the problems tested there).
constexpr double kPsorRelaxation = 1.3;
constexpr double kJacobiRelaxation = 0.5;

namespace {

using Sweep = PgsSolver::Sweep;

// Every solver, in the order lists show them: its name and how to make it.
using Made = std::unique_ptr<Solver>;
struct SolverEntry {
  const char* name;
  Made (*make)();
};
constexpr SolverEntry kSolvers[] = {
    {"lemke", []() -> Made { return std::make_unique<LemkeSolver>(); }},
    {"pgs", []() -> Made { return std::make_unique<PgsSolver>(); }},
    {"pgs-contact", []() -> Made { return std::make_unique<PgsContactSolver>(); }},
    {"nncg",
     []() -> Made {
       return std::make_unique<PgsSolver>(Sweep::GaussSeidel, 1.0, PgsSolver::Acceleration::Nncg);
     }},
    {"psor",
     []() -> Made { return std::make_unique<PgsSolver>(Sweep::GaussSeidel, kPsorRelaxation); }},
    {"projected-jacobi",
     []() -> Made { return std::make_unique<PgsSolver>(Sweep::Jacobi, kJacobiRelaxation); }},
    {"fixed-point", []() -> Made { return std::make_unique<FixedPointSolver>(); }},
    {"interior-point", []() -> Made { return std::make_unique<InteriorPointSolver>(); }},
    {"minmap-newton",
     []() -> Made { return std::make_unique<NewtonSolver>(NewtonSolver::Map::MinMap); }},
    {"fischer-newton",
     []() -> Made { return std::make_unique<NewtonSolver>(NewtonSolver::Map::FischerBurmeister); }},
    {"path", []() -> Made { return std::make_unique<PathSolver>(); }},
};

}  // namespace

std::unique_ptr<Solver> make_solver(std::string_view name) {
  for (const SolverEntry& e : kSolvers)
    if (name == e.name) return e.make();
  return nullptr;
}

std::vector<std::string> solver_names() {
  std::vector<std::string> out;
  for (const SolverEntry& e : kSolvers) out.emplace_back(e.name);
  return out;
}

std::vector<std::string> ncp_solver_names() {
  std::vector<std::string> out;
  for (const std::string& name : solver_names())
    if (make_solver(name)->supports_ncp()) out.push_back(name);
  return out;
}

std::string ncp_solver_list() {
  std::string out;
  for (const std::string& name : ncp_solver_names()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

SolveReport Solver::solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto start = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = std::string(name());
  z.setZero(ncp.size());
  return finish_report(std::move(report), SolveStatus::NumericalFailure,
                       std::string(name()) +
                           " solves only LCPs; the NCP with the quadratic "
                           "cone needs one of: " +
                           ncp_solver_list(),
                       ncp, z, start);
}

const char* to_string(SolveStatus s) {
  switch (s) {
    case SolveStatus::Solved:
      return "solved";
    case SolveStatus::MaxIterations:
      return "max-iterations";
    case SolveStatus::Unsolvable:
      return "unsolvable";
    case SolveStatus::NumericalFailure:
      return "numerical-failure";
    case SolveStatus::TimeBudget:
      return "time-budget";
  }
  return "?";
}

std::string time_budget_message(int iterations) {
  return "time budget spent after " + std::to_string(iterations) + " iterations";
}

namespace {
SolveReport close_report(SolveReport report, SolveStatus status, std::string message,
                         double residual, std::chrono::steady_clock::time_point start) {
  report.status = status;
  report.message = std::move(message);
  report.residual = residual;
  if (report.residual_history.empty() || report.residual_history.back() != report.residual)
    report.record(report.residual);
  report.seconds =
      start == kUntimed
          ? 0.0
          : std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}
}  // namespace

SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          const Lcp& lcp, const VecX& z,
                          std::chrono::steady_clock::time_point start) {
  return close_report(std::move(report), status, std::move(message), natural_residual(lcp, z),
                      start);
}

SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          double residual, std::chrono::steady_clock::time_point start) {
  return close_report(std::move(report), status, std::move(message), residual, start);
}

SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          const Ncp& ncp, const VecX& z,
                          std::chrono::steady_clock::time_point start) {
  return close_report(std::move(report), status, std::move(message), natural_residual(ncp, z),
                      start);
}

}  // namespace pegsim
