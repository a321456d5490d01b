// Building the groups of a ConstraintSet from contacts: C-SPLIT (thesis Alg. 9) and the
// choice of the single primary contact of an I-constraint (4.14).
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"

namespace pegsim {

// Alg. 9: C_iota (the contacts that are applicable and feasible: they may carry a force over
// the step) first, C_kappa (the rest, which only shape the geometry) after, each in the given
// order.
void c_split(const std::vector<Contact>& contacts, std::vector<int>& members);

// Adds I(C_iota, C_kappa) over `members` (indices into `contacts`) in the single-primary form
// (4.14): the primary is the C_iota contact of largest gap, the one the max of (4.1) picks at
// the start of the step; it is moved to the front. Without a C_iota contact there is no
// force to satisfy the constraint (§4.2.2) and nothing is added; a lone contact is a
// U-constraint. A group equal to one already in `set` is not repeated. Returns whether the
// set holds the constraint.
bool add_inter_contact(const std::vector<Contact>& contacts, ConstraintKind kind,
                       std::vector<int> members, ConstraintSet& set);

}  // namespace pegsim
