// minmap- and Fischer–Newton on the NCP with the quadratic cone (ncp.hpp): the reformulation
// H(z) = 0 of newton.hpp with F(z) in place of w = M z + q, and F's own Jacobian.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/newton.hpp"

namespace pegsim {
namespace {

bool is_free(const Ncp& ncp, Eigen::Index i) {
  return ncp.linear.lower(i) == -INFINITY;
}

}  // namespace

void NewtonSolver::evaluate(const Ncp& ncp, const VecX& z, VecX& w, VecX& F, VecX& H, VecX& Phi) {
  ncp.evaluate(z, w, F);
  if (slip_partners_)
    complementarity_partners(ncp, z, w, a_);
  else
    a_ = z;
  H.resize(z.size());
  Phi.resize(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    if (is_free(ncp, i)) {  // an equation: F_i = 0
      H(i) = Phi(i) = F(i);
      continue;
    }
    Phi(i) = std::hypot(a_(i), F(i)) - a_(i) - F(i);
    H(i) = map_ == Map::MinMap ? std::min(a_(i), F(i)) : Phi(i);
  }
}

// Elements of the generalized Jacobians of H and Phi: the rows of dF/dz and of the partners a
// (ncp.hpp), chained through the maps as in the LCP's jacobian() (newton.cpp). Where min's two
// arguments tie, the partner's row: on a slip row it keeps sigma's column, which dF/dz leaves
// empty at a contact without load.
void NewtonSolver::jacobian(const Ncp& ncp, const VecX& z, const VecX& w, const VecX& F) {
  JacobianRows& JF = map_ == Map::MinMap ? JF_ : J_;
  ncp.jacobian(z, w, JF);
  if (map_ == Map::MinMap) J_ = JF;
  if (slip_partners_)
    complementarity_partners(ncp, z, w, a_);
  else
    a_ = z;
  // Row i's derivative along a_i (its along F_i scales the row) into J: the partner's
  // gradient, e_i and, on a slip row paired with sigma - |u_t|, minus d|u_t|/dz.
  auto add_partner = [&](JacobianRows& J, int i, double da) {
    J.add(i, i, da);
    if (const int cone = cone_of_row_[static_cast<std::size_t>(i)]; slip_partners_ && cone >= 0)
      add_slip_speed_gradient(ncp.cones[static_cast<std::size_t>(cone)], w, -da, i, J);
  };
  for (int i = 0; i < static_cast<int>(z.size()); ++i) {
    if (is_free(ncp, i)) continue;
    const double r = std::hypot(a_(i), F(i));
    JF.scale_row(i, r > 0.0 ? F(i) / r - 1.0 : M_SQRT1_2 - 1.0);
    add_partner(JF, i, r > 0.0 ? a_(i) / r - 1.0 : M_SQRT1_2 - 1.0);
    if (map_ != Map::MinMap || a_(i) > F(i)) continue;
    J_.clear_row(i);
    add_partner(J_, i, 1.0);
  }
}

// Newton steps from z until solved (true), the merit stalls (no decrease, or kStall steps
// without gain) or the report's iterations reach `max_iterations` (false).
bool NewtonSolver::run_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options, double tolerance,
                           SolveReport& report) {
  auto solved = [&] {
    if (natural_residual_at(ncp, z, F_) > tolerance) return false;
    trial_ = z;
    clamp_to_bounds(ncp, trial_);
    return natural_residual(ncp, trial_) <= tolerance;
  };
  clamp_to_bounds(ncp, z);
  multiply_m(ncp.linear, z, w_);
  w_ += ncp.linear.q;
  // Start at the slip speeds of the impulses given (ncp.hpp): a cold start z = 0 would leave
  // every p_t out of (2.18), (2.19) and (2.20).
  set_slip_speeds(ncp, w_, z);
  evaluate(ncp, z, w_, F_, H_, Phi_);
  const auto merit_at = [&] {
    evaluate(ncp, trial_, w_trial_, F_trial_, H_trial_, Phi_trial_);
    return 0.5 * Phi_trial_.squaredNorm();
  };
  double best = INFINITY;
  int since_gain = 0;
  while (report.iterations < options.max_iterations && !options.out_of_time()) {
    if (solved()) return true;
    const double psi = 0.5 * Phi_.squaredNorm();
    if (psi < 0.999 * best)
      since_gain = 0;
    else if (++since_gain >= kStall)
      return false;
    best = std::min(best, psi);
    jacobian(ncp, z, w_, F_);
    grad_.noalias() = merit_jacobian().matrix().transpose() * Phi_;
    const bool decreased = descend(z, psi, merit_at);
    ++report.iterations;
    if (!decreased) return false;
    z.swap(trial_);
    w_.swap(w_trial_);
    F_.swap(F_trial_);
    H_.swap(H_trial_);
    Phi_.swap(Phi_trial_);
    if (report.keep_history) report.record(natural_residual_at(ncp, z, F_));
  }
  return solved();
}

SolveReport NewtonSolver::solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = std::string(name());
  const int n = ncp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    clamp_to_bounds(ncp, z);  // H = 0 only inside the bounds; a tiny excursion is rounding
    return finish_report(std::move(report), status, std::move(message), ncp, z, t0);
  };
  if (const char* defect = start_ncp_solve(ncp, options.warm_start, z))
    return finish(SolveStatus::NumericalFailure, defect);
  if (n == 0) return finish(SolveStatus::Solved, "");
  slip_rows(ncp, cone_of_row_);
  m_by_rows(ncp.linear, m_rows_);
  ncp_jacobian_pattern(ncp, m_rows_, J_);
  JF_ = J_;
  direction_.reset();
  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());

  // At the kinks of the cone a local minimum of |Phi|^2 can hold the iterates: the NCP's own
  // pairs (z_i, F_i) first, then, when they stall, the slip partners sigma - |u_t| (ncp.hpp) from
  // the start given (measured: minmap-newton needs them on a sliding cube whose corner lifts,
  // fischer-newton on a square landing in 2D, where the slip partners alone stall).
  const VecX start = z;
  for (int attempt = 0; attempt < 2 && report.iterations < options.max_iterations; ++attempt) {
    slip_partners_ = attempt == 1;
    if (attempt == 1) z = start;
    if (run_ncp(ncp, z, options, tolerance, report)) return finish(SolveStatus::Solved, "");
    if (options.out_of_time())
      return finish(SolveStatus::TimeBudget, time_budget_message(report.iterations));
  }
  if (report.iterations >= options.max_iterations)
    return finish(SolveStatus::MaxIterations,
                  "iteration limit " + std::to_string(options.max_iterations) + " reached");
  return finish(SolveStatus::NumericalFailure,
                "the line search found no decrease of the merit function (a local minimum of "
                "|Phi|^2 that is no solution), with the slip rows paired with sigma and with "
                "sigma - |u_t|");
}

}  // namespace pegsim
