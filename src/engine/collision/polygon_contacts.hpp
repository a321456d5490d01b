// Contacts of polygons with polygons and half-planes: the 2D narrow phase (thesis §3.5,
// Alg. 5). Every contact is a vertex near an edge (or a half-plane's line): body_a owns the
// edge, body_b the vertex, and the normal is the edge's outward normal, from body_a onto
// body_b. A vertex-vertex configuration (two vertices within epsilon) needs no contact kind of
// its own: Alg. 5 finds each vertex near both edges of the other (the four contacts C1..C4 of
// Alg. 10), and vertex_vertex_pairs lists the pairs for the models that treat them apart.
#pragma once

#include <vector>

#include "engine/collision/posed_polygon.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// Alg. 5: every vertex of V within epsilon of an edge of E (distance to the segment, Alg. 3),
// with gap psi = (v - v_b1) . eta_b (3.7), point_a the foot of v on the edge line (3.8),
// APPL (3.3) and feasibility (§3.3). Primary when applicable and feasible, else secondary.
void vertex_edge_contacts(const PosedPolygon& V, int v_body, const PosedPolygon& E, int e_body,
                          const Settings& settings, std::vector<Contact>& out);

// One contact of Alg. 5, C(v, e): vertex v of V against edge e of E, whatever their distance
// (PEG-2D builds the contacts of a vertex-vertex configuration with it, Alg. 10).
Contact vertex_edge_contact(const PosedPolygon& V, int v_body, int v, const PosedPolygon& E,
                            int e_body, int e, const Settings& settings);

// Every vertex of the polygon within epsilon of the half-plane's line (always feasible).
void polygon_half_plane_contacts(const PosedPolygon& poly, int poly_body,
                                 const BodyState& half_plane, int half_plane_body,
                                 const Settings& settings, std::vector<Contact>& out);

// Alg. 11's first loop: the vertex pairs (v_a of A, v_b of B) closer than epsilon.
struct VertexPair {
  int vertex_a = -1, vertex_b = -1;
  double distance = 0.0;
};
void vertex_vertex_pairs(const PosedPolygon& A, const PosedPolygon& B, double epsilon,
                         std::vector<VertexPair>& out);

// The world outward normal of a half-plane body (+y of its body frame, in the x-y plane).
inline Vec2 half_plane_normal(const BodyState& s) {
  return in_plane(s.orientation * Vec3::UnitY());
}

}  // namespace pegsim
