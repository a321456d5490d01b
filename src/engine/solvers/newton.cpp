#include "engine/solvers/newton.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

constexpr double kArmijo = 1e-4;    // sufficient decrease of psi per unit of directional slope
constexpr double kMinStep = 1e-12;  // the line search gives up below this step length
constexpr double kUseful = 1e-6;    // least decrease a Newton-like direction promises, / psi

double fischer(double a, double b) {
  return std::hypot(a, b) - a - b;
}

}  // namespace

void NewtonSolver::evaluate(const Lcp& lcp, const VecX& z, VecX& w, VecX& H, VecX& Phi) const {
  multiply_m(lcp, z, w);
  w += lcp.q;
  H.resize(z.size());
  Phi.resize(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    Phi(i) = fischer(z(i), w(i));
    H(i) = map_ == Map::MinMap ? std::min(z(i), w(i)) : Phi(i);
  }
}

// Elements of the generalized (B- or C-) Jacobians at z:
//   minmap:  row i is e_i^T where z_i <= w_i, else M_i (Erleben eq. 47);
//   Fischer: row i is (z_i / r - 1) e_i^T + (w_i / r - 1) M_i with r = |(z_i, w_i)|; at the
//            kink r = 0 any direction of the unit circle is valid: (1/√2, 1/√2) is used.
void NewtonSolver::jacobian(const VecX& z, const VecX& w) {
  const Eigen::Index n = z.size();
  JacobianRows& JF = map_ == Map::MinMap ? JF_ : J_;
  for (int i = 0; i < static_cast<int>(n); ++i) {
    const double r = std::hypot(z(i), w(i));
    JF.clear_row(i);
    JF.add_m_row(i, r > 0.0 ? w(i) / r - 1.0 : M_SQRT1_2 - 1.0, i);
    JF.add(i, i, r > 0.0 ? z(i) / r - 1.0 : M_SQRT1_2 - 1.0);
  }
  if (map_ != Map::MinMap) return;
  for (int i = 0; i < static_cast<int>(n); ++i) {
    J_.clear_row(i);
    if (z(i) <= w(i))
      J_.add(i, i, 1.0);
    else
      J_.add_m_row(i, 1.0, i);
  }
}

bool NewtonSolver::descend(const VecX& z, double psi, const std::function<double()>& merit_at) {
  const int directions = map_ == Map::MinMap ? 5 : 3;
  for (int direction = 0; direction < directions; ++direction) {
    // minmap: its Newton and least-squares steps, Fischer's, the gradient; Fischer: its own.
    const bool fischer_step = map_ == Map::MinMap && (direction == 2 || direction == 3);
    const SparseRowsX& J = (fischer_step ? JF_ : J_).matrix();
    rhs_ = -(fischer_step ? Phi_ : H_);
    if (direction == directions - 1) {
      dz_ = -grad_;
    } else if (direction % 2 == 0) {
      // singular: the least-squares step next
      if (!direction_.solve(J, rhs_, SparseDirection::kSingular, dz_)) continue;
    } else if (!direction_.least_squares(J, rhs_, SparseDirection::kMu, dz_)) {
      continue;
    }
    const double slope = grad_.dot(dz_);
    // A Newton-like step promises a decrease of the order of psi (exactly 2 psi for Fischer's
    // own); one that promises almost nothing (a least-squares step where H lies along J's
    // near-null directions, which it leaves out) would be taken for no gain: the next direction.
    const bool gradient = direction == directions - 1;
    if (!dz_.allFinite() || !(slope < 0.0) || (!gradient && !(slope < -kUseful * psi))) continue;
    for (double step = 1.0; step >= kMinStep; step *= 0.5) {
      trial_ = z + step * dz_;
      if (merit_at() <= psi + kArmijo * step * slope) return true;
    }
  }
  return false;
}

SolveReport NewtonSolver::solve(const Lcp& lcp, VecX& z, const SolverOptions& options) {
  const auto t0 = solve_start(options);
  SolveReport report = open_report(options);
  report.solver = std::string(name());
  const int n = lcp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    z = z.cwiseMax(0.0);  // H = 0 only at z >= 0; a tiny negative entry is rounding
    return finish_report(std::move(report), status, std::move(message), lcp, z, t0);
  };
  if (!(options.warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  if (const char* defect = lcp_defect(lcp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (n == 0) return finish(SolveStatus::Solved, "");
  m_by_rows(lcp, m_rows_);
  J_.set_pattern(m_rows_, {});
  JF_ = J_;
  direction_.reset();

  const double tolerance = options.tolerance * (1.0 + lcp.q.cwiseAbs().maxCoeff());
  const auto merit_at = [&] {
    evaluate(lcp, trial_, w_trial_, H_trial_, Phi_trial_);
    return 0.5 * Phi_trial_.squaredNorm();
  };
  evaluate(lcp, z, w_, H_, Phi_);
  double best = INFINITY;
  int since_gain = 0;
  for (int k = 1; k <= options.max_iterations; ++k) {
    if (z.cwiseMax(0.0).cwiseMin(w_).cwiseAbs().maxCoeff() <= tolerance &&
        natural_residual(lcp, z.cwiseMax(0.0)) <= tolerance)
      return finish(SolveStatus::Solved, "");
    const double psi = 0.5 * Phi_.squaredNorm();
    since_gain = psi < 0.999 * best ? 0 : since_gain + 1;
    best = std::min(best, psi);
    jacobian(z, w_);
    grad_.noalias() = merit_jacobian().matrix().transpose() * Phi_;
    const bool decreased = since_gain < kStall && descend(z, psi, merit_at);
    report.iterations = k;
    // At the limit of the arithmetic (singular J on degenerate contact problems) psi stops
    // decreasing; the active set is usually right by then.
    if (!decreased && active_set_solution(lcp, z, w_, tolerance, trial_)) {
      z.swap(trial_);
      return finish(SolveStatus::Solved, "");
    }
    if (!decreased)
      return finish(SolveStatus::NumericalFailure,
                    "the merit function stalled (no decrease, or " + std::to_string(kStall) +
                        " steps without a 0.1 % gain): a local minimum of |Phi|^2 that is no "
                        "solution");
    z.swap(trial_);
    w_.swap(w_trial_);
    H_.swap(H_trial_);
    Phi_.swap(Phi_trial_);
    if (report.keep_history) report.record(natural_residual(lcp, z.cwiseMax(0.0)));
    if (options.out_of_time()) return finish(SolveStatus::TimeBudget, time_budget_message(k));
  }
  if (natural_residual(lcp, z.cwiseMax(0.0)) <= tolerance) return finish(SolveStatus::Solved, "");
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
