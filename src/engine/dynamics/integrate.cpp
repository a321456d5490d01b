// Position update with the exponential map (thesis (2.36); RPIsim body_updatePosition).
#include "engine/dynamics/integrate.hpp"

#include <cmath>

#include "engine/formulation/free_rotation.hpp"

namespace pegsim {

void integrate_positions(const Model& model, const VecX& velocity, double h, Gyroscopic gyroscopic,
                         const std::vector<char>& held, State& state) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    // Static bodies and bodies not yet present (Body::appear_time) stay where they are.
    const Body& body = model.bodies[i];
    if (body.is_static || !body.present_at(state.time)) continue;
    BodyState& s = state.bodies[i];
    // From the step's start state, before it is overwritten (a planar body has no gyroscopic
    // term to correct).
    const Vec3 correction = gyroscopic == Gyroscopic::Midpoint && !body.shape.planar() && !held[i]
                                ? free_rotation(body, s, h, gyroscopic).rotation_correction
                                : Vec3::Zero();
    s.velocity = velocity.segment<3>(6 * i);
    s.angular_velocity = velocity.segment<3>(6 * i + 3);
    s.position += h * s.velocity;
    // q <- [cos(|w_q|h/2); w_q_hat sin(|w_q|h/2)] (x) q, world-frame w_q.
    const Vec3 turn = s.angular_velocity + correction;
    const double angle = turn.norm() * h;
    if (angle > 0.0)
      s.orientation = Quat(Eigen::AngleAxisd(angle, turn / turn.norm())) * s.orientation;
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
