#include "cli/experiments/contact_model_choice.hpp"

#include <algorithm>

#include "cli/experiments/experiment.hpp"

namespace pegsim::cli {

std::vector<std::string> chosen_models(const std::vector<std::string>& requested) {
  const std::vector<std::string> known = contact_model_names();
  if (requested.empty()) return known;
  for (const std::string& name : requested)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw ExperimentError("--models: unknown contact model '" + name + "' (expected one of " +
                            list + ")");
    }
  return requested;
}

void use_contact_model(Settings& settings, const std::string& name, Primaries primaries) {
  if (!parse_contact_model(name, settings.contact_model))
    throw ExperimentError("unknown contact model '" + name + "'");
  settings.primaries = primaries;
}

}  // namespace pegsim::cli
