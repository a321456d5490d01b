// Alart & Curnier's projection equations of the contact NCP and their generalized Jacobian.
#include "engine/solvers/alart_curnier.hpp"

#include <algorithm>
#include <cmath>

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {
namespace {

constexpr int kMaxTangents = 2;

// y = p_t - r_t u_t of a cone, its length and rho = mu max(p_n, 0): the disc's radius.
struct TangentTrial {
  double y[kMaxTangents] = {0.0, 0.0};
  double length = 0.0;
  double radius = 0.0;
};

TangentTrial tangent_trial(const FrictionCone& c, double r, const VecX& z, const VecX& w) {
  TangentTrial out;
  double sq = 0.0;
  for (int k = 0; k < c.tangents; ++k) {
    const int t = c.normal + 1 + k;
    out.y[k] = z(t) - r * w(t);
    sq += out.y[k] * out.y[k];
  }
  out.length = std::sqrt(sq);
  out.radius = c.mu * std::max(z(c.normal), 0.0);
  return out;
}

}  // namespace

void AlartCurnier::prepare(const Ncp& ncp) {
  const int n = ncp.size();
  const auto M = [&](int i, int j) { return m_entry(ncp.linear, i, j); };
  r_.resize(n);
  cone_row_.assign(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) r_(i) = M(i, i) > 0.0 ? 1.0 / M(i, i) : 1.0;
  for (const FrictionCone& c : ncp.cones) {
    // One scale for the disc's rows, so that the projection stays a projection on a disc.
    double trace = 0.0;
    for (int k = 1; k <= c.tangents; ++k) trace += M(c.normal + k, c.normal + k);
    for (int k = 1; k <= c.tangents; ++k) {
      r_(c.normal + k) = trace > 0.0 ? c.tangents / trace : 1.0;
      cone_row_[static_cast<std::size_t>(c.normal + k)] = 1;
    }
    cone_row_[static_cast<std::size_t>(c.slip())] = 1;
  }
}

void AlartCurnier::residual(const Ncp& ncp, const VecX& z, const VecX& w, VecX& G) const {
  const int n = ncp.size();
  G.resize(n);
  for (int i = 0; i < n; ++i) {
    if (cone_row_[static_cast<std::size_t>(i)]) continue;
    G(i) = ncp.linear.lower(i) == -INFINITY ? r_(i) * w(i) : std::min(z(i), r_(i) * w(i));
  }
  for (const FrictionCone& c : ncp.cones) {
    const int t = c.normal + 1;
    const TangentTrial y = tangent_trial(c, r_(t), z, w);
    // p_t - proj(y): r u_t inside the disc, p_t - rho y / |y| outside.
    const double inside = y.length > y.radius ? y.radius / y.length : 1.0;
    double speed = 0.0;
    for (int k = 0; k < c.tangents; ++k) {
      G(t + k) = z(t + k) - inside * y.y[k];
      speed += w(t + k) * w(t + k);
    }
    G(c.slip()) = z(c.slip()) - std::sqrt(speed);
  }
}

void AlartCurnier::jacobian(const Ncp& ncp, const VecX& z, const VecX& w, JacobianRows& J) const {
  const int n = ncp.size();
  for (int i = 0; i < n; ++i) {  // the rows r_i dw_i, kept where the map selects w
    J.clear_row(i);
    J.add_m_row(i, r_(i), i);
  }
  auto identity_row = [&](int i) {
    J.clear_row(i);
    J.add(i, i, 1.0);
  };
  for (int i = 0; i < n; ++i) {
    if (cone_row_[static_cast<std::size_t>(i)] || ncp.linear.lower(i) == -INFINITY) continue;
    if (!(r_(i) * w(i) < z(i))) identity_row(i);  // min selects z_i (ties too)
  }
  for (const FrictionCone& c : ncp.cones) {
    const int t = c.normal + 1;
    const double r = r_(t);
    const TangentTrial y = tangent_trial(c, r, z, w);
    if (y.length > y.radius) {
      // G_t = p_t - rho y^ : dG_t = e_t - (rho / |y|)(I - y^ y^T)(e_t - r M_t) - y^ d rho,
      // d rho = mu e_n where p_n >= 0 (at p_n = 0 an element of [0, mu] e_n: the one that lets
      // a contact without load take one).
      const double scale = y.radius / y.length;
      for (int a = 0; a < c.tangents; ++a) {
        identity_row(t + a);
        for (int b = 0; b < c.tangents; ++b) {
          const double P = scale * ((a == b ? 1.0 : 0.0) - y.y[a] * y.y[b] / (y.length * y.length));
          J.add_m_row(t + a, P * r, t + b);
          J.add(t + a, t + b, -P);
        }
        if (z(c.normal) >= 0.0) J.add(t + a, c.normal, -c.mu * y.y[a] / y.length);
      }
    }
    // G_s = sigma - |u_t|: e_s - (u_t / |u_t|)^T M_t (ncp.hpp's slip speed gradient).
    identity_row(c.slip());
    add_slip_speed_gradient(c, w, -1.0, c.slip(), J);
  }
}

}  // namespace pegsim
