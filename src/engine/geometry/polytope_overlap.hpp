// Exact overlap volume of convex polytopes (the 3D overlap error of thesis §5.2.4, Fig. 5.14b):
// one polytope is clipped by every face plane of the other (half-space intersection), and the
// volume of what remains follows from the divergence theorem.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// A closed convex solid in the world frame: face polygons, counter-clockwise seen from outside.
struct ConvexSolid {
  std::vector<std::vector<Vec3>> faces;
  std::vector<Vec3> normals;  // outward unit normals
};

// The polytope placed by a body's pose.
ConvexSolid posed_solid(const Polytope& polytope, const BodyState& pose);

// Keeps the part of `solid` in the half-space {x : normal . x <= offset} (normal unit): every
// face is clipped (Sutherland-Hodgman) and the cut is closed by a cap face on the plane.
// Vertices within `tolerance` of the plane count as on it, so that a face lying in the plane is
// kept once and never doubled by a cap.
void clip_solid(const ConvexSolid& solid, const Vec3& normal, double offset, double tolerance,
                ConvexSolid& out);

// Volume enclosed by the faces, by the divergence theorem: V = 1/3 sum_f (x_f . n_f) A_f,
// summed as the tetrahedra of each face's fan with a vertex of the solid.
double solid_volume(const ConvexSolid& solid);

// Volume centroid of a closed convex solid of non-zero volume (the same tetrahedral fans).
Vec3 solid_centroid(const ConvexSolid& solid);

// The intersection of two posed convex polytopes, p clipped by every face plane of q (no
// faces when they are disjoint).
ConvexSolid polytope_intersection(const Polytope& p, const BodyState& p_pose, const Polytope& q,
                                  const BodyState& q_pose);

// Volume of the intersection of two posed convex polytopes (0 when disjoint or touching).
double polytope_overlap_volume(const Polytope& p, const BodyState& p_pose, const Polytope& q,
                               const BodyState& q_pose);

// Volume of the part of a posed polytope inside the half-space {x : normal . (x - point) <= 0}.
double polytope_halfspace_overlap_volume(const Polytope& p, const BodyState& p_pose,
                                         const Vec3& point, const Vec3& normal);

}  // namespace pegsim
