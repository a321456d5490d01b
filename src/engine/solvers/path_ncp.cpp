// The PATH-style solver on the NCP with the quadratic cone (ncp.hpp). PATH's pivoting has no
// counterpart for a nonlinear F; what stands in for it here:
//  1. Fischer–Newton with its restarts (newton_ncp.cpp): fast where the merit has no false
//     minimum and the Jacobian is regular;
//  2. where it stalls, Lemke on the same contacts with a polygonal cone (ncp_linearized.hpp):
//     the pivoting settles which contacts carry load, stick or slide, and Fischer–Newton from
//     its answer, mapped to the round cone, finishes (pour20's pile after a Lemke history:
//     4 of 106 steps' NCPs left unsolved, against 8 of 21 on steps 45-65 before, README);
//     then Newton on Alart–Curnier's equations regularized as a proximal point
//     (proximal_newton.hpp) from that start: no false minima at contacts without load, and
//     M + eps D is regular on piles whose face contacts make M singular (pour20, README);
//  3. crossover (ncp_crossover.hpp): each row's side at the proximal Newton's end held, the held
//     equations solved by minimum-norm Gauss–Newton, rows released one at a time where they are
//     inconsistent: the pile's iterates creep at residuals 1e-9..1e-7 (README, pour20);
//  4. while iterations last, what PATH falls back on for a nonlinear problem, projected
//     (proximal) steps (Ferris & Munson, "Interfaces to PATH 3.0", 1999): blocks of fixed-point
//     sweeps on the exact cone (fixed_point_ncp.cpp), each followed by Fischer–Newton steps
//     from where they end (locally quadratic once close).
#include <algorithm>
#include <chrono>
#include <string>

#include "engine/solvers/ncp_linearized.hpp"
#include "engine/solvers/path.hpp"

namespace pegsim {
namespace {

constexpr int kSweeps = 200;         // fixed-point sweeps between two Newton runs
constexpr int kNewtonSteps = 100;    // Newton steps per run after sweeps
constexpr int kPolygonDirections = 16;  // of the polygonal cone (8 left pour20's step 56 unsolved)

}  // namespace

SolveReport PathSolver::solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  SolveReport report;
  report.solver = "path";
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), ncp, z, t0);
  };
  // One method's run: its iterations and history count as the path solver's.
  auto absorb = [&](const SolveReport& part) {
    report.iterations += part.iterations;
    report.residual_history.insert(report.residual_history.end(), part.residual_history.begin(),
                                   part.residual_history.end());
    return part.solved();
  };
  // z of the NCP's size from here on (0 unless warm-started): every stage may start from it.
  if (const char* defect = start_ncp_solve(ncp, options.warm_start, z))
    return finish(SolveStatus::NumericalFailure, defect);
  start_ = z;  // Newton's end may be a false minimum
  if (absorb(newton_.solve_ncp(ncp, z, options))) return finish(SolveStatus::Solved, "");
  SolverOptions part = options;
  part.max_iterations = options.max_iterations - report.iterations;
  if (part.max_iterations > 1) {  // Lemke's pivots count as iterations: half of what is left
    linearize_ncp(ncp, kPolygonDirections, linearized_);
    SolverOptions pivots = part;
    pivots.warm_start = false;
    pivots.max_iterations = part.max_iterations / 2;
    VecX z_lcp;
    const SolveReport polygon = lemke_.solve(linearized_.lcp, z_lcp, pivots);
    report.iterations += polygon.iterations;
    if (polygon.solved()) {
      ncp_point(ncp, linearized_, z_lcp, start_);
      z = start_;
      part.warm_start = true;
      part.max_iterations = options.max_iterations - report.iterations;
      if (part.max_iterations > 0 && absorb(newton_.solve_ncp(ncp, z, part)))
        return finish(SolveStatus::Solved, "");
    }
  }
  z = start_;
  part.max_iterations = options.max_iterations - report.iterations;
  if (part.max_iterations > 0 && absorb(proximal_newton_.solve(ncp, z, part)))
    return finish(SolveStatus::Solved, "");
  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());
  if (crossover_.solve(ncp, z, tolerance)) return finish(SolveStatus::Solved, "");
  part.warm_start = true;
  while (report.iterations < options.max_iterations) {
    part.max_iterations = std::min(kSweeps, options.max_iterations - report.iterations);
    if (absorb(fixed_point_.solve_ncp(ncp, z, part))) return finish(SolveStatus::Solved, "");
    if (report.iterations >= options.max_iterations) break;
    const VecX swept = z;
    part.max_iterations = std::min(kNewtonSteps, options.max_iterations - report.iterations);
    if (absorb(newton_.solve_ncp(ncp, z, part))) return finish(SolveStatus::Solved, "");
    z = swept;  // Newton may have ended anywhere (its restarts from zero): sweep on
  }
  if (crossover_.solve(ncp, z, tolerance)) return finish(SolveStatus::Solved, "");
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) +
                    " reached (Fischer-Newton and the proximal Newton stalled; fixed-point "
                    "sweeps did not converge)");
}

}  // namespace pegsim
