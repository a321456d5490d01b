// Contacts of polytopes with planes and with each other (thesis §3.6, Alg. 6 and 7).
// Every contact is returned with the normal pointing from body_a onto body_b:
//   vertex-face / vertex-plane: body_a owns the face (or plane), body_b the vertex, and the
//                               normal is the face's outward normal;
//   edge-edge:                  body_a and body_b as given, normal signed by (3.6).
#pragma once

#include <vector>

#include "engine/collision/posed_polytope.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// An edge between two coplanar faces: no ridge, so no edge-edge or vertex-edge contact.
bool is_flat_edge(const PosedPolytope& body, int e);

// C(v, f): the contact of vertex v of V with the plane of face f of F, wherever v is (the
// contact models build these for every face around a vertex or an edge, §4.4): body_a owns
// the face, the gap is the signed plane distance, with APPL (3.4) and feasibility (§3.3).
Contact vertex_face_contact(const PosedPolytope& V, int v_body, int v, const PosedPolytope& F,
                            int f_body, int f, const Settings& settings);

// C(e_a, e_b): the contact of the lines of two edges, the normal ±(e_a x e_b) signed by the
// orientation rule (3.6) so that it points from A onto B, the gap their signed distance, with
// APPL (3.5) and feasibility (feasibility.hpp). Nearest points are those of the segments
// (Alg. 7). False for parallel edges (no normal). When e_a . O_eb vanishes the rule cannot
// sign n; then n = e_a x e_b.
bool edge_edge_contact(const PosedPolytope& A, int a_body, int ea, const PosedPolytope& B,
                       int b_body, int eb, const Settings& settings, Contact& out);

// Every vertex of the polytope within epsilon of the plane (a half-space: always feasible).
void polytope_plane_contacts(const PosedPolytope& poly, int poly_body, const BodyState& plane,
                             int plane_body, const Settings& settings, std::vector<Contact>& out);

// Alg. 6: every vertex of V within epsilon of a face of F, with (3.4) and §3.3.
void vertex_face_contacts(const PosedPolytope& V, int v_body, const PosedPolytope& F, int f_body,
                          const Settings& settings, std::vector<Contact>& out);

// Alg. 7 over every edge pair within epsilon whose nearest points lie inside both edges,
// the normal signed by the orientation of (3.6) and the pair tested with (3.5).
void edge_edge_contacts(const PosedPolytope& A, int a_body, const PosedPolytope& B, int b_body,
                        const Settings& settings, std::vector<Contact>& out);

}  // namespace pegsim
