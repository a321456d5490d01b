// Position update with the exponential map (thesis (2.36); RPIsim body_updatePosition).
#include "engine/dynamics/integrate.hpp"

#include <cmath>

namespace pegsim {

void integrate_positions(const Model& model, const VecX& velocity, double h, State& state) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    // Static bodies and bodies not yet present (Body::appear_time) stay where they are.
    if (model.bodies[i].is_static || !model.bodies[i].present_at(state.time)) continue;
    BodyState& s = state.bodies[i];
    s.velocity = velocity.segment<3>(6 * i);
    s.angular_velocity = velocity.segment<3>(6 * i + 3);
    s.position += h * s.velocity;
    // q <- [cos(|w|h/2); w_hat sin(|w|h/2)] (x) q, world-frame w.
    const double angle = s.angular_velocity.norm() * h;
    if (angle > 0.0) {
      const Quat dq(Eigen::AngleAxisd(angle, s.angular_velocity / s.angular_velocity.norm()));
      s.orientation = dq * s.orientation;
    }
    s.orientation.normalize();
  }
}

bool poses_stay_finite(const Model& model, const VecX& velocity, double h, const State& state) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    if (model.bodies[i].is_static || !model.bodies[i].present_at(state.time)) continue;
    const Vec3 position = state.bodies[i].position + h * velocity.segment<3>(6 * i);
    if (!position.allFinite() || !std::isfinite(velocity.segment<3>(6 * i + 3).norm() * h))
      return false;
  }
  return true;
}

}  // namespace pegsim
