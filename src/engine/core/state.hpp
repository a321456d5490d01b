// The mutable part of a simulation: time, poses and twists.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// Pose of the centre of mass and world-frame twist nu = [v; omega] (thesis §2.1.1).
struct BodyState {
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();  // (w, x, y, z), body -> world
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();  // world frame
  Vec3 force = Vec3::Zero();             // external force applied during the next step (world)
  Vec3 torque = Vec3::Zero();            // external torque applied during the next step (world)
};

struct State {
  double time = 0.0;
  std::int64_t step = 0;
  std::vector<BodyState> bodies;
};

// World position of a body-frame point.
inline Vec3 to_world(const BodyState& s, const Vec3& local) {
  return s.position + s.orientation * local;
}

}  // namespace pegsim
