// The projected splitting methods (Cottle, Pang & Stone, Algorithm 5.2.1; thesis (2.46)/(2.47)),
// block-wise: a sweep solves each block's LCP exactly with the other blocks fixed. w = M z + q is
// kept up to date (column by column in Gauss–Seidel order), so the residual ||min(z, w)|| is O(n).
#include "engine/solvers/pgs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

// Block boundaries [starts[k], starts[k+1]), one row each when the LCP has no block structure.
// Returns false when the structure is not ascending from 0 within the problem.
bool block_bounds(const Lcp& lcp, std::vector<int>& bounds) {
  const int n = lcp.size();
  bounds.clear();
  if (lcp.block_starts.empty()) {
    for (int i = 0; i <= n; ++i) bounds.push_back(i);
    return true;
  }
  if (lcp.block_starts.front() != 0) return false;
  for (std::size_t k = 0; k < lcp.block_starts.size(); ++k) {
    const int s = lcp.block_starts[k];
    if (s >= n || (k > 0 && s <= lcp.block_starts[k - 1])) return false;
    bounds.push_back(s);
  }
  bounds.push_back(n);
  return true;
}

}  // namespace

bool PgsSolver::stalled(double residual, double tolerance, int limit) {
  best_.push_back(best_.empty() ? residual : std::min(best_.back(), residual));
  const int sweep = static_cast<int>(best_.size());
  const int window = std::max(100, limit / 20);
  if (sweep < 2 * window) return false;
  const double now = best_.back(), then = best_[static_cast<std::size_t>(sweep - window - 1)];
  // Near the tolerance the rate says little (stack10's sweeps can hover just above it for a
  // window and then answer), and the iterate is good already.
  if (now <= 1e3 * tolerance) return false;
  if (!(now < then)) return true;                     // no better iterate in a whole window
  const double rate = std::log(then / now) / window;  // e-folds a sweep, recently
  return std::log(now / tolerance) > 10.0 * rate * (limit - sweep);
}

std::string PgsSolver::stall_message(double residual, int sweep) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", residual);
  return "stalled after " + std::to_string(sweep) + " sweeps at residual " + text +
         ": at its recent rate the tolerance is out of reach within the sweep limit";
}

SolveReport PgsSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = std::string(name());
  const int n = lcp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };

  if (!(options.warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  // The body-form sweep reads M's diagonal blocks only (checked as group_blocks copies them):
  // no pass over the dense M, here or in its residual.
  const bool bodies = sweep_ == Sweep::GaussSeidel && !lcp.body_form.empty();
  // Its groups merge blocks, whose coupling a blocks-only M does not hold (lcp_defect says so).
  if (const char* defect = bodies && !lcp.blocks_only ? body_form_defect(lcp) : lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (!block_bounds(lcp, bounds_))
    return finish(SolveStatus::NumericalFailure, "block_starts is not ascending from row 0");
  if (n == 0) return finish(SolveStatus::Solved, "");

  z = z.cwiseMax(0.0);
  if (bodies && group_blocks(lcp)) return solve_body_form(lcp, z, options, std::move(report), t0);
  if (const char* defect = bodies ? lcp_defect(lcp) : nullptr) {  // the dense sweep reads all of M
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  multiply_m(lcp, z, w_);
  w_ += lcp.q;
  SolverOptions block_options = inner_solve_options();
  block_options.tolerance = options.tolerance;
  block_options.warm_start = true;
  std::string why;

  // The blocks' diagonal blocks of M, once: a sweep re-solves each block's own LCP.
  block_M_.resize(bounds_.empty() ? 0 : bounds_.size() - 1);
  for (std::size_t k = 0; k + 1 < bounds_.size(); ++k) {
    const int m = bounds_[k + 1] - bounds_[k];
    if (m > 1)
      diagonal_block_m(lcp, bounds_[k], m, block_M_[k]);
    else
      block_M_[k].resize(0, 0);
  }
  cg_.restart();
  best_.clear();
  for (int sweep = 1; sweep <= options.max_iterations; ++sweep) {
    if (acceleration_ == Acceleration::Nncg) before_ = z;
    if (sweep_ == Sweep::Jacobi) change_.setZero(n);
    for (std::size_t k = 0; k + 1 < bounds_.size(); ++k) {
      const int s = bounds_[k], m = bounds_[k + 1] - bounds_[k];
      if (!solve_block(lcp, block_M_[k], z, w_, s, m, block_options, block_z_, why))
        return finish(SolveStatus::NumericalFailure, why);
      // Relaxed and projected: z_b + relaxation dz stays >= 0.
      block_z_ = (z.segment(s, m) + relaxation_ * block_z_).cwiseMax(0.0) - z.segment(s, m);
      if (sweep_ == Sweep::Jacobi) {
        change_.segment(s, m) = block_z_;
      } else if (!block_z_.isZero(0.0)) {
        add_columns_product(lcp, s, m, block_z_, w_);
        z.segment(s, m) += block_z_;
      }
    }
    if (sweep_ == Sweep::Jacobi) {
      z += change_;
      add_columns_product(lcp, 0, n, change_, w_);
    }
    double residual = z.cwiseMin(w_).cwiseAbs().maxCoeff();
    if (residual <= tolerance) {
      // Confirm on a freshly computed w: the running one accumulates rounding.
      multiply_m(lcp, z, w_);
      w_ += lcp.q;
      residual = z.cwiseMin(w_).cwiseAbs().maxCoeff();
    }
    report.iterations = sweep;
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
      add_columns_product(lcp, 0, n, step_, w_);
    }
    if (options.out_of_time()) {  // the last sweep may have answered: its residual decides
      const bool answered = natural_residual(lcp, z) <= tolerance;
      return finish(answered ? SolveStatus::Solved : SolveStatus::TimeBudget,
                    answered ? "" : time_budget_message(sweep));
    }
  }
  return finish(SolveStatus::MaxIterations,
                "sweep limit " + std::to_string(options.max_iterations) + " reached");
}

bool PgsSolver::solve_block(const Lcp& lcp, const MatX& M_bb, const VecX& z, const VecX& w, int s,
                            int m, SolverOptions& options, VecX& dz, std::string& why) {
  if (m == 1) {
    // Closed form of the 1x1 LCP: z_s = max(0, z_s - w_s / M_ss).
    const double diagonal = m_entry(lcp, s, s);
    if (!(diagonal > 0.0)) {
      why = "row " + std::to_string(s) + " has a non-positive diagonal and no block";
      return false;
    }
    dz.resize(1);
    dz(0) = std::max(0.0, z(s) - w(s) / diagonal) - z(s);
    return true;
  }
  // The block's own LCP: M_bb z_b + (w_b - M_bb z_b) with the other blocks fixed.
  block_.M = M_bb;
  block_.q.noalias() = w.segment(s, m) - block_.M * z.segment(s, m);
  dz = z.segment(s, m);
  options.max_iterations = 50 * m;
  const SolveReport local = block_solver_.solve(block_, dz, options);
  if (!local.solved()) {
    why = "the block at row " + std::to_string(s) + " has no solution (" + to_string(local.status) +
          ")";
    return false;
  }
  dz -= z.segment(s, m);
  return true;
}

}  // namespace pegsim
