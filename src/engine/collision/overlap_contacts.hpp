// Stages 2 and 3 of the corrective method (thesis §5.2, §5.2.3): contacts only where bodies
// already overlap, one per overlapping pair.
//
// The thesis says: "The corrective method considers only contacts that are violated" (§5.2),
// and for the box of polygons it "identifies areas of overlap per body pair, determines a
// single contact per overlap, and applies impulses to reduce the interpenetration to zero at
// the end of the time-step" (§5.2.3). It does not say where that contact lies or which way it
// points. Our choices:
//   - no look-ahead: the broad phase is not inflated by epsilon and a pair yields a contact
//     only when the bodies overlap (touching is not overlapping);
//   - polygon-polygon (2D) and polytope-polytope (3D): the normal is the minimum translation
//     direction (separating-axis theorem over edge normals in 2D; face normals and edge-edge
//     cross products in 3D, geometry/minimum_translation.hpp), the gap is minus the depth
//     along it, and the contact lies at the centroid of the overlap region (the area of the
//     clipped polygon, the volume of the clipped polytope): p_A and p_B = p_A + gap n sit
//     depth / 2 either side of it;
//   - a compound body (§4.5), 3D or planar, pair by pair of its convex parts, as the bodies
//     above: one contact per overlapping pair of polytope parts or of polygon parts, labelled
//     with the parts;
//   - spheres, circles, planes and half-planes: the narrow phase's own contacts with
//     epsilon = 0, those with a negative gap (sphere-plane, sphere-sphere, sphere-polytope and
//     the circle pairs have one, a polytope against a plane one per vertex below it).
// Every contact is returned applicable and feasible: the corrective method enforces what
// overlaps, whatever the feasibility test of §3.3 would say.
#pragma once

#include <vector>

#include "engine/collision/broad_phase.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"
#include "engine/geometry/polytope_overlap.hpp"

namespace pegsim {

// Buffers reused from step to step.
struct OverlapContactWorkspace {
  std::vector<Vec2> outline_a, outline_b, common, scratch;
  SolidWorkspace solids;
  std::vector<Contact> narrow;
};

// Clears `contacts` and fills it with the corrective contacts of every overlapping pair, in
// pair order (body_a < body_b for the polygon and polytope pairs).
void overlap_contacts(const Model& model, const State& state, const Settings& settings,
                      BroadPhase& broad, OverlapContactWorkspace& work,
                      std::vector<Contact>& contacts);

}  // namespace pegsim
