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

// Every vertex of the polytope within epsilon of the plane (a half-space: always feasible).
void polytope_plane_contacts(const PosedPolytope& poly, int poly_body, const BodyState& plane,
                             int plane_body, const Settings& settings, std::vector<Contact>& out);

// Alg. 6: every vertex of V within epsilon of a face of F, with (3.4) and §3.3.
void vertex_face_contacts(const PosedPolytope& V, int v_body, const PosedPolytope& F,
                          int f_body, const Settings& settings, std::vector<Contact>& out);

// Alg. 7 over every edge pair within epsilon whose nearest points lie inside both edges,
// the normal signed by the orientation of (3.6) and the pair tested with (3.5).
void edge_edge_contacts(const PosedPolytope& A, int a_body, const PosedPolytope& B, int b_body,
                        const Settings& settings, std::vector<Contact>& out);

}  // namespace pegsim
