// Stage 4 of the step: the contact model chosen by Settings::contact_model turns the narrow
// phase's contacts into a ConstraintSet (thesis Ch. 4). The corrective method's contacts come
// from its own detection (Simulator::step, collision/overlap_contacts.hpp).
#pragma once

#include <vector>

#include "engine/contact_models/contact_manifold.hpp"
#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Fills `set`; PEG may append contacts to `contacts` (see peg_model). duplicate_of[i] names
// the enforced contact a standard-model contact repeats (-1 otherwise, and for the others),
// one entry per contact. `scratch` and `manifold` are workspaces.
void apply_contact_model(const Model& model, const State& state, const Settings& settings,
                         std::vector<Contact>& contacts, ConstraintSet& set,
                         std::vector<int>& duplicate_of, std::vector<int>& scratch,
                         ManifoldScratch& manifold);

}  // namespace pegsim
