// The overlap error of a configuration (thesis §5.2.3-5.2.4: "the total area of overlap
// between all body pairs", in 3D the volume): the exact overlap volume of every pair of bodies
// that may collide, summed.
#pragma once

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct OverlapTotals {
  double volume = 0.0;           // sum over the measured pairs, m^3
  double max_pair_volume = 0.0;  // the largest single pair's, m^3
  int overlapping_pairs = 0;     // measured pairs with a volume > 0
  // Pairs that interpenetrate but whose volume has no exact formula here (a sphere against a
  // polytope): they are counted, not measured, and add nothing to `volume`.
  int unmeasured_pairs = 0;
};

// Exact overlap volume of bodies a and b: polytope-polytope (half-space intersection),
// polytope-plane (clipping), sphere-plane (cap), sphere-sphere (lens), a compound against a
// plane, a polytope or a compound (the union of its parts' intersections); for two planar
// bodies the overlap *area* in m^2 (overlap_2d.hpp). Returns false, with volume 0, for a
// sphere against a polytope or a circle against a polygon that it meets, and for shapes it does
// not know.
bool pair_overlap_volume(const Model& model, const State& state, int a, int b, double& volume);

// Every pair that Model::may_collide allows, whose bodies are present at state.time
// (Body::appear_time) and whose bounding boxes meet.
OverlapTotals total_overlap(const Model& model, const State& state);

}  // namespace pegsim
