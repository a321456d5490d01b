// Narrow phase: contacts between one pair of bodies (thesis Ch. 3, Alg. 6 and 7).
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Appends to `out` every contact between bodies a and b within settings.epsilon, each with
// the 5-tuple, the features, APPL and feasibility. Pairs: sphere-plane, sphere-sphere,
// sphere-polytope, polytope-plane, polytope-polytope (vertex-face both ways and edge-edge);
// pairs of planar bodies go to collide_2d (narrow_phase_2d.hpp).
// Contacts are emitted with body_a/body_b as the narrow phase decides, the normal pointing
// from body_a onto body_b. Output order is deterministic.
void collide(const Model& model, const State& state, const Settings& settings, int a, int b,
             std::vector<Contact>& out);

// The same for two convex 3D shapes (sphere, plane, polytope) placed at world poses, as parts
// of bodies a and b (a compound's part, or a body's own shape); part labels are left to the
// caller.
void collide_shapes(const Shape& shape_a, const BodyState& pose_a, int a, const Shape& shape_b,
                    const BodyState& pose_b, int b, const Settings& settings,
                    std::vector<Contact>& out);

}  // namespace pegsim
