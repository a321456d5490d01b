#include "engine/contact_models/contact_model.hpp"

#include "engine/contact_models/contact_manifold.hpp"
#include "engine/contact_models/corrective_model.hpp"
#include "engine/contact_models/lnc_model.hpp"
#include "engine/contact_models/peg_model.hpp"
#include "engine/contact_models/standard_model.hpp"

namespace pegsim {

void apply_contact_model(const Model& model, const State& state, const Settings& settings,
                         std::vector<Contact>& contacts, ConstraintSet& set,
                         std::vector<int>& duplicate_of, std::vector<int>& scratch,
                         ManifoldScratch& manifold) {
  switch (settings.contact_model) {
    case ContactModel::Standard:
      standard_model(contacts, scratch, duplicate_of, settings.sm_enforce);
      reduce_manifolds(contacts, settings.contacts_per_pair, kDepthTie * settings.epsilon, scratch,
                       manifold);
      set.clear();
      for (int i : scratch) set.add(ConstraintKind::Unilateral, {i});  // (4.7)
      return;
    case ContactModel::Lnc:
      lnc_model(contacts, set);
      break;
    case ContactModel::Peg:
      peg_model(model, state, settings, contacts, set);
      break;
    case ContactModel::Corrective:
    case ContactModel::Volumetric:  // every overlap a U-constraint, compliant (volume_contacts)
      corrective_model(contacts, set);
      break;
  }
  duplicate_of.assign(contacts.size(), -1);
}

}  // namespace pegsim
