// Axis-aligned bounding boxes in world coordinates.
#pragma once

#include "engine/core/body.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct Aabb {
  Vec3 lo = Vec3::Zero();
  Vec3 hi = Vec3::Zero();
  bool overlaps(const Aabb& o) const {
    return (lo.array() <= o.hi.array()).all() && (o.lo.array() <= hi.array()).all();
  }
};

// World AABB of a body inflated by `margin` on every side. A plane's box is infinite
// (+-inf) except along the axes its normal is aligned with.
Aabb compute_aabb(const Body& body, const BodyState& state, double margin);

}  // namespace pegsim
