// Stage 3 of the volumetric contact model (seed 002): one contact per overlapping pair of convex
// parts (a compound's parts one by one, thesis §4.5), from their common volume
// (geometry/intersection_properties.hpp; planar bodies: the common area).
//
// The seed applies F_n = k_v V (1 + a v_n) (3.1) at the volume's centroid along a plane fitted to
// the intersection contour. Here the normal is the gradient of V with respect to separating the
// parts, which a cube in a hole of convex parts also has part by part. The contact lies at the
// centroid: p_A and p_B sit d / 2 either side of it along the normal, d = V / (-dV/dd) the mean
// depth, and the gap is -d. The pair's layer (k_v, a) comes from the bodies' VolumetricLayer
// (body.hpp). Every pair of polytope, sphere and plane parts (polygon, circle and half-plane in
// 2D) is exact; a sphere against a polytope integrates V, centroid and inertia to 1e-12
// (intersection_properties.hpp).
#pragma once

#include <vector>

#include "engine/collision/broad_phase.hpp"
#include "engine/core/contact.hpp"
#include "engine/geometry/intersection_properties.hpp"

namespace pegsim {

// Buffers reused from step to step.
struct VolumeContactWorkspace {
  IntersectionWorkspace common;
  std::vector<Vec2> outline_a, outline_b;
};

// Clears `contacts` and fills it with the volumetric contacts of every overlapping part pair, in
// broad-phase pair order.
void volume_contacts(const Model& model, const State& state, BroadPhase& broad,
                     VolumeContactWorkspace& work, std::vector<Contact>& contacts);

}  // namespace pegsim
