// The world state of a compound's part (thesis §4.5): the body's pose composed with the part's
// pose in the body frame, and the body's twist at the part's origin.
#pragma once

#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

inline BodyState part_state(const BodyState& body, const CompoundPart& part) {
  BodyState s;
  s.position = body.position + body.orientation * part.position;
  s.orientation = body.orientation * part.orientation;
  s.velocity = body.velocity + body.angular_velocity.cross(s.position - body.position);
  s.angular_velocity = body.angular_velocity;
  return s;
}

}  // namespace pegsim
