// Stage 4, polytope exact geometry. In 3D (thesis §4.4, Alg. 12-17), for every pair of
// polytopes, vertex-vertex, vertex-edge, vertex-face and edge-edge configurations become
// U-, I- and X-constraints; for every pair of polygons, PEG-2D (§4.3, Alg. 8-11,
// peg_model_2d.hpp); contacts with spheres, planes, circles and half-planes stay
// U-constraints.
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Fills `set` from the narrow phase's `contacts`. The I- and X-constraints need contacts the
// narrow phase does not report (a vertex against the plane of every face around a vertex or
// an edge, the lines of two edges that meet at a vertex, and the flipped edge-edge contact C4
// of Alg. 14); they are appended to `contacts`, after the narrow phase's.
void peg_model(const Model& model, const State& state, const Settings& settings,
               std::vector<Contact>& contacts, ConstraintSet& set);

}  // namespace pegsim
