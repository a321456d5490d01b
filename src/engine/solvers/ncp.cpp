// F(z), its Jacobian and the natural residual of the contact NCP with the quadratic cone.
#include "engine/solvers/ncp.hpp"

#include <algorithm>
#include <cmath>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

void Ncp::evaluate(const VecX& z, VecX& w, VecX& F) const {
  multiply_m(linear, z, w);
  w += linear.q;
  F = w;
  for (const FrictionCone& c : cones) {
    const double pn = z(c.normal), sigma = z(c.slip());
    for (int k = 1; k <= c.tangents; ++k) {
      const int t = c.normal + k;
      // (2.18), (2.19): w(t) is u_t; p_t = 0 without friction (ncp.hpp).
      F(t) = c.mu > 0.0 ? c.mu * pn * w(t) + z(t) * sigma : z(t);
    }
    F(c.slip()) = c.mu * pn - z.segment(c.normal + 1, c.tangents).norm();  // (2.20), ncp.hpp
  }
}

void Ncp::jacobian(const VecX& z, const VecX& w, JacobianRows& J) const {
  for (int i = 0; i < size(); ++i) {
    J.clear_row(i);
    J.add_m_row(i, 1.0, i);
  }
  for (const FrictionCone& c : cones) {
    const double pn = z(c.normal), sigma = z(c.slip());
    const int s = c.slip();
    J.clear_row(s);
    J.add(s, c.normal, c.mu);
    // d|p_t| = p_t^T / |p_t|; at p_t = 0, 0 is an element of the generalized gradient.
    const double length = z.segment(c.normal + 1, c.tangents).norm();
    for (int k = 1; k <= c.tangents; ++k) {
      const int t = c.normal + k;
      if (length > 0.0) J.add(s, t, -z(t) / length);
      if (c.mu == 0.0) {  // F_t = p_t
        J.clear_row(t);
        J.add(t, t, 1.0);
        continue;
      }
      // d(mu p_n u_t + p_t sigma): mu p_n M_t + mu u_t e_n + sigma e_t + p_t e_sigma.
      J.scale_row(t, c.mu * pn);
      J.add(t, c.normal, c.mu * w(t));
      J.add(t, t, sigma);
      J.add(t, s, z(t));
    }
  }
}

void ncp_jacobian_pattern(const Ncp& ncp, const SparseRowsX& m, JacobianRows& J) {
  std::vector<std::pair<int, int>> extra;
  for (const FrictionCone& c : ncp.cones) {
    const int s = c.slip();
    for (int a = c.normal + 1; a <= s; ++a) {  // the tangent rows and the slip row
      extra.emplace_back(a, c.normal);
      for (int b = c.normal + 1; b <= s; ++b) extra.emplace_back(a, b);
      for (int t = c.normal + 1; t < s; ++t)
        for (SparseRowsX::InnerIterator it(m, t); it; ++it) extra.emplace_back(a, it.col());
    }
  }
  J.set_pattern(m, extra);
}

const char* ncp_defect(const Ncp& ncp) {
  const Lcp& lin = ncp.linear;
  if (const char* why = lcp_defect(lin, true)) return why;
  const int n = lin.size();
  if (n > 0 && !lin.has_bounds()) return "the NCP's bounds l, u are missing";
  for (int i = 0; i < n; ++i)
    if (!(lin.lower(i) == 0.0 || lin.lower(i) == -INFINITY) || lin.upper(i) != INFINITY)
      return "an NCP row is bounded other than free or [0, inf)";
  for (const FrictionCone& c : ncp.cones) {
    if (c.normal < 0 || c.tangents < 1 || c.slip() >= n)
      return "a friction cone lies outside the rows";
    if (!(c.mu >= 0.0) || !std::isfinite(c.mu))
      return "a friction coefficient is not finite and >= 0";
    if (lin.lower(c.normal) != 0.0 || lin.lower(c.slip()) != 0.0)
      return "a cone's normal or slip row is not on [0, inf)";
    for (int k = 1; k <= c.tangents; ++k)
      if (lin.lower(c.normal + k) != -INFINITY) return "a cone's tangent row is not free";
  }
  return nullptr;
}

const char* start_ncp_solve(const Ncp& ncp, bool warm_start, VecX& z) {
  const int n = ncp.size();
  if (!(warm_start && z.size() == n && z.allFinite())) z.setZero(n);
  const char* defect = ncp_defect(ncp);
  if (defect) z.setZero(n);
  return defect;
}

double natural_residual_at(const Ncp& ncp, const VecX& z, const VecX& F) {
  const int n = ncp.size();
  if (z.size() != n || F.size() != n || ncp.linear.lower.size() != n) return INFINITY;
  double r = 0.0;
  for (int i = 0; i < n; ++i) {
    // z - mid(l, inf, z - F): F itself on a free row.
    const double l = ncp.linear.lower(i);
    r = std::max(r, std::abs(z(i) - F(i) <= l ? z(i) - l : F(i)));
  }
  return std::isnan(r) ? INFINITY : r;
}

double natural_residual(const Ncp& ncp, const VecX& z) {
  const int n = ncp.size();
  if (z.size() != n || m_rows(ncp.linear) != n || m_cols(ncp.linear) != n ||
      ncp.linear.lower.size() != n)
    return INFINITY;
  VecX w, F;
  ncp.evaluate(z, w, F);
  return natural_residual_at(ncp, z, F);
}

void set_slip_speeds(const Ncp& ncp, const VecX& w, VecX& z) {
  for (const FrictionCone& c : ncp.cones) z(c.slip()) = w.segment(c.normal + 1, c.tangents).norm();
}

void complementarity_partners(const Ncp& ncp, const VecX& z, const VecX& w, VecX& a) {
  a = z;
  for (const FrictionCone& c : ncp.cones)
    a(c.slip()) = z(c.slip()) - w.segment(c.normal + 1, c.tangents).norm();
}

void add_slip_speed_gradient(const FrictionCone& cone, const VecX& w, double scale, int row,
                             JacobianRows& J) {
  const double speed = w.segment(cone.normal + 1, cone.tangents).norm();
  if (speed == 0.0) return;
  for (int k = 1; k <= cone.tangents; ++k)
    J.add_m_row(row, scale * w(cone.normal + k) / speed, cone.normal + k);
}

void slip_rows(const Ncp& ncp, std::vector<int>& cone_of_row) {
  cone_of_row.assign(static_cast<std::size_t>(ncp.size()), -1);
  for (std::size_t k = 0; k < ncp.cones.size(); ++k)
    cone_of_row[static_cast<std::size_t>(ncp.cones[k].slip())] = static_cast<int>(k);
}

void clamp_to_bounds(const Ncp& ncp, VecX& z) {
  for (int i = 0; i < ncp.size() && i < z.size(); ++i) z(i) = std::max(z(i), ncp.linear.lower(i));
}

}  // namespace pegsim
