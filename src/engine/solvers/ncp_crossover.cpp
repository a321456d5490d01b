// The NCP's crossover: hold each row's side, solve the held equations (ncp_crossover.hpp).
#include "engine/solvers/ncp_crossover.hpp"

#include <cmath>

namespace pegsim {
namespace {

constexpr int kIterations = 10;  // Gauss–Newton steps (quadratic once the sides are right)
constexpr int kRounds = 20;      // rows released one by one when the held system is inconsistent
// mu of the regularized least-squares step relative to the held Jacobian's largest column: the
// pile's redundant contacts leave singular values near 1e-9 relative, whose directions
// Gauss–Newton would follow 1e4 and more in length (measured on pour20 with a rank threshold of
// 1e-12 and 1e-9: no decrease of |E|; 1e-6 worked).
constexpr double kTikhonov = 1e-6;
constexpr char kReleaseNormal = 1, kReleaseStick = 2;

}  // namespace

void NcpCrossover::classify(const Ncp& ncp, const VecX& z) {
  const int n = ncp.size();
  ncp.evaluate(z, w_, F_);
  rows_.assign(static_cast<std::size_t>(n), Row::Equation);
  auto row = [&](int i) -> Row& { return rows_[static_cast<std::size_t>(i)]; };
  // Where mid(l, inf, z - F) is l the row sits at its bound, elsewhere F_i = 0.
  for (int i = 0; i < n; ++i)
    if (ncp.linear.lower(i) != -INFINITY && z(i) - F_(i) <= ncp.linear.lower(i))
      row(i) = Row::AtBound;
  for (int i = 0; i < n; ++i) {
    const char o = released_[static_cast<std::size_t>(i)];
    if (o == kReleaseNormal) row(i) = Row::AtBound;
    if (o == kReleaseStick) row(i) = Row::Equation;
  }
  for (const FrictionCone& c : ncp.cones) {
    const bool loaded = row(c.normal) == Row::Equation && c.mu > 0.0;
    const bool stick = row(c.slip()) == Row::AtBound;
    for (int k = 1; k <= c.tangents; ++k)
      row(c.normal + k) = !loaded ? Row::AtBound : stick ? Row::StickTangent : Row::Equation;
    // Without load (or friction) sigma is free in (2.18)-(2.20): held at the slip speed.
    if (!loaded) row(c.slip()) = Row::SlipSpeed;
  }
  columns_.clear();
  column_of_.assign(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i)
    if (row(i) != Row::AtBound) {
      column_of_[static_cast<std::size_t>(i)] = static_cast<int>(columns_.size());
      columns_.push_back(i);
    }
}

void NcpCrossover::equations(const Ncp& ncp, const VecX& z, SparseRowsX* J) {
  const int m = static_cast<int>(columns_.size());
  ncp.evaluate(z, w_, F_);
  if (J) {
    ncp.jacobian(z, w_, JF_);
    entries_.clear();
  }
  // Row k of J += scale * the given row's entries in the free columns (zeros kept: the held
  // system's pattern stays fixed while the sides are held).
  auto add_row = [&](int k, const SparseRowsX& rows, int row, double scale) {
    for (SparseRowsX::InnerIterator it(rows, row); it; ++it)
      if (const int j = column_of_[static_cast<std::size_t>(it.col())]; j >= 0)
        entries_.emplace_back(k, j, scale * it.value());
  };
  E_.resize(m);
  for (int k = 0; k < m; ++k) {
    const int i = columns_[static_cast<std::size_t>(k)];
    const Row kind = rows_[static_cast<std::size_t>(i)];
    if (kind == Row::Equation) {
      E_(k) = F_(i);
      if (J) add_row(k, JF_.matrix(), i, 1.0);
    } else if (kind == Row::StickTangent) {  // u_t = 0: the linear row itself
      E_(k) = w_(i);
      if (J) add_row(k, m_rows_, i, 1.0);
    } else {  // SlipSpeed: sigma - |u_t|
      const FrictionCone& c =
          ncp.cones[static_cast<std::size_t>(cone_of_row_[static_cast<std::size_t>(i)])];
      const double speed = w_.segment(c.normal + 1, c.tangents).norm();
      E_(k) = z(i) - speed;
      if (!J) continue;
      entries_.emplace_back(k, k, 1.0);
      for (int t = 1; t <= c.tangents; ++t)
        add_row(k, m_rows_, c.normal + t, speed > 0.0 ? -w_(c.normal + t) / speed : 0.0);
    }
  }
  if (J) {
    J->resize(m, m);
    J->setFromTriplets(entries_.begin(), entries_.end());
    J->makeCompressed();
  }
}

bool NcpCrossover::held_solve(const Ncp& ncp, VecX& x) {
  classify(ncp, x);
  for (int i = 0; i < ncp.size(); ++i)
    if (rows_[static_cast<std::size_t>(i)] == Row::AtBound) x(i) = 0.0;  // NCP bounds are 0
  const int m = static_cast<int>(columns_.size());
  equations(ncp, x, &J_);
  direction_.reset();  // a new held system: a new pattern
  double norm = E_.norm();
  for (int it = 0; it < kIterations && norm > 0.0; ++it) {
    rhs_ = -E_;
    if (!direction_.least_squares(J_, rhs_, kTikhonov, dx_)) break;
    bool decreased = false;  // halve the step until |E| drops (the slide rows are nonlinear)
    for (double s = 1.0; s > 1e-3 && !decreased; s *= 0.5) {
      trial_ = x;
      for (int k = 0; k < m; ++k) trial_(columns_[static_cast<std::size_t>(k)]) += s * dx_(k);
      equations(ncp, trial_, nullptr);
      decreased = E_.norm() < norm;
    }
    if (!decreased) break;
    x.swap(trial_);
    equations(ncp, x, &J_);
    norm = E_.norm();
  }
  equations(ncp, x, nullptr);
  clamp_to_bounds(ncp, x);
  return natural_residual(ncp, x) <= tolerance_;
}

bool NcpCrossover::solve(const Ncp& ncp, VecX& z, double tolerance) {
  if (ncp.size() == 0 || z.size() != ncp.size()) return false;
  m_by_rows(ncp.linear, m_rows_);
  ncp_jacobian_pattern(ncp, m_rows_, JF_);
  tolerance_ = tolerance;
  released_.assign(static_cast<std::size_t>(ncp.size()), 0);
  x_ = z;
  slip_rows(ncp, cone_of_row_);
  for (int round = 0; round < kRounds; ++round) {
    if (held_solve(ncp, x_)) {
      z = x_;
      return true;
    }
    // The held system is inconsistent: release the row whose equation is violated most the
    // way its complementarity allows (a separating normal row w_n > 0 to p_n = 0, a sticking
    // tangent row to sliding).
    double worst = tolerance;
    int row = -1;
    char how = 0;
    for (std::size_t k = 0; k < columns_.size(); ++k) {
      const int i = columns_[k];
      const Row kind = rows_[static_cast<std::size_t>(i)];
      if (kind == Row::Equation && ncp.linear.lower(i) == 0.0 &&
          cone_of_row_[static_cast<std::size_t>(i)] < 0 &&
          E_(static_cast<Eigen::Index>(k)) > worst) {
        worst = E_(static_cast<Eigen::Index>(k));
        row = i;
        how = kReleaseNormal;
      } else if (kind == Row::StickTangent && std::abs(E_(static_cast<Eigen::Index>(k))) > worst) {
        worst = std::abs(E_(static_cast<Eigen::Index>(k)));
        for (const FrictionCone& c : ncp.cones)
          if (i > c.normal && i < c.slip()) row = c.slip();
        how = kReleaseStick;
      }
    }
    if (row < 0) return false;
    released_[static_cast<std::size_t>(row)] = how;
  }
  return false;
}

}  // namespace pegsim
