// The "compound" shape of a scene (thesis §4.5): a non-convex body as a union of overlapping
// convex parts, each placed in the compound's frame by "position" and "orientation"; the union
// is re-centred on its centroid. 3D and 2D scenes differ only in their parts' shapes and poses.
#pragma once

#include <functional>

#include "engine/geometry/compound.hpp"
#include "io/json_node.hpp"
#include "io/scene_shape.hpp"

namespace pegsim {

struct CompoundSyntax {
  const char* shape_what;   // what a part's "shape" is, for errors
  const char* part_types;   // the part types, for errors
  const char* not_a_part;   // the unbounded type ("plane", "half_plane"), refused as a part
  const char* round_parts;  // "spheres" or "circles": the parts that may not overlap others
  std::function<SceneShape(const JsonNode&)> parse_part;
  // Sets the part's position and orientation from the item's fields, if present.
  std::function<void(const JsonNode& item, CompoundPart& part)> parse_pose;
};

SceneShape parse_compound(const JsonNode& s, const CompoundSyntax& syntax);

}  // namespace pegsim
