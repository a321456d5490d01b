// Vertex-face feasibility (thesis §3.3, Fig. 3.7): a test of position, not orientation.
#pragma once

#include "engine/collision/closest_points.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// The vertex x near face f with signed gap psi, whose nearest point on f is `nearest`.
// Inside the face's Voronoi prism it is feasible when psi > -feasibility_depth. Outside, it
// is feasible when it lies above the line leaving the point feasibility_depth below the
// nearest point at feasibility_angle below the face plane:
//   psi >= -feasibility_depth - lateral * tan(feasibility_angle),
// lateral being the distance from `nearest` to x measured along the face plane.
bool vertex_face_feasible(const Vec3& x, double psi, const FacePoint& nearest, const Vec3& eta,
                          const Settings& settings);

// The same test in 2D for a vertex near an edge (§3.3): `inside` when the vertex's foot on the
// edge line falls within the edge (its Voronoi strip), `lateral` the distance along the edge
// line from the nearest point of the edge to that foot.
bool vertex_edge_feasible(double psi, bool inside, double lateral, const Settings& settings);

// The same test for the contact of two edges with signed line distance psi, whose nearest
// points (on the segments) are `offset` = c_b - c_a apart. The thesis asks edge-edge contacts
// for feasibility in (4.20) and (4.22) but defines it for vertex-facet contacts only; this is
// §3.3 with the pair's Voronoi region: when the lines' nearest points lie inside both edges,
// offset is psi n and the pair is feasible for psi > -feasibility_depth; otherwise `lateral`
// is the part of offset across n, how far the edges' ends miss the lines' nearest points.
// Without it, an edge of B on B's far side within epsilon of an edge of A (polyhedra_pour
// seed 6, h = 0.016: 15 cm away, epsilon 16 cm) reads as 15 cm deep, and its U-constraint
// against the near edge pair's pushed the bodies apart at 9 m/s with 1578 N s (issue 6).
bool edge_edge_feasible(double psi, const Vec3& offset, const Vec3& normal,
                        const Settings& settings);

}  // namespace pegsim
