// Stage 2+3 of the step: broad phase then narrow phase over every candidate pair.
#pragma once

#include <vector>

#include "engine/collision/broad_phase.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/settings.hpp"

namespace pegsim {

// Clears `contacts` and fills it with every contact within settings.epsilon.
void detect_contacts(const Model& model, const State& state, const Settings& settings,
                     BroadPhase& broad, std::vector<Contact>& contacts);

}  // namespace pegsim
