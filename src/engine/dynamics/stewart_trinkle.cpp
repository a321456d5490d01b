// Stewart–Trinkle time stepping with a linearized friction cone (thesis §2.3.1, (6.1)/(6.2)).
#include "engine/dynamics/stewart_trinkle.hpp"

#include <cmath>

namespace pegsim {
namespace {

// World-frame inverse inertia R J^-1 R^T (thesis (2.6)).
Mat3 world_inverse_inertia(const Body& body, const BodyState& s) {
  const Mat3 R = s.orientation.toRotationMatrix();
  return R * body.inertia.inverse() * R.transpose();
}

// Jacobian column of a unit force along `dir` applied at lever `r` (thesis (2.8), (2.22)).
Vec6 wrench_column(const Vec3& dir, const Vec3& r) {
  Vec6 g;
  g << dir, r.cross(dir);
  return g;
}

// M^-1 g for one body: [g_lin / m; J^-1 g_ang].
Vec6 apply_inverse_mass(const Body& body, const Mat3& inv_inertia, const Vec6& g) {
  Vec6 w;
  w << g.head<3>() * body.inv_mass(), inv_inertia * g.tail<3>();
  return w;
}

// Friction coefficient of a pair: the geometric mean, so two bodies of equal mu give that mu.
double pair_friction(const Body& a, const Body& b) { return std::sqrt(a.mu * b.mu); }

}  // namespace

void free_velocities(const Model& model, const State& state, const Settings& settings,
                     VecX& free_velocity) {
  const int n = static_cast<int>(model.bodies.size());
  free_velocity.setZero(6 * n);
  const double h = settings.h;
  for (int i = 0; i < n; ++i) {
    const Body& body = model.bodies[i];
    if (body.is_static) continue;
    const BodyState& s = state.bodies[i];
    const Mat3 R = s.orientation.toRotationMatrix();
    const Mat3 J = R * body.inertia * R.transpose();
    // Newton–Euler (2.7) with the gyroscopic term treated explicitly (2.30).
    const Vec3 linear = s.velocity + h * (settings.gravity + s.force * body.inv_mass());
    const Vec3 torque = s.torque - s.angular_velocity.cross(J * s.angular_velocity);
    const Vec3 angular = s.angular_velocity + h * world_inverse_inertia(body, s) * torque;
    free_velocity.segment<3>(6 * i) = linear;
    free_velocity.segment<3>(6 * i + 3) = angular;
  }
}

void assemble_stewart_trinkle(const Model& model, const State& state, const Settings& settings,
                              const std::vector<Contact>& contacts,
                              const std::vector<int>& enforced, ContactProblem& p) {
  const int nd = settings.friction_directions;
  const int nc = static_cast<int>(enforced.size());
  const int cols_per_contact = 1 + nd;
  const int block = nd + 2;
  const int ncols = nc * cols_per_contact;
  const bool gap_term = settings.formulation == Formulation::StewartTrinkle;

  p.directions = nd;
  p.contact = enforced;
  p.mu.resize(nc);
  p.tangents.resize(static_cast<std::size_t>(nc) * nd);
  p.G_a.resize(ncols);
  p.G_b.resize(ncols);
  p.WG_a.resize(ncols);
  p.WG_b.resize(ncols);
  p.body_a.resize(nc);
  p.body_b.resize(nc);

  // Inverse inertias of the bodies that appear, computed once per body.
  const int nb = static_cast<int>(model.bodies.size());
  std::vector<Mat3> inv_inertia(nb, Mat3::Zero());
  std::vector<char> have(nb, 0);
  auto inverse_inertia = [&](int b) -> const Mat3& {
    if (!have[b]) {
      inv_inertia[b] = world_inverse_inertia(model.bodies[b], state.bodies[b]);
      have[b] = 1;
    }
    return inv_inertia[b];
  };

  // Columns of G_n and G_f (2.26), (2.22): body A is pushed along -n, body B along +n.
  for (int i = 0; i < nc; ++i) {
    const Contact& c = contacts[enforced[i]];
    const Body& A = model.bodies[c.body_a];
    const Body& B = model.bodies[c.body_b];
    p.body_a[i] = A.is_static ? -1 : c.body_a;
    p.body_b[i] = B.is_static ? -1 : c.body_b;
    p.mu[i] = pair_friction(A, B);
    const Vec3 r_a = c.point_a - state.bodies[c.body_a].position;
    const Vec3 r_b = c.point_b() - state.bodies[c.body_b].position;

    const Vec3 t0 = any_perpendicular(c.normal);
    for (int k = 0; k < cols_per_contact; ++k) {
      Vec3 dir;
      if (k == 0) {
        dir = c.normal;
      } else {
        const double angle = 2.0 * M_PI * (k - 1) / nd;
        dir = Eigen::AngleAxisd(angle, c.normal) * t0;
        p.tangents[static_cast<std::size_t>(i) * nd + (k - 1)] = dir;
      }
      const int col = i * cols_per_contact + k;
      p.G_a[col] = wrench_column(-dir, r_a);
      p.G_b[col] = wrench_column(dir, r_b);
      p.WG_a[col] = p.body_a[i] < 0 ? Vec6::Zero()
                                    : apply_inverse_mass(A, inverse_inertia(c.body_a), p.G_a[col]);
      p.WG_b[col] = p.body_b[i] < 0 ? Vec6::Zero()
                                    : apply_inverse_mass(B, inverse_inertia(c.body_b), p.G_b[col]);
    }
  }

  // The LCP (6.1), one block [p_n; p_f; s] per contact.
  const int n = nc * block;
  Lcp& lcp = p.lcp;
  lcp.M.setZero(n, n);
  lcp.q.setZero(n);
  lcp.block_starts.resize(nc);
  auto row_of = [&](int col) { return (col / cols_per_contact) * block + col % cols_per_contact; };

  // G^T M^-1 G couples only columns that share a dynamic body: accumulate body by body.
  std::vector<std::vector<std::pair<int, char>>> columns_of_body(nb);
  for (int i = 0; i < nc; ++i) {
    for (int k = 0; k < cols_per_contact; ++k) {
      const int col = i * cols_per_contact + k;
      if (p.body_a[i] >= 0) columns_of_body[p.body_a[i]].push_back({col, 0});
      if (p.body_b[i] >= 0) columns_of_body[p.body_b[i]].push_back({col, 1});
    }
  }
  for (const auto& list : columns_of_body) {
    for (const auto& [c1, end1] : list) {
      const Vec6& g = end1 == 0 ? p.G_a[c1] : p.G_b[c1];
      const int r = row_of(c1);
      for (const auto& [c2, end2] : list) {
        const Vec6& wg = end2 == 0 ? p.WG_a[c2] : p.WG_b[c2];
        lcp.M(r, row_of(c2)) += g.dot(wg);
      }
    }
  }

  free_velocities(model, state, settings, p.free_velocity);
  for (int i = 0; i < nc; ++i) {
    const Contact& c = contacts[enforced[i]];
    const int base = i * block;
    lcp.block_starts[i] = base;
    for (int k = 0; k < cols_per_contact; ++k) {
      const int col = i * cols_per_contact + k;
      double v = 0.0;
      if (p.body_a[i] >= 0) v += p.G_a[col].dot(p.free_velocity.segment<6>(6 * p.body_a[i]));
      if (p.body_b[i] >= 0) v += p.G_b[col].dot(p.free_velocity.segment<6>(6 * p.body_b[i]));
      lcp.q(base + k) = v;
    }
    // Normal row: psi/h makes the gap at the end of the step non-negative (2.27);
    // Anitescu–Potra drops it.
    if (gap_term) lcp.q(base) += c.gap / settings.h;
    // Friction rows + E s, slip row U p_n - E^T p_f (2.21).
    const int s = base + nd + 1;
    for (int k = 1; k <= nd; ++k) {
      lcp.M(base + k, s) = 1.0;
      lcp.M(s, base + k) = -1.0;
    }
    lcp.M(s, base) = p.mu[i];
  }
}

void contact_velocities(const ContactProblem& p, const VecX& z, VecX& velocity) {
  velocity = p.free_velocity;
  const int nd = p.directions;
  const int cols_per_contact = 1 + nd;
  for (int i = 0; i < p.contacts(); ++i) {
    for (int k = 0; k < cols_per_contact; ++k) {
      const int col = i * cols_per_contact + k;
      const double impulse = z(i * p.block_size() + k);
      if (impulse == 0.0) continue;
      if (p.body_a[i] >= 0) velocity.segment<6>(6 * p.body_a[i]) += impulse * p.WG_a[col];
      if (p.body_b[i] >= 0) velocity.segment<6>(6 * p.body_b[i]) += impulse * p.WG_b[col];
    }
  }
}

}  // namespace pegsim
