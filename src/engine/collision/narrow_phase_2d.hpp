// Narrow phase between planar (2D) bodies: polygons, circles and half-planes (thesis §3.5).
// Who is body_a (the normal always points from body_a onto body_b, in the x-y plane):
//   polygon vertex - edge (both ways), polygon/circle - half-plane: the edge or half-plane owner;
//   circle - polygon: the polygon (normal out of its nearest edge or vertex);
//   circle - circle: the pair as given.
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Appends every contact between planar bodies a and b within settings.epsilon. A pair with a
// 3D shape, or two half-planes, has none. (Compounds go through collide, narrow_phase.hpp.)
void collide_2d(const Model& model, const State& state, const Settings& settings, int a, int b,
                std::vector<Contact>& out);

// The same for two convex planar shapes (polygon, circle, half-plane) placed at world poses,
// as parts of bodies a and b (a compound's part, or a body's own shape); part labels are left
// to the caller.
void collide_shapes_2d(const Shape& shape_a, const BodyState& pose_a, int a, const Shape& shape_b,
                       const BodyState& pose_b, int b, const Settings& settings,
                       std::vector<Contact>& out);

}  // namespace pegsim
