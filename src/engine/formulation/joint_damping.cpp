#include "engine/formulation/joint_damping.hpp"

namespace pegsim {

void joint_damping_rows(const Model& model, const State& state, std::vector<JointRow>& rows) {
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    const int a = dynamic_index(model, j.body_a), b = dynamic_index(model, j.body_b);
    if (a < 0 && b < 0) continue;
    const JointFrames f = joint_frames(state, j);
    if (j.angular_damping > 0.0 && has_free_rotation(j.type)) {
      // G^T nu = e . (omega_a - omega_b): the relative spin about e.
      const int first = j.type == JointType::Spherical ? 0 : 2;
      for (int axis = first; axis < 3; ++axis) {
        const Vec3 e = f.axes_a.col(axis);
        JointRow row{static_cast<int>(k), a, b, Vec6::Zero(), Vec6::Zero(), 0.0, j.angular_damping};
        row.G_a << Vec3::Zero(), e;
        row.G_b << Vec3::Zero(), -e;
        rows.push_back(row);
      }
    }
    if (j.linear_damping > 0.0 && has_free_translation(j.type)) {
      // G^T nu = z . (v_a(P) - v_b(P)) at P = origin of {J_b}.
      const Vec3 z = f.axes_a.col(2);
      const Vec3 r_a = a >= 0 ? Vec3(f.origin_b - state.bodies[a].position) : Vec3::Zero();
      const Vec3 r_b = b >= 0 ? Vec3(f.origin_b - state.bodies[b].position) : Vec3::Zero();
      JointRow row{static_cast<int>(k), a, b, Vec6::Zero(), Vec6::Zero(), 0.0, j.linear_damping};
      row.G_a << z, r_a.cross(z);
      row.G_b << -z, r_b.cross(-z);
      rows.push_back(row);
    }
  }
}

}  // namespace pegsim
