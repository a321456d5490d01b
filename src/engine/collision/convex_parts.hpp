// The convex parts of a body in the world (thesis §4.5: contact with a compound is contact with
// its convex parts): a compound's parts, or the body's own shape as its one part.
#pragma once

#include <cmath>

#include "engine/core/model.hpp"
#include "engine/core/part_state.hpp"

namespace pegsim {

struct ConvexPart {
  const Shape& shape;
  BodyState pose;
  int index;  // the compound's part, -1 for a body's own shape

  // A sphere around the part (infinite for a plane or half-plane), to skip part pairs far
  // apart.
  double radius() const {
    if (shape.kind == ShapeKind::Plane || shape.kind == ShapeKind::HalfPlane) return INFINITY;
    if (shape.kind == ShapeKind::Polygon) return shape.polygon->bounding_radius;
    return shape.kind == ShapeKind::Polytope ? shape.polytope->bounding_radius : shape.radius;
  }
};

inline ConvexPart convex_part(const Body& body, const BodyState& pose, int k) {
  if (body.shape.kind != ShapeKind::Compound) return {body.shape, pose, -1};
  const CompoundPart& p = body.shape.compound->parts[k];
  return {p.shape, part_state(pose, p), k};
}

inline int convex_part_count(const Body& body) {
  return body.shape.kind == ShapeKind::Compound
             ? static_cast<int>(body.shape.compound->parts.size())
             : 1;
}

}  // namespace pegsim
