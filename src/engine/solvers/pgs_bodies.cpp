// Projected Gauss–Seidel in the body form of M (the J W^-1 J^T sweep of Box2D and ODE's
// QuickStep): the solver keeps dv = W J^T z per body, and a group of blocks reads its rows'
// values from the two bodies it acts on, so a sweep costs O(nnz(J)) instead of O(n^2). Each
// group (the contacts between two bodies) is solved exactly, so the redundant contacts of a
// face and their friction rows (seven directions spanning one plane) never pull against each
// other inside a sweep.
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/pgs.hpp"

namespace pegsim {
namespace {

// The body pair of a row, (-1, -1) when it acts on no body.
bool acts(const LcpBodyForm& f, int row) {
  return f.body_a[row] >= 0 || f.body_b[row] >= 0;
}

// dv += W J_r^T dz: the two bodies' velocity change from an impulse change dz on row r.
void add_impulse(const LcpBodyForm& f, int r, double dz, VecX& dv) {
  if (dz == 0.0) return;
  if (f.body_a[r] >= 0) dv.segment<6>(6 * f.body_a[r]) += dz * f.WJ_a[r];
  if (f.body_b[r] >= 0) dv.segment<6>(6 * f.body_b[r]) += dz * f.WJ_b[r];
}

// dv = W J^T z: each body's velocity change from the impulses z.
void velocity_change(const LcpBodyForm& f, const VecX& z, VecX& dv) {
  dv.setZero(6 * f.bodies);
  for (int r = 0; r < z.size(); ++r) add_impulse(f, r, z(r), dv);
}

}  // namespace

bool PgsSolver::group_blocks(const Lcp& lcp) {
  const LcpBodyForm& f = lcp.body_form;
  const auto n = static_cast<std::size_t>(lcp.size());
  if (f.body_a.size() != n || f.body_b.size() != n || f.J_a.size() != n || f.J_b.size() != n ||
      f.WJ_a.size() != n || f.WJ_b.size() != n || f.bodies < 0)
    return false;
  groups_.clear();
  for (std::size_t k = 0; k + 1 < bounds_.size(); ++k) {
    Group g{bounds_[k], bounds_[k + 1] - bounds_[k], -1, -1};
    bool have_pair = false;
    for (int r = g.start; r < g.start + g.size; ++r) {
      if (!acts(f, r)) continue;
      if (f.body_a[r] >= f.bodies || f.body_b[r] >= f.bodies) return false;
      if (!have_pair) {
        g.body_a = f.body_a[r];
        g.body_b = f.body_b[r];
        have_pair = true;
      } else if (f.body_a[r] != g.body_a || f.body_b[r] != g.body_b) {
        return false;
      }
    }
    if (have_pair && g.body_a == g.body_b) return false;
    Group* last = groups_.empty() ? nullptr : &groups_.back();
    if (last && have_pair && last->body_a == g.body_a && last->body_b == g.body_b)
      last->size += g.size;
    else
      groups_.push_back(g);
  }
  group_M_.resize(groups_.size());
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const Group& g = groups_[k];
    diagonal_block_m(lcp, g.start, g.size, group_M_[k]);
    if (!group_M_[k].allFinite()) return false;  // the dense path reports the defect
  }
  return true;
}

void PgsSolver::group_offset(const Lcp& lcp, const Group& g, const VecX& z, VecX& c) const {
  const LcpBodyForm& f = lcp.body_form;
  // The two bodies' dv without the group's own impulses.
  Vec6 da = Vec6::Zero(), db = Vec6::Zero();
  if (g.body_a >= 0) da = dv_.segment<6>(6 * g.body_a);
  if (g.body_b >= 0) db = dv_.segment<6>(6 * g.body_b);
  for (int r = g.start; r < g.start + g.size; ++r) {
    if (z(r) == 0.0) continue;
    if (f.body_a[r] >= 0) da -= z(r) * f.WJ_a[r];
    if (f.body_b[r] >= 0) db -= z(r) * f.WJ_b[r];
  }
  c.resize(g.size);
  for (int r = g.start; r < g.start + g.size; ++r) {
    double v = lcp.q(r);
    if (f.body_a[r] >= 0) v += f.J_a[r].dot(da);
    if (f.body_b[r] >= 0) v += f.J_b[r].dot(db);
    c(r - g.start) = v;
  }
}

