#include "engine/dynamics/cross_energy.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

int find_root(std::vector<int>& parent, int b) {
  while (parent[b] != b) {
    parent[b] = parent[parent[b]];
    b = parent[b];
  }
  return b;
}

// KE(b) - KE(a) of one body, as 1/2 (b - a)^T M (b + a): exactly 0 for an untouched body.
double kinetic_energy_change(const Body& body, const BodyState& s, const Vec6& a, const Vec6& b) {
  const Vec3 dv = b.head<3>() - a.head<3>(), sv = b.head<3>() + a.head<3>();
  const Vec3 dw = b.tail<3>() - a.tail<3>(), sw = b.tail<3>() + a.tail<3>();
  double e = body.mass * dv.dot(sv);
  if (body.shape.planar()) {
    e += body.inertia(2, 2) * dw.z() * sw.z();
  } else {
    const Mat3 R = s.orientation.toRotationMatrix();
    e += dw.dot(R * (body.inertia * (R.transpose() * sw)));
  }
  return 0.5 * e;
}

}  // namespace

CrossEnergy cross_energy(const Model& model, const State& state, const Settings& settings,
                         const std::vector<Contact>& contacts, const ConstraintSet& set,
                         const VecX& free_velocity, const VecX& velocity,
                         CrossEnergyWorkspace& work) {
  CrossEnergy worst;
  const int nb = static_cast<int>(model.bodies.size());
  if (free_velocity.size() < 6 * nb || velocity.size() < 6 * nb) return worst;
  auto dynamic = [&](int b) { return b >= 0 && !model.bodies[b].is_static; };

  // Dynamic bodies joined by loaded primaries or joints (whose impulses move energy between
  // their bodies).
  work.parent.resize(nb);
  for (int b = 0; b < nb; ++b) work.parent[b] = b;
  auto join = [&](int a, int b) {
    const int ra = find_root(work.parent, a), rb = find_root(work.parent, b);
    if (ra != rb) work.parent[ra] = rb;
  };
  for (const Joint& j : model.joints)
    if (dynamic(j.body_a) && dynamic(j.body_b)) join(j.body_a, j.body_b);
  work.pairs.clear();
  for (const ConstraintGroup& g : set.groups) {
    if (!(g.impulse > 0.0)) continue;
    const Contact& c = contacts[set.primary(g)];
    const int a = dynamic(c.body_a) ? c.body_a : -1, b = dynamic(c.body_b) ? c.body_b : -1;
    if (a < 0 && b < 0) continue;
    if (a >= 0 && b >= 0) join(a, b);
    work.pairs.push_back(
        {std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b), std::max(0.0, -c.gap)});
  }
  if (work.pairs.empty()) return worst;

  // Per set: the kinetic energy gained, the mass, and the depths summed over its pairs (each
  // pair once, at its deepest loaded primary).
  work.gain.assign(nb, 0.0);
  work.mass.assign(nb, 0.0);
  work.depth.assign(nb, 0.0);
  for (int b = 0; b < nb; ++b) {
    if (!dynamic(b)) continue;
    const int r = find_root(work.parent, b);
    work.mass[r] += model.bodies[b].mass;
    work.gain[r] +=
        kinetic_energy_change(model.bodies[b], state.bodies[b], free_velocity.segment<6>(6 * b),
                              velocity.segment<6>(6 * b));
  }
  std::sort(work.pairs.begin(), work.pairs.end(), [](const auto& x, const auto& y) {
    return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.depth > y.depth;
  });
  for (std::size_t k = 0; k < work.pairs.size(); ++k) {
    const auto& p = work.pairs[k];
    if (k > 0 && work.pairs[k - 1].a == p.a && work.pairs[k - 1].b == p.b) continue;
    work.depth[find_root(work.parent, dynamic(p.b) ? p.b : p.a)] += p.depth;
  }

  const double g_h = settings.gravity.norm() * settings.h;
  double worst_excess = -INFINITY;
  for (int b = 0; b < nb; ++b) {
    if (!dynamic(b) || work.parent[b] != b || work.mass[b] == 0.0) continue;
    const double speed = work.depth[b] / settings.h + g_h + settings.tolerance;
    const double need = 0.5 * work.mass[b] * speed * speed;
    const double excess = work.gain[b] / need;
    if (excess > worst_excess) {
      worst_excess = excess;
      worst.gain = work.gain[b];
      worst.need = need;
    }
  }
  return worst;
}

}  // namespace pegsim
