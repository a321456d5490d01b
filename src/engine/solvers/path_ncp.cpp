// The PATH-style solver on the NCP with the quadratic cone (ncp.hpp). PATH's pivoting has no
// counterpart for a nonlinear F; what stands in for it here:
//  1. Fischer–Newton with its restarts (newton_ncp.cpp): fast where the merit has no false
//     minimum and the Jacobian is regular;
//  2. where it stalls, Lemke on the same contacts with a polygonal cone (ncp_linearized.hpp):
//     the pivoting settles which contacts carry load, stick or slide; from its answer, mapped to
//     the round cone, a crossover (3.), Fischer–Newton, and Newton on Alart–Curnier's equations
//     regularized as a proximal point (proximal_newton.hpp: no false minima at contacts without
//     load, and M + eps D is regular on piles whose face contacts make M singular) followed by
//     a crossover. The polygon is tried in four rotations (by 1/2, 1/4, 0, 3/4 of a sector):
//     each gives a different start with nearly the right sides, and which start the Newton
//     stages finish from differs from NCP to NCP (pour20's pile after a Lemke history: steps 60,
//     72, 93 and 102 are each solved from some rotation, none from every one; docs/solvers.md);
//  3. crossover (ncp_crossover.hpp): each row's side held, the held equations solved by
//     minimum-norm Gauss–Newton, rows released one at a time where they are inconsistent: the
//     pile's iterates creep at residuals 1e-9..1e-7 (pour20; docs/solvers.md);
//  4. while iterations last, what PATH falls back on for a nonlinear problem, projected
//     (proximal) steps (Ferris & Munson, "Interfaces to PATH 3.0", 1999): blocks of fixed-point
//     sweeps on the exact cone (fixed_point_ncp.cpp), each followed by Fischer–Newton steps
//     from where they end (locally quadratic once close).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/solvers/ncp_linearized.hpp"
#include "engine/solvers/path.hpp"

namespace pegsim {
namespace {

constexpr int kSweeps = 200;       // fixed-point sweeps between two Newton runs
constexpr int kNewtonSteps = 100;  // Newton steps per run (from a polygon's answer, after sweeps)
constexpr int kPolygonDirections = 16;  // of the polygonal cone (8 left pour20's step 56 unsolved)
constexpr int kPolygons = 4;            // rotations of it tried
// The proximal Newton's steps from each polygon's answer (pour20's step 85 takes 1190-1767
// from the four rotations' answers; 1000 left it unsolved).
constexpr int kProximalSteps = 2000;

}  // namespace

SolveReport PathSolver::solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
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
  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());
  SolverOptions part = options;
  auto left = [&] {
    return options.out_of_time() ? 0 : options.max_iterations - report.iterations;
  };
  best_ = start_;
  double best = natural_residual(ncp, best_);
  auto keep_if_best = [&](const VecX& candidate) {
    if (const double r = natural_residual(ncp, candidate); r < best) {
      best = r;
      best_ = candidate;
    }
  };
  // The polygon in its four rotations (2. above). The half sector first: on pour20's steps 60,
  // 72, 93, 102 the unrotated polygon's answer solved none, and on step 93 its Lemke run takes
  // 9520 pivots against 3181 (NcpPile.PathSolvesPour20Steps60And93FromTurnedPolygons).
  int polygons = 0;  // solved
  for (int attempt = 0; attempt < kPolygons && left() > 1; ++attempt) {
    constexpr double kSector = 2.0 * M_PI / kPolygonDirections;
    constexpr double kRotations[kPolygons] = {kSector / 2, kSector / 4, 0.0, 3 * kSector / 4};
    linearize_ncp(ncp, kPolygonDirections, linearized_, kRotations[attempt]);
    SolverOptions pivots = part;  // Lemke's pivots count as iterations
    pivots.warm_start = false;
    pivots.max_iterations = left() / 2;
    VecX z_lcp;
    const SolveReport polygon = lemke_.solve(linearized_.lcp, z_lcp, pivots);
    report.iterations += polygon.iterations;
    if (!polygon.solved()) continue;
    ++polygons;
    ncp_point(ncp, linearized_, z_lcp, start_);
    z = start_;
    if (crossover_.solve(ncp, z, tolerance)) return finish(SolveStatus::Solved, "");
    part.warm_start = true;
    part.max_iterations = std::min(kNewtonSteps, left());
    if (part.max_iterations > 0 && absorb(newton_.solve_ncp(ncp, z, part)))
      return finish(SolveStatus::Solved, "");
    z = start_;
    part.max_iterations = std::min(kProximalSteps, left());
    if (part.max_iterations > 0 && absorb(proximal_newton_.solve(ncp, z, part)))
      return finish(SolveStatus::Solved, "");
    keep_if_best(z);
    if (crossover_.solve(ncp, z, tolerance)) return finish(SolveStatus::Solved, "");
  }
  z = best_;
  if (polygons == 0) {  // no polygon's answer: the proximal Newton from the start
    part.warm_start = true;
    part.max_iterations = left();
    if (part.max_iterations > 0 && absorb(proximal_newton_.solve(ncp, z, part)))
      return finish(SolveStatus::Solved, "");
    if (crossover_.solve(ncp, z, tolerance)) return finish(SolveStatus::Solved, "");
  }
  part.warm_start = true;
  while (left() > 0) {
    part.max_iterations = std::min(kSweeps, left());
    if (absorb(fixed_point_.solve_ncp(ncp, z, part))) return finish(SolveStatus::Solved, "");
    if (left() <= 0) break;
    const VecX swept = z;
    part.max_iterations = std::min(kNewtonSteps, left());
    if (absorb(newton_.solve_ncp(ncp, z, part))) return finish(SolveStatus::Solved, "");
    z = swept;  // Newton may have ended anywhere (its restarts from zero): sweep on
  }
  if (crossover_.solve(ncp, z, tolerance)) return finish(SolveStatus::Solved, "");
  if (options.out_of_time()) {
    keep_if_best(z);
    z = best_;
    return finish(SolveStatus::TimeBudget, time_budget_message(report.iterations));
  }
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) +
                    " reached (Fischer-Newton and the proximal Newton stalled; fixed-point "
                    "sweeps did not converge)");
}

}  // namespace pegsim
