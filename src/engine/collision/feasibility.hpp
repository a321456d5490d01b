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

}  // namespace pegsim
