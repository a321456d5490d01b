#include "engine/solvers/path.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "engine/solvers/fischer_burmeister.hpp"
#include "engine/solvers/jacobian_rows.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/sparse_direction.hpp"

namespace pegsim {
namespace {

constexpr double kArmijo = 1e-4;          // sufficient decrease per unit of directional slope
constexpr double kMinStep = 1e-12;        // the line search gives up below this step length
constexpr std::size_t kMemory = 10;       // non-monotone reference: max psi of the last 10 iterates
constexpr int kWatchdog = 20;             // steps in which the best merit has not halved -> go back
constexpr double kGain = 0.5;             // the watchdog's gain: psi halved
constexpr double kRegularization = 1e-8;  // delta of J + delta I, relative to 1 + max |M_ij|
constexpr int kInteriorSteps = 200;       // the interior-point restart's budget (100 were enough)
constexpr double kCrawlReach = 1e-6;      // natural residual below which a crawling step pivots

double lower_of(const Lcp& lcp, int i) {
  return lcp.has_bounds() ? lcp.lower(i) : 0.0;
}
double upper_of(const Lcp& lcp, int i) {
  return lcp.has_bounds() ? lcp.upper(i) : INFINITY;
}

// Natural residual |z - mid(l, u, z - w)|_inf for a known w (no product with M).
double residual_of(const Lcp& lcp, const VecX& z, const VecX& w) {
  double r = 0.0;
  for (int i = 0; i < lcp.size(); ++i) {
    const double step = z(i) - w(i), l = lower_of(lcp, i), u = upper_of(lcp, i);
    const double ri = step <= l ? z(i) - l : step >= u ? z(i) - u : w(i);
    r = std::max(r, std::abs(ri));
  }
  return std::isnan(r) ? INFINITY : r;
}

VecX clamp_to_bounds(const Lcp& lcp, const VecX& z) {
  VecX out = z;
  for (int i = 0; i < lcp.size(); ++i)
    out(i) = std::clamp(z(i), lower_of(lcp, i), upper_of(lcp, i));
  return out;
}

// Crossover: with the rows at a bound fixed there (where mid(l, u, z - w) is l or u) and w = 0
// on the others, solve M_II z_I = -(q_I + M_IB z_B) by a sparse LU (least squares of nearly
// minimum norm where contact problems make M_II singular but consistent); `out` is kept if it
// solves the MCP within `tolerance`.
bool active_set_polish(const Lcp& lcp, const VecX& z, const VecX& w, double tolerance, VecX& out) {
  const int n = lcp.size();
  std::vector<int> inner;
  out.resize(n);
  for (int i = 0; i < n; ++i) {
    const double step = z(i) - w(i), l = lower_of(lcp, i), u = upper_of(lcp, i);
    if (step <= l)
      out(i) = l;
    else if (step >= u)
      out(i) = u;
    else {
      out(i) = 0.0;
      inner.push_back(i);
    }
  }
  const int m = static_cast<int>(inner.size());
  if (m > 0) {
    VecX rhs_full;  // the bounded rows' part, M_IB z_B + q_I
    multiply_m(lcp, out, rhs_full);
    rhs_full += lcp.q;
    SparseRowsX MII;
    m_block_by_rows(lcp, inner, MII);
    VecX rhs(m), zI;
    for (int j = 0; j < m; ++j) rhs(j) = -rhs_full(inner[j]);
    SparseDirection block;
    if (!block.solve_or_least_squares(MII, rhs, zI)) return false;
    for (int j = 0; j < m; ++j) out(inner[j]) = zI(j);
  }
  out = clamp_to_bounds(lcp, out);
  return natural_residual(lcp, out) <= tolerance;
}

}  // namespace

void PathSolver::evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& Phi) const {
  w.noalias() = M_ * z;
  w += lcp.q;
  Phi.resize(z.size());
  for (int i = 0; i < lcp.size(); ++i) {
    const double l = lower_of(lcp, i), u = upper_of(lcp, i);
    const bool has_l = l > -INFINITY, has_u = u < INFINITY;
    if (!has_l && !has_u)
      Phi(i) = -w(i);
    else if (!has_u)
      Phi(i) = fischer(z(i) - l, w(i)).value;
    else if (!has_l)
      Phi(i) = -fischer(u - z(i), -w(i)).value;
    else
      Phi(i) = fischer(z(i) - l, -fischer(u - z(i), -w(i)).value).value;
  }
}

