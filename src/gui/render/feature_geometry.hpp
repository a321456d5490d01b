// Where a contact feature of a body is in the world, for drawing it: a vertex as one point,
// an edge as its two ends, a face as its vertices (CCW from outside). Polytopes and polygons
// (whose edge e joins vertices e and e + 1); empty for smooth features and bad indices.
#pragma once

#include <vector>

#include "engine/core/body.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/state.hpp"

namespace pegsim::gui {

std::vector<Vec3> feature_points(const Body& body, const BodyState& state, const Feature& feature);

}  // namespace pegsim::gui
