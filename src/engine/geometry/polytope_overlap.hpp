// Exact overlap volume of convex polytopes (the 3D overlap error of thesis §5.2.4, Fig. 5.14b):
// one polytope is clipped by every face plane of the other (half-space intersection), and the
// volume of what remains follows from the divergence theorem.
#pragma once

#include <span>
#include <vector>

#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// A closed convex solid in the world frame: face polygons, counter-clockwise seen from outside,
// stored one after another so that a solid reused from step to step keeps its buffers (the
// corrective method clips polytopes in every step).
struct ConvexSolid {
  std::vector<Vec3> points;  // face k's vertices are points[ends[k - 1] .. ends[k])
  std::vector<int> ends;
  std::vector<Vec3> normals;  // outward unit normals

  int face_count() const { return static_cast<int>(ends.size()); }
  bool empty() const { return ends.empty(); }
  std::span<const Vec3> face(int k) const {
    const int begin = k == 0 ? 0 : ends[k - 1];
    return {points.data() + begin, static_cast<std::size_t>(ends[k] - begin)};
  }
  void clear() {
    points.clear();
    ends.clear();
    normals.clear();
  }
  // Ends the face made of the points added since the last face.
  void close_face(const Vec3& normal) {
    ends.push_back(static_cast<int>(points.size()));
    normals.push_back(normal);
  }
};

// The polytope placed by a body's pose, into `out` (its buffers reused).
void place_solid(const Polytope& polytope, const BodyState& pose, ConvexSolid& out);
ConvexSolid posed_solid(const Polytope& polytope, const BodyState& pose);

// Keeps the part of `solid` in the half-space {x : normal . x <= offset} (normal unit): every
// face is clipped (Sutherland-Hodgman) and the cut is closed by a cap face on the plane.
// Vertices within `tolerance` of the plane count as on it, so that a face lying in the plane is
// kept once and never doubled by a cap. `cap` is a scratch buffer.
void clip_solid(const ConvexSolid& solid, const Vec3& normal, double offset, double tolerance,
                ConvexSolid& out, std::vector<Vec3>& cap);

// Volume enclosed by the faces, by the divergence theorem: V = 1/3 sum_f (x_f . n_f) A_f,
// summed as the tetrahedra of each face's fan with a vertex of the solid.
double solid_volume(const ConvexSolid& solid);

// Volume centroid of a closed convex solid of non-zero volume (the same tetrahedral fans).
Vec3 solid_centroid(const ConvexSolid& solid);

// Integrals over a solid of 1, x and x x^T, x measured from a chosen origin, for unit density.
struct SolidMoments {
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();

  void add(const SolidMoments& m, double sign) {
    volume += sign * m.volume;
    first += sign * m.first;
    second += sign * m.second;
  }
};

// The moments of a closed solid about `origin`, by the divergence theorem over the tetrahedral
// fans of its faces (as polytope_mass_properties). An origin near the solid loses no digits.
SolidMoments solid_moments(const ConvexSolid& solid, const Vec3& origin = Vec3::Zero());

// Buffers of polytope_intersection, reused from call to call.
struct SolidWorkspace {
  ConvexSolid other, next, common;
  std::vector<Vec3> cap;
};

// The intersection of two posed convex polytopes, p clipped by every face plane of q (no
// faces when they are disjoint); returns w.common.
const ConvexSolid& polytope_intersection(const Polytope& p, const BodyState& p_pose,
                                         const Polytope& q, const BodyState& q_pose,
                                         SolidWorkspace& w);

// Volume of the intersection of two posed convex polytopes (0 when disjoint or touching).
double polytope_overlap_volume(const Polytope& p, const BodyState& p_pose, const Polytope& q,
                               const BodyState& q_pose);

// Volume of the part of a posed polytope inside the half-space {x : normal . (x - point) <= 0}.
double polytope_halfspace_overlap_volume(const Polytope& p, const BodyState& p_pose,
                                         const Vec3& point, const Vec3& normal);

}  // namespace pegsim
