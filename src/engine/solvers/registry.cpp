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

}  // namespace pegsim
