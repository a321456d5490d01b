// Relaxed applicability (thesis §3.2): a value, compared with eps_theta = -sin(theta).
#pragma once

#include "engine/collision/posed_polygon.hpp"
#include "engine/collision/posed_polytope.hpp"

namespace pegsim {

// (3.4): min over the neighbours v_k of v of  eta . (v_k - v) / |v_k - v|, for the world
// unit normal eta of the face (or plane) v is near. Negative when an edge of v points at it.
double vertex_face_applicability(const PosedPolytope& body, int v, const Vec3& eta);

// (3.3), 2D: min over the two neighbours v_k of polygon vertex v of
// eta . (v_k - v) / |v_k - v|, for the world unit normal eta of the edge (or half-plane) v is near.
double vertex_edge_applicability(const PosedPolygon& body, int v, const Vec2& eta);

// (3.2): unit tangents of edge e, lying in its faces (t1 in face_left, t2 in face_right),
// perpendicular to e and pointing into the faces: t1 = eta1 x e, t2 = e x eta2.
struct EdgeTangents {
  Vec3 t1, t2;
};
EdgeTangents edge_tangents(const PosedPolytope& body, int e);

// (3.5): with d_a = n . t_a and d_b = -n . t_b,
// APPL = max(min(d_a1, d_a2, d_b1, d_b2), min(-d_a1, -d_a2, -d_b1, -d_b2)).
double edge_edge_applicability(const EdgeTangents& a, const EdgeTangents& b, const Vec3& n);

}  // namespace pegsim