// Row i of J is da_i e_i^T + db_i M_i (chain rule through the cases of evaluate()).
void PathSolver::jacobian_diagonals(const Lcp& lcp, const VecX& z, const VecX& w) {
  const int n = lcp.size();
  da_.resize(n);
  db_.resize(n);
  for (int i = 0; i < n; ++i) {
    const double l = lower_of(lcp, i), u = upper_of(lcp, i);
    const bool has_l = l > -INFINITY, has_u = u < INFINITY;
    if (!has_l && !has_u) {
      da_(i) = 0.0;
      db_(i) = -1.0;
    } else if (!has_u) {
      const Fb f = fischer(z(i) - l, w(i));
      da_(i) = f.da;
      db_(i) = f.db;
    } else if (!has_l) {
      const Fb f = fischer(u - z(i), -w(i));
      da_(i) = f.da;
      db_(i) = f.db;
    } else {
      const Fb inner = fischer(u - z(i), -w(i));
      const Fb outer = fischer(z(i) - l, -inner.value);
      da_(i) = outer.da + outer.db * inner.da;
      db_(i) = outer.db * inner.db;
    }
  }
}

// dz = -J^-1 Phi with J (+ regularization I) factorized; false if J is singular.
bool PathSolver::newton_direction(double regularization) {
  for (int k = 0; k < J_.outerSize(); ++k)
    for (SparseMat::InnerIterator it(J_, k), m(M_, k); it; ++it, ++m) {
      const auto row = it.row();
      it.valueRef() = db_(row) * m.value() + (row == k ? da_(row) + regularization : 0.0);
    }
  if (!pattern_ready_) {
    lu_.analyzePattern(J_);
    pattern_ready_ = true;
  }
  lu_.factorize(J_);
  if (lu_.info() != Eigen::Success) return false;
  dz_ = lu_.solve(-Phi_);
  return lu_.info() == Eigen::Success && dz_.allFinite();
}

bool PathSolver::pivot(const Lcp& lcp, VecX& z, const SolverOptions& options, SolveReport& report,
                       double tolerance) {
  const char* why = nullptr;
  const bool mixed = lcp.has_bounds();
  if (mixed && !reduce_free_rows(lcp, reduction_, why)) return false;
  const Lcp& pure = mixed ? reduction_.lcp : lcp;
  // Lemke starts from the basis of the best iterate's positive entries (then cold, if that
  // fails), as PATH's pivoting continues from its current point.
  SolverOptions warm = options;
  warm.warm_start = true;
  warm.max_iterations = std::max(1, options.max_iterations - report.iterations);
  VecX zc(pure.size());
  if (mixed)
    for (std::size_t k = 0; k < reduction_.complementary.size(); ++k)
      zc(static_cast<Eigen::Index>(k)) = best_(reduction_.complementary[k]);
  else
    zc = best_;
  const SolveReport pivots = lemke_.solve(pure, zc, warm);
  report.iterations += pivots.iterations;
  if (!pivots.solved()) return false;
  const VecX candidate = mixed ? reduction_.expand(zc) : zc;
  if (natural_residual(lcp, candidate) > tolerance) return false;
  z = candidate;
  return true;
}

