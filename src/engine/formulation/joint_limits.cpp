#include "engine/formulation/joint_limits.hpp"

#include <cmath>

#include "engine/kinematics/joint_rows.hpp"

namespace pegsim {
namespace {

// Rows for the bounds of one coordinate x, whose rate is G_a^T nu_a + G_b^T nu_b with the
// given columns (the lower bound's gap x - lower grows with x, the upper's shrinks).
void add_bounds(int joint, bool angle, const JointLimit& limit, double x, int a, int b,
                const Vec6& G_a, const Vec6& G_b, std::vector<LimitRow>& rows) {
  if (std::isfinite(limit.lower))
    rows.push_back({joint, angle, false, a, b, G_a, G_b, x - limit.lower});
  if (std::isfinite(limit.upper))
    rows.push_back({joint, angle, true, a, b, -G_a, -G_b, limit.upper - x});
}

}  // namespace

void joint_limit_rows(const Model& model, const State& state, std::vector<LimitRow>& rows) {
  rows.clear();
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    if (!j.angle_limit.any() && !j.displacement_limit.any()) continue;
    const int a = dynamic_index(model, j.body_a), b = dynamic_index(model, j.body_b);
    if (a < 0 && b < 0) continue;
    const JointFrames f = joint_frames(state, j);
    const JointCoordinates x = joint_coordinates(state, j);
    const Vec3 z = f.axes_a.col(2);
    const int joint = static_cast<int>(k);
    if (has_free_angle(j.type) && j.angle_limit.any()) {
      // d angle / dt = z . (omega_b - omega_a).
      Vec6 G_a, G_b;
      G_a << Vec3::Zero(), -z;
      G_b << Vec3::Zero(), z;
      add_bounds(joint, true, j.angle_limit, x.angle, a, b, G_a, G_b, rows);
    }
    if (has_free_translation(j.type) && j.displacement_limit.any()) {
      // d displacement / dt = z . (v_b(P) - v_a(P)) at P = origin of {J_b}: the stop's
      // impulses on A and B are equal, opposite and collinear.
      const Vec3 r_a = a >= 0 ? Vec3(f.origin_b - state.bodies[a].position) : Vec3::Zero();
      const Vec3 r_b = b >= 0 ? Vec3(f.origin_b - state.bodies[b].position) : Vec3::Zero();
      Vec6 G_a, G_b;
      G_a << -z, r_a.cross(-z);
      G_b << z, r_b.cross(z);
      add_bounds(joint, false, j.displacement_limit, x.displacement, a, b, G_a, G_b, rows);
    }
  }
}

}  // namespace pegsim
