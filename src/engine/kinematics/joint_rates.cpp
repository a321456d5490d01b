#include "engine/kinematics/joint_rates.hpp"

namespace pegsim {
namespace {

// Velocity of the material point of `body` at world point p (the world is at rest).
Vec3 point_velocity(const State& state, int body, const Vec3& p) {
  if (body < 0) return Vec3::Zero();
  const BodyState& s = state.bodies[body];
  return s.velocity + s.angular_velocity.cross(p - s.position);
}

Vec3 angular_velocity(const State& state, int body) {
  return body < 0 ? Vec3::Zero() : state.bodies[body].angular_velocity;
}

}  // namespace

Vec3 joint_effort_point(const State& state, const Joint& joint) {
  return joint_frames(state, joint).origin_b;
}

JointCoordinates joint_rates(const State& state, const Joint& j) {
  const JointFrames f = joint_frames(state, j);
  const Vec3 z = f.axes_a.col(2);
  JointCoordinates r;
  if (has_free_angle(j.type))
    r.angle = z.dot(angular_velocity(state, j.body_b) - angular_velocity(state, j.body_a));
  if (has_free_translation(j.type))
    r.displacement = z.dot(point_velocity(state, j.body_b, f.origin_b) -
                           point_velocity(state, j.body_a, f.origin_b));
  return r;
}

}  // namespace pegsim
