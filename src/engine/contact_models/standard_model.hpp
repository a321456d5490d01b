// Stage 4, the standard model (thesis §4.1): every primary contact within epsilon (or, with
// SmEnforce::All, every contact within epsilon, as the thesis' experiments do, §5.2) is
// enforced as one unilateral constraint, n^T (v_B - v_A) + psi / h >= 0 at its point.
#pragma once

#include <vector>

#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// Two contacts of the same body pair closer than this (m), with equal gaps to this (m) and
// normals parallel to 1 - |n1 . n2| <= kSameNormal, are one physical contact.
constexpr double kSamePoint = 1e-9;
constexpr double kSameNormal = 1e-12;

// Whether the standard model enforces the contact: primary ones always, secondary ones too
// with SmEnforce::All.
inline bool sm_enforces(const Contact& c, SmEnforce which) {
  return which == SmEnforce::All || c.primary();
}

// Fills `enforced` with the indices of the contacts sm_enforces, in order, each physical contact
// once: a contact that repeats an earlier enforced one — between aligned cubes, the vertex of A
// on a face of B and the vertex of B on a face of A at the same corner — is not enforced, and
// duplicate_of[i] names the contact that is (-1 for every other contact). A repeated constraint
// adds nothing to the feasible velocities but makes the LCP matrix singular.
void standard_model(const std::vector<Contact>& contacts, std::vector<int>& enforced,
                    std::vector<int>& duplicate_of, SmEnforce which = SmEnforce::Primary);

// The same physical contact: same unordered body pair, same point (the midpoint between the two
// bodies' points, which does not depend on which body is A), same gap, same normal line.
bool same_physical_contact(const Contact& c1, const Contact& c2);

}  // namespace pegsim
