// Stage 4, polytope exact geometry in 2D (thesis §4.3, Alg. 8-11) for one pair of polygons:
// a vertex near an edge is a U-constraint (4.16); two vertices within epsilon of each other
// give the I- and X-constraints of (4.17).
#pragma once

#include <vector>

#include "engine/collision/posed_polygon.hpp"
#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// One side of the pair: the posed polygon and its body; for a planar compound's part (§4.5)
// the part, the compound and the body's pose, so that vertices buried in another part of the
// compound (inside the body, not on its surface) make no vertex-vertex case.
struct PegPolygon {
  PosedPolygon polygon;
  int body;
  int part = -1;
  const Compound* compound = nullptr;
  const BodyState* body_pose = nullptr;
};

// Alg. 11 for polygons A and B. `narrow` lists the narrow phase's contacts between them
// (indices into `contacts`); a contact of a vertex-vertex configuration the narrow phase did
// not report (a vertex exactly epsilon away) is built, labelled with the parts and appended
// to `contacts`.
// `vertex_done` is a workspace.
void peg_2d(const PegPolygon& A, const PegPolygon& B, const Settings& settings,
            const std::vector<int>& narrow, std::vector<Contact>& contacts, ConstraintSet& set,
            std::vector<char>& vertex_done);

}  // namespace pegsim