SolveReport PathSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = "path";
  const int n = lcp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    if (z.size() == n) z = clamp_to_bounds(lcp, z);  // solutions lie in [l, u]: rounding
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };
  if (const char* defect = lcp_defect(lcp, true)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (!(options.warm_start && z.size() == n && z.allFinite()))
    z = clamp_to_bounds(lcp, VecX::Zero(n));
  if (n == 0) return finish(SolveStatus::Solved, "");

  // Sparse M with every diagonal entry stored, so J = diag(da) + diag(db) M has M's pattern.
  std::vector<Eigen::Triplet<double>> entries;
  for (int j = 0; j < n; ++j) {
    bool diagonal = false;
    for_each_in_column(lcp, j, [&](int i, double v) {
      entries.emplace_back(i, j, v);
      diagonal = diagonal || i == j;
    });
    if (!diagonal) entries.emplace_back(j, j, 0.0);
  }
  M_.resize(n, n);
  M_.setFromTriplets(entries.begin(), entries.end());
  M_.makeCompressed();
  J_ = M_;
  pattern_ready_ = false;

  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  std::string stall;
  Phase phase = newton_phase(lcp, z, options, options.max_iterations, tolerance, report, stall);
  if (phase == Phase::Stalled) {
    if (pivot(lcp, z, options, report, tolerance)) return finish(SolveStatus::Solved, "");
    // Where pivoting ends on a secondary ray too, the interior-point path leads near a solution
    // that the merit's local minima hide (pour20's pile, step 59 under path alone: Newton stalls
    // at a natural residual of 1e-2, Lemke ends on a ray, 100 interior-point steps reach 5e-9
    // and Newton finishes in 19 steps from there). Once.
    const int left = options.max_iterations - report.iterations;
    if (options.out_of_time()) {
      z = best_;
      return finish(SolveStatus::TimeBudget, time_budget_message(report.iterations));
    }
    if (left > 0 && interior_start(lcp, z, std::min(left, kInteriorSteps), report)) {
      const int budget = options.max_iterations - report.iterations;
      std::string second;
      if (budget > 0 &&
          newton_phase(lcp, z, options, budget, tolerance, report, second) == Phase::Solved)
        return finish(SolveStatus::Solved, "");
    }
    z = best_;
    return finish(SolveStatus::NumericalFailure, stall);
  }
  if (phase == Phase::Solved) return finish(SolveStatus::Solved, "");
  z = best_;
  if (options.out_of_time())
    return finish(SolveStatus::TimeBudget, time_budget_message(report.iterations));
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

bool PathSolver::interior_start(const Lcp& lcp, VecX& z, int steps, SolveReport& report) {
  const char* why = nullptr;
  const bool mixed = lcp.has_bounds();
  if (mixed && !reduce_free_rows(lcp, reduction_, why)) return false;
  const Lcp& pure = mixed ? reduction_.lcp : lcp;
  SolverOptions cold;
  cold.max_iterations = steps;
  VecX zc;
  const SolveReport r = interior_.solve(pure, zc, cold);
  report.iterations += r.iterations;
  if (zc.size() != pure.size() || !zc.allFinite()) return false;
  z = mixed ? reduction_.expand(zc) : zc;
  return true;
}

// Whether (x, w = M x + q) solves the problem: its Fischer-Burmeister residual and the natural
// residual of x clamped to the bounds within the tolerance.
bool PathSolver::solved_at(const Lcp& lcp, const VecX& x, const VecX& w, double tolerance) const {
  return residual_of(lcp, x, w) <= tolerance &&
         natural_residual(lcp, clamp_to_bounds(lcp, x)) <= tolerance;
}

// z = the active-set polish of x, if that solves the problem.
bool PathSolver::polish_into(const Lcp& lcp, const VecX& x, double tolerance, VecX& z) {
  VecX w;
  multiply_m(lcp, x, w);
  w += lcp.q;
  if (!active_set_polish(lcp, x, w, tolerance, polished_)) return false;
  z = polished_;
  return true;
}

// dz_ at z (w_, Phi_ evaluated there): the semismooth Newton direction, regularized if the
// plain one is no descent direction for psi = |Phi|^2 / 2, else steepest descent. Returns the
// slope grad psi . dz.
double PathSolver::descent_direction(const Lcp& lcp, const VecX& z, double regularization) {
  jacobian_diagonals(lcp, z, w_);
  grad_ = da_.cwiseProduct(Phi_);
  grad_.noalias() += M_.transpose() * db_.cwiseProduct(Phi_);
  bool have = newton_direction(0.0);
  double slope = have ? grad_.dot(dz_) : 0.0;
  if (!(slope < 0.0)) {
    have = newton_direction(regularization);
    slope = have ? grad_.dot(dz_) : 0.0;
  }
  if (!(slope < 0.0)) {
    dz_ = -grad_;
    slope = -grad_.squaredNorm();
  }
  return slope;
}

// Non-monotone Armijo along dz_: the first step 1, 1/2, ... whose merit is within the slope's
// share of the largest merit of the last kMemory iterates. trial_, w_trial_, Phi_trial_ and
// `trial_psi` hold the accepted point; false when no step down to kMinStep decreases it.
bool PathSolver::line_search(const Lcp& lcp, const VecX& z, double slope, double& trial_psi) {
  const double reference = *std::max_element(merits_.begin(), merits_.end());
  for (double step = 1.0; step >= kMinStep && slope < 0.0; step *= 0.5) {
    trial_ = z + step * dz_;
    evaluate(lcp, trial_, w_trial_, Phi_trial_);
    trial_psi = 0.5 * Phi_trial_.squaredNorm();
    if (trial_psi <= reference + kArmijo * step * slope) return true;
  }
  return false;
}

PathSolver::Phase PathSolver::newton_phase(const Lcp& lcp, VecX& z, const SolverOptions& options,
                                           int budget, double tolerance, SolveReport& report,
                                           std::string& stall) {
  const double regularization = kRegularization * (1.0 + m_max_abs(lcp));
  evaluate(lcp, z, w_, Phi_);
  double psi = 0.5 * Phi_.squaredNorm();
  best_ = z;
  double best_psi = psi;
  double anchor = psi;  // the best merit when the watchdog last counted from zero
  int since_gain = 0;
  bool returned_to_best = false;
  bool pivoted = false;  // the early crossover and pivoting were tried
  const double scale = 1.0 + lcp.q.cwiseAbs().maxCoeff();
  merits_.assign(1, psi);
  for (int k = 1; k <= budget; ++k) {
    if (solved_at(lcp, z, w_, tolerance)) return Phase::Solved;
    if (options.out_of_time()) return Phase::Limit;
    ++report.iterations;
    const double slope = descent_direction(lcp, z, regularization);
    double trial_psi = psi;
    if (!line_search(lcp, z, slope, trial_psi)) {
      // No decrease even against the reference: the merit is at a (local) minimum.
      if (polish_into(lcp, best_, tolerance, z)) return Phase::Solved;
      stall =
          "the line search found no decrease of the Fischer-Burmeister merit (a local "
          "minimum that is no solution)";
      return Phase::Stalled;
    }
    const double previous_psi = psi;
    z.swap(trial_);
    w_.swap(w_trial_);
    Phi_.swap(Phi_trial_);
    psi = trial_psi;
    merits_.push_back(psi);
    if (merits_.size() > kMemory) merits_.pop_front();
    const double residual = residual_of(lcp, z, w_);
    report.record(residual);
    // Near a degenerate solution (coplanar contacts sharing a load in any split, a friction
    // polygon's directions balancing each other) Newton loses its superlinear rate and crawls,
    // and the crossover's M_II is singular; what finishes is the pivoting, warm from the best
    // iterate. So once a step close to the answer fails to halve the merit, crossover and
    // pivoting right away, not after two watchdog periods, once a phase (hello_world's resting
    // cube: 41.9 -> 7.5 steps per problem; stack10 51 -> 8 ms per step). Not on an MCP: there
    // the pivoting first reduces the free rows (a sparse QR), and on rolling_cart's mixed form
    // it gained nothing measurable.
    if (!pivoted && !lcp.has_bounds() && psi > kGain * previous_psi &&
        residual <= kCrawlReach * scale) {
      pivoted = true;
      if (polish_into(lcp, z, tolerance, z)) return Phase::Solved;
      if (pivot(lcp, z, options, report, tolerance)) return Phase::Solved;  // from best_
    }

    // Watchdog: keep the best iterate; when the best merit has not halved in kWatchdog steps,
    // go back to it and search monotonically from there; a second time, the merit has stalled
    // (a gain of a few per cent per step, steepest descent crawling, is a stall too).
    if (psi < best_psi) {
      if (psi < kGain * anchor) {
        since_gain = 0;
        anchor = psi;
        returned_to_best = false;
      }
      best_psi = psi;
      best_ = z;
    }
    if (++since_gain >= kWatchdog) {
      if (polish_into(lcp, best_, tolerance, z)) return Phase::Solved;
      if (returned_to_best) {
        stall = "the merit stalled at " + std::to_string(best_psi) +
                " (a local minimum of the Fischer-Burmeister merit that is no solution)";
        return Phase::Stalled;
      }
      returned_to_best = true;
      since_gain = 0;
      anchor = best_psi;
      z = best_;
      evaluate(lcp, z, w_, Phi_);
      psi = best_psi;
      merits_.assign(1, psi);
    }
  }
  if (solved_at(lcp, z, w_, tolerance)) return Phase::Solved;
  if (polish_into(lcp, best_, tolerance, z)) return Phase::Solved;
  return Phase::Limit;
}

}  // namespace pegsim
