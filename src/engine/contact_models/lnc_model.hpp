// Stage 4, Nguyen's locally non-convex model (thesis §4.1, (4.2)-(4.4)): the contacts of one
// vertex against the faces of one other body form one I-constraint, so the vertex may pass
// any one face's plane but not all of them; every other primary contact is a U-constraint.
// Unlike PEG it has no X-constraints, so it admits the interpenetration of Fig. 4.4.
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"

namespace pegsim {

void lnc_model(const std::vector<Contact>& contacts, ConstraintSet& set);

}  // namespace pegsim
