#include "engine/solvers/mcp_newton.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <deque>

#include "engine/solvers/block_elimination.hpp"
#include "engine/solvers/fischer_burmeister.hpp"

namespace pegsim {
namespace {

constexpr double kArmijo = 1e-4;       // sufficient decrease per unit of directional slope
constexpr double kMinStep = 1e-12;     // the line search gives up below this step length
constexpr std::size_t kMemory = 5;     // non-monotone reference: max merit of the last 5
constexpr double kRegularize = 1e-10;  // Levenberg-Marquardt shift, relative to |J|^2
// The proximal term on the rows of possibly undetermined unknowns, relative to the row's size:
// this times the natural residual, at least kProximalFloor.
constexpr double kProximal = 1e-3;
constexpr double kProximalFloor = 1e-8;
// Iterations without a new least merit after which the non-monotone reference drops to the
// current merit (the search turns monotone until the next improvement): past the memory's
// reach a non-monotone search can cycle between two points of similar merit.
constexpr int kStall = 3;

struct Point {
  VecX z, F, Phi;
  SparseMatrix J;
  double merit = 0.0;
};

void reformulate(const NonlinearMcp& mcp, Point& p) {
  p.Phi.resize(mcp.size);
  for (int i = 0; i < mcp.size; ++i)
    p.Phi(i) = mcp.bounded[std::size_t(i)] ? fischer(p.z(i), p.F(i)).value : p.F(i);
  p.merit = 0.5 * p.Phi.squaredNorm();
}

bool finite(const Point& p) {
  return p.F.allFinite() && std::isfinite(p.merit);
}

// The linear systems of a solve with J_Phi: dense below `sparse_from` unknowns; above, sparse
// LU whose COLAMD ordering and symbolic analysis are done once, since the pattern stays, after
// the problem's local blocks are eliminated where they can be (block_elimination.hpp).
class Systems {
 public:
  Systems(int sparse_from, const std::vector<std::vector<int>>& blocks)
      : sparse_from_(sparse_from), elimination_(blocks) {}

  // The Newton direction J_Phi dz = -Phi; NaN where J_Phi is singular.
  void newton(const SparseMatrix& JPhi, const VecX& Phi, VecX& dz) {
    if (JPhi.rows() < sparse_from_) {
      dz = -Eigen::PartialPivLU<MatX>(MatX(JPhi)).solve(Phi);
      return;
    }
    if (elimination_.solve(JPhi, Phi, dz)) {
      dz = -dz;
      return;
    }
    if (!analysed_) {
      lu_.analyzePattern(JPhi);
      analysed_ = true;
    }
    lu_.factorize(JPhi);
    if (lu_.info() == Eigen::Success) dz = -lu_.solve(Phi);
    if (lu_.info() != Eigen::Success) dz.setConstant(NAN);
  }

  // Levenberg-Marquardt: (J_Phi^T J_Phi + shift I) dz = -grad.
  void regularized(const SparseMatrix& JPhi, const VecX& grad, VecX& dz) const {
    if (JPhi.rows() < sparse_from_) {
      const MatX dense(JPhi);
      MatX normal = dense.transpose() * dense;
      normal.diagonal().array() += kRegularize * (1.0 + normal.diagonal().maxCoeff());
      dz = -normal.ldlt().solve(grad);
      return;
    }
    SparseMatrix normal = SparseMatrix(JPhi.transpose()) * JPhi;
    const double shift = kRegularize * (1.0 + normal.diagonal().maxCoeff());
    for (int i = 0; i < normal.rows(); ++i) normal.coeffRef(i, i) += shift;
    Eigen::SimplicialLDLT<SparseMatrix> ldlt(normal);
    if (ldlt.info() == Eigen::Success) dz = -ldlt.solve(grad);
    if (ldlt.info() != Eigen::Success) dz.setConstant(NAN);
  }

