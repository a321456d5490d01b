// Nearest points between simple primitives (thesis Alg. 3, 4 and 7, and POINT-TRIANGLE-3D of
// Alg. 6 generalised to the convex polygon faces of a polytope).
#pragma once

#include "engine/collision/posed_polytope.hpp"
#include "engine/core/contact.hpp"

namespace pegsim {

// Alg. 4.
inline double clamp01(double t) {
  return t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
}

// Alg. 3 (as corrected in the digest): d = a + t (b - a), t in [0, 1], nearest to c.
struct SegmentPoint {
  double t = 0.0;
  Vec3 point = Vec3::Zero();
};
SegmentPoint point_segment(const Vec3& a, const Vec3& b, const Vec3& c);

// Alg. 7 (Ericson's segment-segment, with the branches the thesis omits): nearest points
// c1 = p1 + s (q1 - p1) and c2 = p2 + t (q2 - p2).
struct SegmentSegment {
  double s = 0.0, t = 0.0;
  Vec3 c1 = Vec3::Zero(), c2 = Vec3::Zero();
};
SegmentSegment segment_segment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

// Nearest point of face f of a posed polytope to x, and the feature it lies on: the face
// itself when the projection of x falls inside the polygon (x is in the face's Voronoi
// prism, §3.3), otherwise the boundary edge or vertex.
struct FacePoint {
  Vec3 point = Vec3::Zero();
  Feature feature;
  bool inside = false;
};
FacePoint closest_on_face(const PosedPolytope& body, int f, const Vec3& x);

}  // namespace pegsim