bool PgsSolver::solve_group(int k, const VecX& c, const VecX& start, double tolerance, VecX& x,
                            std::string& why) {
  const MatX& M = group_M_[k];
  const int m = static_cast<int>(c.size());
  if (m == 1) {  // closed form of the 1x1 LCP
    if (!(M(0, 0) > 0.0)) {
      why = "row " + std::to_string(groups_[k].start) + " has a non-positive diagonal and no block";
      return false;
    }
    x.resize(1);
    x(0) = std::max(0.0, -c(0) / M(0, 0));
    return true;
  }
  // The active set of the start (resting contacts keep theirs from sweep to sweep and step to
  // step): solve M_SS x_S = -c_S and keep it if it solves the group's LCP.
  active_.clear();
  for (int i = 0; i < m; ++i)
    if (start(i) > 0.0) active_.push_back(i);
  x.setZero(m);
  if (!active_.empty()) {
    const int a = static_cast<int>(active_.size());
    active_M_.resize(a, a);
    active_c_.resize(a);
    for (int j = 0; j < a; ++j) {
      active_c_(j) = -c(active_[j]);
      for (int i = 0; i < a; ++i) active_M_(i, j) = M(active_[i], active_[j]);
    }
    const VecX xa = active_M_.partialPivLu().solve(active_c_);
    for (int j = 0; j < a; ++j) x(active_[j]) = xa(j);
  }
  w_group_.noalias() = M * x;
  w_group_ += c;
  if (x.allFinite() && x.minCoeff() >= 0.0 && block_residual(x, w_group_) <= tolerance) return true;
  // Otherwise the group's exact solution by Lemke, warm-started from its current impulses.
  x = start.cwiseMax(0.0);  // an accelerated iterate (nncg) may have left z >= 0
  Lcp& local = block_;
  local.M = M;
  local.q = c;
  local.block_starts.clear();
  group_options_.tolerance = 1e-3 * tolerance / (1.0 + c.cwiseAbs().maxCoeff());
  group_options_.warm_start = true;
  group_options_.max_iterations = 50 * m;
  SolveReport r = block_solver_.solve(local, x, group_options_);
  if (!r.solved()) {  // a warm start Lemke cannot pivot from: once more from z = 0, to the
    group_options_.warm_start = false;  // sweep's own tolerance
    group_options_.tolerance = tolerance / (1.0 + c.cwiseAbs().maxCoeff());
    r = block_solver_.solve(local, x, group_options_);
  }
  if (!r.solved()) {
    why = "the block at row " + std::to_string(groups_[k].start) + " has no solution (" +
          to_string(r.status) + ")";
    return false;
  }
  return true;
}

double PgsSolver::body_form_residual(const Lcp& lcp, const VecX& z) {
  double residual = 0.0;
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const Group& g = groups_[k];
    group_offset(lcp, g, z, c_);
    w_group_.noalias() = group_M_[k] * z.segment(g.start, g.size);
    w_group_ += c_;
    residual = std::max(residual, block_residual(z.segment(g.start, g.size), w_group_));
  }
  return residual;
}

SolveReport PgsSolver::solve_body_form(const Lcp& lcp, VecX& z, const SolverOptions& options,
                                       SolveReport report,
                                       std::chrono::steady_clock::time_point t0) {
  const LcpBodyForm& f = lcp.body_form;
  const int n = lcp.size();
  // The report's residual from the body form, O(nnz(J)) instead of the dense M z.
  auto finish = [&](SolveStatus status, std::string message) {
    velocity_change(f, z, dv_);
    return finish_report(std::move(report), status, std::move(message), body_form_residual(lcp, z),
                         t0);
  };
  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  // dv = W J^T z for the start.
  velocity_change(f, z, dv_);
  std::string why;
  cg_.restart();
  best_.clear();
  for (int sweep = 1; sweep <= options.max_iterations; ++sweep) {
    if (acceleration_ == Acceleration::Nncg) before_ = z;
    // The natural residual of each group as the sweep reaches it, before its update.
    double visited = 0.0;
    for (std::size_t k = 0; k < groups_.size(); ++k) {
      const Group& g = groups_[k];
      group_offset(lcp, g, z, c_);
      start_ = z.segment(g.start, g.size);
      w_group_.noalias() = group_M_[k] * start_;
      w_group_ += c_;
      visited = std::max(visited, block_residual(start_, w_group_));
      if (!solve_group(static_cast<int>(k), c_, start_, tolerance, x_, why))
        return finish(SolveStatus::NumericalFailure, why);
      x_ = (start_ + relaxation_ * (x_ - start_)).cwiseMax(0.0);  // relaxed and projected
      for (int i = 0; i < g.size; ++i) add_impulse(f, g.start + i, x_(i) - start_(i), dv_);
      z.segment(g.start, g.size) = x_;
    }
    report.iterations = sweep;
    // A sweep that changed nothing beyond the tolerance: confirm on the exact residual (dv is
    // recomputed from z, the running one accumulates rounding).
    double residual = visited;
    if (visited <= tolerance) {
      velocity_change(f, z, dv_);
      residual = body_form_residual(lcp, z);
    }
    report.record(residual);
    if (residual <= tolerance) return finish(SolveStatus::Solved, "");
    if (!z.allFinite()) {
      z.setZero(n);
      return finish(SolveStatus::NumericalFailure, "the iterates became non-finite (diverged)");
    }
    if (stalled(residual, tolerance, options.max_iterations))
      return finish(SolveStatus::MaxIterations, stall_message(residual, sweep));
    if (acceleration_ == Acceleration::Nncg && cg_.momentum(before_, z, step_)) {
      z += step_;
      for (int r = 0; r < n; ++r) add_impulse(f, r, step_(r), dv_);
    }
    if (options.out_of_time()) {  // the last sweep may have answered: its residual decides
      velocity_change(f, z, dv_);
      const bool answered = body_form_residual(lcp, z) <= tolerance;
      return finish(answered ? SolveStatus::Solved : SolveStatus::TimeBudget,
                    answered ? "" : time_budget_message(sweep));
    }
  }
  return finish(SolveStatus::MaxIterations,
                "sweep limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
