#include "engine/contact_models/corrective_model.hpp"

namespace pegsim {

void corrective_model(const std::vector<Contact>& contacts, ConstraintSet& set) {
  set.clear();
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i)
    set.add(ConstraintKind::Unilateral, {i});
}

}  // namespace pegsim
