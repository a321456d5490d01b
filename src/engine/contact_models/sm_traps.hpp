// Standard-model traps (thesis §4.1, Fig. 4.1 and 4.3; §5.1, Fig. 5.1-5.4; §5.2.3, Fig. 5.12
// and 5.13, which counts them per step).
//
// Definition. The standard model enforces every primary contact as a unilateral constraint:
// the feature (a vertex, or in 3D an edge of an edge-edge contact) must stay on the outer
// side of the contact's plane — the facet's plane for vertex-face (3D) and vertex-edge (2D)
// contacts, the plane through the other edge parallel to both edges for edge-edge contacts.
// The plane's normal is the contact normal turned to point from the facet's body onto the
// feature's body. When one feature has primary contacts against two or more facets of the
// same other body and at least two of these planes differ (normals not parallel), the
// constraints enforced together confine the feature to the *intersection* of their outer
// half-spaces. The other body is convex (every shape of the engine is), so its facets meet at
// a convex corner or ridge and the free space there is the *union* of these half-spaces: the
// feature could pass either way round the corner (Fig. 4.1: a vertex near two edges of a
// corner, Fig. 5.3: a vertex near a top and a side face), or must move out through one facet
// only (Fig. 5.1, 5.12: approach from behind), and the standard model forbids it. That
// feature is in an SM trap; the trap's facets are all of its primary contacts with that body.
// Facets whose planes coincide (coplanar faces, two parallel edges of one face crossed by an
// edge) are one constraint and trap nothing; a plane or a sphere is a single smooth surface,
// never a corner. Contacts that repeat an enforced one from the other body (duplicate_of)
// still count: the repeated constraint holds for both features (Fig. 5.2: the dual trap).
// This is a property of the contact set, so it is computed whichever model runs the step.
// With SmEnforce::All (the thesis' SM, which enforces every contact within epsilon, §5.2)
// secondary contacts are facets of traps too: Fig. 5.1's approach from behind and the
// quadruple traps of the box stack (Fig. 5.8) come from contacts that are not applicable.
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

struct SmTrap {
  int body = -1;             // the body whose feature is trapped
  Feature feature;           // Vertex, or Edge (3D edge-edge)
  int other_body = -1;       // the convex body whose facets trap it
  int first = 0, count = 0;  // its contacts are trap_contacts[first, first + count)
};

// Two contact planes with oriented normals m1, m2 are one plane when 1 - m1 . m2 <= this.
constexpr double kSameTrapPlane = 1e-9;

// Reused from step to step, so that finding traps allocates nothing once warmed up.
struct SmTrapWorkspace {
  struct Entry {
    int body, kind, index, other_body, contact;
    int part, other_part;  // compound parts (-1 otherwise): traps are per convex part, §4.5
  };
  std::vector<Entry> entries;
};

// Clears `traps` and `trap_contacts` and fills them with every SM trap among the contacts the
// standard model enforces under `which` (sm_enforces: the primary ones by default), ordered by
// (body, feature kind, feature index, other body); each trap's contacts are indices into
// `contacts`, ascending.
void find_sm_traps(const std::vector<Contact>& contacts, SmTrapWorkspace& workspace,
                   std::vector<SmTrap>& traps, std::vector<int>& trap_contacts,
                   SmEnforce which = SmEnforce::Primary);

// The contact's plane normal as seen by the feature of `body` (which must be body_a or body_b):
// pointing from the other body's facet onto `body`.
Vec3 trap_plane_normal(const Contact& contact, int body);

}  // namespace pegsim
