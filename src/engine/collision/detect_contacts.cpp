// Stages 2 and 3 of the step: candidate pairs from the broad phase, contacts from the narrow
// phase, in pair order.
#include "engine/collision/detect_contacts.hpp"

#include "engine/collision/narrow_phase.hpp"

namespace pegsim {

void detect_contacts(const Model& model, const State& state, const Settings& settings,
                     BroadPhase& broad, std::vector<Contact>& contacts) {
  contacts.clear();
  broad.update(model, state, settings.epsilon);
  for (const BodyPair& p : broad.pairs) collide(model, state, settings, p.a, p.b, contacts);
}

}  // namespace pegsim
