// Vertex-face feasibility (thesis §3.3, Fig. 3.7): a test of position, not orientation.
#pragma once

#include "engine/collision/closest_points.hpp"
#include "engine/collision/posed_polytope.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// The vertex x near face f with signed gap psi, whose nearest point on f is `nearest`.
// Inside the face's Voronoi prism it is feasible when psi > -feasibility_depth. Outside, it
// is feasible when it lies above the line leaving the point feasibility_depth below the
// nearest point at feasibility_angle below the face plane:
//   psi >= -feasibility_depth - lateral * tan(feasibility_angle),
// lateral being the distance from `nearest` to x measured along the face plane.
// Inside the prism the depth allowed grows by the depth the vertex can have reached in the last
// step, h times `approach` (its speed into the face, >= 0): a vertex that turned past its
// applicability and into the face within one step (a body turning fast at large h,
// docs/limitations.md) is still one that went in through this face, and must be held.
bool vertex_face_feasible(const Vec3& x, double psi, const FacePoint& nearest, const Vec3& eta,
                          const Settings& settings, double approach = 0.0);

// The same test in 2D for a vertex near an edge (§3.3): `inside` when the vertex's foot on the
// edge line falls within the edge (its Voronoi strip), `lateral` the distance along the edge
// line from the nearest point of the edge to that foot.
bool vertex_edge_feasible(double psi, bool inside, double lateral, const Settings& settings,
                          double approach = 0.0);

// Feasibility of the contact of edge e_a of A and edge e_b of B, whose segments' nearest points
// are c_a and c_b (Alg. 7, clamped to the edges) and whose normal n points from A onto B; the
// lines' signed distance is psi = n . (c_b - c_a). The thesis asks edge-edge contacts for
// feasibility in (4.20) and (4.22) but defines it (§3.3) for vertex-facet contacts only.
// Shallow pairs keep §3.3's bound: psi >= -feasibility_depth - lateral tan(phi), lateral being
// the part of c_b - c_a across n (how far an edge's end misses the lines' nearest points).
// A deeper pair is feasible only if it is a real crossing: c_a lies in B and c_b in A (each
// within feasibility_depth), so the segment c_a-c_b lies in A and B (convex) and psi measures
// their overlap. An edge on B's far side within epsilon of A's edge also reads as deep (B's
// thickness: polyhedra_pour seed 6, h = 0.016, 15 cm, whose U-constraint against the real pair
// pushed the bodies apart at 9 m/s with 1578 N s, issue 6), but there c_b lies outside A.
bool edge_edge_feasible(const PosedPolytope& A, const Vec3& c_a, const PosedPolytope& B,
                        const Vec3& c_b, const Vec3& normal, const Settings& settings);

}  // namespace pegsim
