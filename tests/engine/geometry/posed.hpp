// A body pose for the geometry tests: a position and an orientation.
#pragma once

#include "engine/core/state.hpp"

namespace pegsim {

inline BodyState pose(const Vec3& p, const Quat& q = Quat::Identity()) {
  BodyState s;
  s.position = p;
  s.orientation = q;
  return s;
}

}  // namespace pegsim
