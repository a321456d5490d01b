// A body pair's contact manifold cut to a few points (Settings::contacts_per_pair): the
// reduction of the game engines (Bullet's four-point manifold, ODE's box-box cull), applied to
// the standard model's U-constraints. Two faces meeting flat give the standard model a contact
// at every vertex of each face inside the other and at every edge crossing: eight or more
// between two cubes turned a little about their common normal. Across a flat interface the gap
// is an affine function of the point (to first order in the turn), so its smallest value is at
// a corner of the points' convex hull: the deepest point is kept, with the corners that span
// the largest area, and the constraints there hold the points inside their hull out.
#pragma once

#include <vector>

#include "engine/core/contact.hpp"

namespace pegsim {

// Contacts of one body pair whose normals (taken from the lower-numbered body) make an angle
// below this share a manifold.
constexpr double kManifoldCosine = 0.985;  // about 10 degrees

struct ManifoldScratch {
  std::vector<int> order, group, kept;
  std::vector<Vec3> points;
  std::vector<char> taken;
};

// Gaps within this fraction of epsilon (Settings::epsilon) of a manifold's deepest count as
// equally deep (0.5 mm at the default 5 cm): about half a resting stack's jitter under the
// interactive preset.
constexpr double kDepthTie = 0.01;

// Keeps, of `enforced` (indices into `contacts`, ascending), at most `limit` contacts per body
// pair and manifold: the deepest (of those within `depth_tie` m of the smallest gap, the
// farthest from the manifold's centre), the farthest from it, the one spanning the largest
// triangle with those two, the one spanning the largest quadrilateral with the three, then
// (limit > 4) each next the farthest from those kept. `enforced` stays ascending. limit <= 0
// keeps every contact.
void reduce_manifolds(const std::vector<Contact>& contacts, int limit, double depth_tie,
                      std::vector<int>& enforced, ManifoldScratch& scratch);

}  // namespace pegsim
