// The pluggable solver interface: every solver takes an LCP (some an MCP) and returns a
// SolveReport.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/solvers/lcp.hpp"
#include "engine/solvers/ncp.hpp"

namespace pegsim {

enum class SolveStatus {
  Solved,            // residual <= tolerance
  MaxIterations,     // iteration limit reached before the tolerance
  Unsolvable,        // the method proved (by its own logic) that it cannot reach a solution,
                     // e.g. Lemke ending on a secondary ray
  NumericalFailure,  // singular pivot, NaN, ...
  TimeBudget,        // SolverOptions::deadline passed first: z is the best the solver had
};

// A solve's wall-clock deadline; kNoDeadline = none.
using Deadline = std::chrono::steady_clock::time_point;
constexpr Deadline kNoDeadline = Deadline::max();
// Whether `deadline` has passed; without one no clock is read.
inline bool past(Deadline deadline) {
  return deadline != kNoDeadline && std::chrono::steady_clock::now() >= deadline;
}

struct SolverOptions {
  double tolerance = 1e-10;  // on the natural-map residual, scaled by (1 + ||q||_inf)
  int max_iterations = 10000;
  bool warm_start = false;  // use the incoming z as a starting point
  // With warm_start: per variable, 1 if it was basic in the final basis of the previous step's
  // pivoting solve (Solver::final_basis), mapped like z; null or empty when unknown. A basis
  // says more than z > 0: a sticking contact's slip variable is basic at zero.
  const std::vector<char>* warm_basis = nullptr;
  // Wall-clock time by which the solver stops (SolveStatus::TimeBudget), returning the best z it
  // has: the step's time budget (Settings::time_budget). max() = none, and no clock is read.
  Deadline deadline = kNoDeadline;
  bool out_of_time() const { return past(deadline); }
  // Whether the report's seconds are measured (two clock reads a call, ~45 ns: a tenth of a
  // tiny Lemke solve).
  bool timed = true;
  // Whether the report keeps a residual per iteration (SolveReport::residual_history; the final
  // residual is reported either way).
  bool history = true;
};

// Options of a solve inside another solver (PGS's block solves): the outer solve is timed and
// keeps the history, so the inner one reads no clock and keeps no residuals (each would be an
// allocation a block solve that nobody reads).
inline SolverOptions inner_solve_options() {
  SolverOptions options;
  options.timed = false;
  options.history = false;
  return options;
}

// The start of a solve for SolveReport::seconds: now, or kUntimed (no clock read, seconds 0)
// when options.timed is off.
constexpr std::chrono::steady_clock::time_point kUntimed =
    std::chrono::steady_clock::time_point::min();
inline std::chrono::steady_clock::time_point solve_start(const SolverOptions& options) {
  return options.timed ? std::chrono::steady_clock::now() : kUntimed;
}

struct SolveReport {
  SolveStatus status = SolveStatus::NumericalFailure;
  int iterations = 0;
  std::vector<double> residual_history;  // natural-map residual per iteration (or per pivot)
  double residual = 0.0;                 // final natural residual (lcp.hpp) of z
  double seconds = 0.0;
  std::string solver;        // which solver produced this report
  std::string message;       // human-readable detail for non-Solved statuses
  bool keep_history = true;  // SolverOptions::history of the solve

  bool solved() const { return status == SolveStatus::Solved; }
  // An iteration's residual, kept when the history is.
  void record(double r) {
    if (keep_history) residual_history.push_back(r);
  }
};

// A solver's report before its first iteration, keeping the history as `options` ask.
inline SolveReport open_report(const SolverOptions& options) {
  SolveReport report;
  report.keep_history = options.history;
  return report;
}

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string_view name() const = 0;
  // True if the solver takes an MCP (Lcp::lower / upper, free rows); the others refuse one.
  virtual bool supports_bounds() const { return false; }
  // Solves `lcp`; `z` holds the warm start on entry (if options.warm_start) and the answer on
  // exit (always of size lcp.size()). Never throws on a hard problem: the status says it.
  virtual SolveReport solve(const Lcp& lcp, VecX& z, const SolverOptions& options) = 0;
  // True if the solver takes the NCP with the quadratic cone (ncp.hpp): the Newton methods and
  // the fixed point. The others refuse it (solve_ncp's default) and a fallback chain skips them.
  virtual bool supports_ncp() const { return false; }
  // Solves `ncp` as solve() does an LCP (z: warm start in, answer out, of size ncp.size()).
  virtual SolveReport solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options);
  // After a solved call of a pivoting method: per variable, 1 if z_i was basic at the end, for
  // the next step's SolverOptions::warm_basis. Null for methods without a basis.
  virtual const std::vector<char>* final_basis() const { return nullptr; }
  // True if the solver reads M only in its diagonal blocks and couples the blocks through the
  // body form, so that it takes a problem assembled with Lcp::blocks_only.
  virtual bool takes_blocks_only() const { return false; }
};

// Creates a solver by name (see solver_names()); returns nullptr for an unknown name.
std::unique_ptr<Solver> make_solver(std::string_view name);
// Names accepted by make_solver, in a stable order.
std::vector<std::string> solver_names();

const char* to_string(SolveStatus s);
// The message of a solve stopped by its deadline after `iterations` iterations (or pivots).
std::string time_budget_message(int iterations);

// Closes a solver's report: status, message, the natural residual of the returned z (also the
// last entry of the history), and the seconds since `start`.
SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          const Lcp& lcp, const VecX& z,
                          std::chrono::steady_clock::time_point start);
// The same with the natural residual of z already known (e.g. from the body form, in O(nnz(J))).
SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          double residual, std::chrono::steady_clock::time_point start);
// The same for an NCP (its natural residual).
SolveReport finish_report(SolveReport report, SolveStatus status, std::string message,
                          const Ncp& ncp, const VecX& z,
                          std::chrono::steady_clock::time_point start);

// The solvers that take the NCP, by name (Solver::supports_ncp), in solver_names()' order.
std::vector<std::string> ncp_solver_names();
// The same joined for messages ("fischer-newton, minmap-newton, ...").
std::string ncp_solver_list();

}  // namespace pegsim