 private:
  int sparse_from_;
  BlockElimination elimination_;
  bool analysed_ = false;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu_;
};

// The proximal term of the Newton systems: on each row i marked in mcp.proximal, J_Phi(i, i) +=
// weight (max_j |J_Phi(i, j)| - |J_Phi(i, i)|), on the rows where the unknown's own entry is not
// the largest: a constraint's (an active contact's gap, a sticking contact's slip), whose
// unknown the row fixes only through the others. Where constraints are redundant (a pile's
// sticking contacts) J_Phi is singular in their impulses and LU returns a direction huge along
// its null space, which the line search then cuts to nothing; the term picks a direction of
// moderate size instead. It changes the direction, not the equations, so solutions stay exact;
// weighted by the residual it fades as Newton converges (a Levenberg-Marquardt rule), keeping the
// convergence fast. Rows the unknown dominates (an open contact's p_n = 0) keep their exact step.
void add_proximal(const NonlinearMcp& mcp, double weight, SparseMatrix& JPhi) {
  if (mcp.proximal.empty()) return;
  const int n = mcp.size;
  VecX size = VecX::Zero(n);
  for (int col = 0; col < n; ++col)
    for (SparseMatrix::InnerIterator it(JPhi, col); it; ++it)
      size(it.row()) = std::max(size(it.row()), std::abs(it.value()));
  for (int i = 0; i < n; ++i) {
    if (!mcp.proximal[std::size_t(i)]) continue;
    double& diagonal = JPhi.coeffRef(i, i);
    diagonal += weight * (size(i) - std::abs(diagonal));
  }
}

}  // namespace

double natural_residual(const NonlinearMcp& mcp, const VecX& z, const VecX& F) {
  double r = 0.0;
  for (int i = 0; i < mcp.size; ++i)
    r = std::max(r, std::abs(mcp.bounded[std::size_t(i)] ? std::min(z(i), F(i)) : F(i)));
  return std::isnan(r) ? INFINITY : r;
}

McpNewtonReport solve_mcp_newton(const NonlinearMcp& mcp, VecX& z,
                                 const McpNewtonOptions& options) {
  const int n = mcp.size;
  McpNewtonReport report;
  if (z.size() != n || !z.allFinite()) z = VecX::Zero(n);
  Point at, trial;
  at.z = z;
  mcp.evaluate(at.z, at.F, &at.J);
  reformulate(mcp, at);
  if (!finite(at)) {
    report.failure = "F is not finite at the start";
    report.residual = INFINITY;
    return report;
  }
  VecX best = at.z;
  double best_merit = at.merit;
  std::deque<double> merits{at.merit};
  int stall = 0;
  SparseMatrix JPhi;
  VecX grad(n), dz(n), da(n), db(n);
  Systems systems(options.sparse_from, mcp.local_blocks);
  for (report.iterations = 0; report.iterations < options.max_iterations; ++report.iterations) {
    report.residual = natural_residual(mcp, at.z, at.F);
    if (report.residual <= options.tolerance &&
        (report.iterations >= options.min_iterations || report.residual == 0.0)) {
      report.solved = true;
      z = at.z;
      return report;
    }
    // J_Phi = diag(da) + diag(db) J on bounded rows, J on free rows (da = 0, db = 1), on J's
    // pattern (its diagonal included).
    for (int i = 0; i < n; ++i) {
      da(i) = 0.0;
      db(i) = 1.0;
      if (!mcp.bounded[std::size_t(i)]) continue;
      const Fb f = fischer(at.z(i), at.F(i));
      da(i) = f.da;
      db(i) = f.db;
    }
    JPhi = at.J;
    for (int col = 0; col < n; ++col)
      for (SparseMatrix::InnerIterator it(JPhi, col); it; ++it) {
        it.valueRef() *= db(it.row());
        if (it.row() == col) it.valueRef() += da(col);
      }
    grad.noalias() = JPhi.transpose() * at.Phi;
    add_proximal(mcp, std::max(kProximalFloor, kProximal * report.residual), JPhi);
    systems.newton(JPhi, at.Phi, dz);
    double slope = dz.allFinite() ? grad.dot(dz) : NAN;
    if (!(slope < 0.0)) {  // singular or no descent
      systems.regularized(JPhi, grad, dz);
      slope = dz.allFinite() ? grad.dot(dz) : NAN;
    }
    if (!(slope < 0.0)) {
      dz = -grad;
      slope = -grad.squaredNorm();
    }
    const double reference = *std::max_element(merits.begin(), merits.end());
    bool accepted = false;
    for (double step = 1.0; step >= kMinStep; step *= 0.5) {
      trial.z = at.z + step * dz;
      mcp.evaluate(trial.z, trial.F, nullptr);
      reformulate(mcp, trial);
      if (finite(trial) && trial.merit <= reference + kArmijo * step * slope) {
        accepted = true;
        break;
      }
    }
    if (!accepted && report.residual <= options.tolerance) {  // a refining step found nothing
      report.solved = true;
      z = at.z;
      return report;
    }
    if (!accepted) {
      report.failure =
          "the line search found no decrease of the Fischer-Burmeister merit (a "
          "local minimum that is no solution)";
      break;
    }
    at.z.swap(trial.z);
    mcp.evaluate(at.z, at.F, &at.J);
    reformulate(mcp, at);
    merits.push_back(at.merit);
    if (merits.size() > kMemory) merits.pop_front();
    if (at.merit < best_merit) {
      best_merit = at.merit;
      best = at.z;
      stall = 0;
    } else if (++stall >= kStall) {
      merits.assign(1, at.merit);
      stall = 0;
    }
  }
  if (report.failure.empty())
    report.failure = "iteration limit " + std::to_string(options.max_iterations) + " reached";
  z = best;
  VecX F;
  mcp.evaluate(z, F, nullptr);
  report.residual = natural_residual(mcp, z, F);
  if (report.residual <= options.tolerance) {  // the best iterate may still be a solution
    report.solved = true;
    report.failure.clear();
  }
  return report;
}

}  // namespace pegsim
