// minmap- and Fischer–Newton on the NCP with the quadratic cone (ncp.hpp): the reformulation
// H(z) = 0 of newton.hpp with F(z) in place of w = M z + q, and F's own Jacobian.
#include <chrono>
#include <cmath>
#include <string>

#include "engine/solvers/newton.hpp"

namespace pegsim {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kArmijo = 1e-4;    // sufficient decrease of psi per unit of directional slope
constexpr double kMinStep = 1e-12;  // the line search gives up below this step length

bool is_free(const Ncp& ncp, Eigen::Index i) { return ncp.linear.lower(i) == -INFINITY; }

}  // namespace

void NewtonSolver::evaluate(const Ncp& ncp, const VecX& z, VecX& w, VecX& F, VecX& H) const {
  ncp.evaluate(z, w, F);
  H.resize(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    if (is_free(ncp, i)) H(i) = F(i);  // an equation: F_i = 0
    else if (map_ == Map::MinMap) H(i) = std::min(z(i), F(i));
    else H(i) = std::hypot(z(i), F(i)) - z(i) - F(i);
  }
}

// An element of the generalized Jacobian of H: the rows of dF/dz, chained through the maps as
// in the LCP's jacobian() (newton.cpp).
void NewtonSolver::jacobian(const Ncp& ncp, const VecX& z, const VecX& w, const VecX& F) {
  ncp.jacobian(z, w, J_);
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    if (is_free(ncp, i)) continue;
    if (map_ == Map::MinMap) {
      if (z(i) <= F(i)) {
        J_.row(i).setZero();
        J_(i, i) = 1.0;
      }
      continue;
    }
    const double r = std::hypot(z(i), F(i));
    const double a = r > 0.0 ? z(i) / r - 1.0 : M_SQRT1_2 - 1.0;
    const double b = r > 0.0 ? F(i) / r - 1.0 : M_SQRT1_2 - 1.0;
    J_.row(i) *= b;
    J_(i, i) += a;
  }
}

SolveReport NewtonSolver::solve_ncp(const Ncp& ncp, VecX& z, const SolverOptions& options) {
  const auto t0 = Clock::now();
  SolveReport report;
  report.solver = std::string(name());
  const int n = ncp.size();
  auto finish = [&](SolveStatus status, std::string message) {
    clamp_to_bounds(ncp, z);  // H = 0 only inside the bounds; a tiny excursion is rounding
    return finish_report(std::move(report), status, std::move(message), ncp, z, t0);
  };
  if (!(options.warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  if (const char* defect = ncp_defect(ncp)) {
    z.setZero(n);
    return finish(SolveStatus::NumericalFailure, defect);
  }
  if (n == 0) return finish(SolveStatus::Solved, "");

  const double tolerance = options.tolerance * (1.0 + ncp.linear.q.cwiseAbs().maxCoeff());
  auto solved = [&] {
    if (natural_residual_at(ncp, z, F_) > tolerance) return false;
    trial_ = z;
    clamp_to_bounds(ncp, trial_);
    return natural_residual(ncp, trial_) <= tolerance;
  };
  clamp_to_bounds(ncp, z);
  w_.noalias() = ncp.linear.M * z;
  w_ += ncp.linear.q;
  // Start at the slip speeds of the impulses given (ncp.hpp): a cold start z = 0 would leave
  // every p_t out of (2.18), (2.19) and (2.20).
  set_slip_speeds(ncp, w_, z);
  evaluate(ncp, z, w_, F_, H_);
  for (int k = 1; k <= options.max_iterations; ++k) {
    if (solved()) return finish(SolveStatus::Solved, "");
    const double psi = 0.5 * H_.squaredNorm();
    jacobian(ncp, z, w_, F_);
    grad_.noalias() = J_.transpose() * H_;
    // Directions in turn until one decreases psi: Newton's (LU); the minimum-norm Gauss–Newton
    // step, for the singular J of a contact without load (p_n = 0 leaves p_t and sigma out of
    // (2.18)-(2.20)); steepest descent.
    bool decreased = false;
    for (int direction = 0; direction < 3 && !decreased; ++direction) {
      if (direction == 0) {
        lu_.compute(J_);
        dz_ = -lu_.solve(H_);
      } else if (direction == 1) {
        cod_.compute(J_);
        dz_ = -cod_.solve(H_);
      } else {
        dz_ = -grad_;
      }
      const double slope = grad_.dot(dz_);
      if (!dz_.allFinite() || !(slope < 0.0)) continue;
      for (double step = 1.0; step >= kMinStep; step *= 0.5) {
        trial_ = z + step * dz_;
        evaluate(ncp, trial_, w_trial_, F_trial_, H_trial_);
        if (0.5 * H_trial_.squaredNorm() <= psi + kArmijo * step * slope) {
          decreased = true;
          break;
        }
      }
    }
    report.iterations = k;
    if (!decreased)
      return finish(SolveStatus::NumericalFailure,
                    "the line search found no decrease of the merit function (a local minimum "
                    "of |H|^2 that is no solution)");
    z.swap(trial_);
    w_.swap(w_trial_);
    F_.swap(F_trial_);
    H_.swap(H_trial_);
    report.residual_history.push_back(natural_residual_at(ncp, z, F_));
  }
  if (solved()) return finish(SolveStatus::Solved, "");
  return finish(SolveStatus::MaxIterations,
                "iteration limit " + std::to_string(options.max_iterations) + " reached");
}

}  // namespace pegsim
