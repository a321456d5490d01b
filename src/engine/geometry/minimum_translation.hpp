// The minimum translation that separates two overlapping convex shapes (separating-axis
// theorem): the normal and depth of the corrective method's one contact per overlapping pair
// (thesis §5.2.3, "place one contact per overlap"; the thesis does not say how the normal is
// chosen, collision/overlap_contacts.hpp says what we chose).
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Moving B by depth * normal (or A by -depth * normal) makes the two shapes touch without
// overlapping, and no shorter translation does. The features name where the axis came from:
// a face (3D) or edge (2D) whose outward normal is the axis, or the two edges whose cross
// product it is (3D); otherwise the vertex of each shape deepest along the axis.
struct MinimumTranslation {
  Vec3 normal = Vec3::UnitZ();  // unit, from A onto B (z = 0 in 2D)
  double depth = 0.0;           // > 0
  Feature feature_a, feature_b;
  int deepest_a = -1, deepest_b = -1;  // A's vertex farthest along normal, B's least far
};

// Convex polygons given by their world vertices, counter-clockwise. Returns false when they
// do not overlap (some axis separates them or they only touch).
bool polygon_minimum_translation(const std::vector<Vec2>& a, const std::vector<Vec2>& b,
                                 MinimumTranslation& out);

// Posed convex polytopes; the candidate axes are the face normals of both and the cross
// products of every pair of edges (the faces of the Minkowski difference). Returns false when
// they do not overlap.
bool polytope_minimum_translation(const Polytope& a, const BodyState& a_pose, const Polytope& b,
                                  const BodyState& b_pose, MinimumTranslation& out);

}  // namespace pegsim
