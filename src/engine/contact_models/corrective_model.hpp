// Stage 4, the corrective method the thesis compares PEG with (§5.2, §5.2.1, §5.2.3): "a
// modified penalty method" whose corrective forces are "modeled as unilateral constraints and
// solved for simultaneously" rather than springs. Its contacts come from the overlaps alone
// (collision/overlap_contacts.hpp, one per overlapping pair); each becomes a U-constraint
// whose Stewart-Trinkle row psi / h + n^T (v_B - v_A) >= 0 (6.1) asks the gap to be >= 0 at
// the end of the step, so the impulse "drives the interpenetration to zero at the end of the
// step" (§5.2.3) and leaves the bodies parting at -psi / h: the bounce of Fig. 5.5 and 5.7.
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"

namespace pegsim {

// Every contact a U-constraint (4.7), in order.
void corrective_model(const std::vector<Contact>& contacts, ConstraintSet& set);

}  // namespace pegsim
