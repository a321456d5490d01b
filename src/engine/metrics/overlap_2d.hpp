// Exact overlap areas of planar (2D) bodies: the area-of-overlap error of thesis §5.2.3
// (Fig. 5.10b) and §5.3 (Fig. 5.23, 5.25) for the shapes of 2D scenes.
#pragma once

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Overlap area (m^2) of planar bodies a and b: polygon-polygon (convex clipping),
// polygon-half-plane (clipping by the line), circle-circle (lens), circle-half-plane
// (circular segment), and a planar compound against any of them or another compound: the
// area of the overlap of the unions, the union of the parts' pairwise intersections
// (inclusion-exclusion, so a region inside two parts counts once). Returns false, with area 0,
// for a circle (or circle part) against a polygon (or polygon part) that it meets (no closed
// form here) and for a pair that is not planar.
bool pair_overlap_area_2d(const Model& model, const State& state, int a, int b, double& area);

}  // namespace pegsim
