// The area-of-overlap error of a planar (2D) configuration (thesis §5.2.3, Fig. 5.10b: "the
// total area of overlap between all body pairs"): the exact intersection area of every pair
// of polygons present that may collide, summed. The engine's total_overlap measures 3D shapes
// only; this uses geometry/polygon_overlap directly.
#pragma once

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim::cli {

// Sum over the pairs of polygon bodies present at state.time (Body::appear_time) that
// Model::may_collide allows, m^2. Circles and half-planes are not measured.
double planar_overlap_area(const Model& model, const State& state);

}  // namespace pegsim::cli
