// A rigid placement x -> rotation x + position: a frame in another (a link in its body, a joint
// origin in its parent link, a link in the world), composed as frames are.
#pragma once

#include "engine/core/math.hpp"

namespace pegsim {

struct RigidPlacement {
  Quat rotation = Quat::Identity();
  Vec3 position = Vec3::Zero();
  Vec3 operator*(const Vec3& x) const { return rotation * x + position; }
  RigidPlacement operator*(const RigidPlacement& inner) const {
    return {rotation * inner.rotation, rotation * inner.position + position};
  }
};

}  // namespace pegsim
