// The contact models an experiment compares: chosen by name on the Settings.
#pragma once

#include <string>
#include <vector>

#include "engine/core/settings.hpp"

namespace pegsim::cli {

// options.models, or every model (contact_model_names()) when it is empty; throws
// ExperimentError for an unknown name.
std::vector<std::string> chosen_models(const std::vector<std::string>& requested);
// Sets the contact model of `settings` to `name` (one of contact_model_names()) and how its
// I-constraints choose their primaries.
void use_contact_model(Settings& settings, const std::string& name,
                       Primaries primaries = Primaries::LargestGap);

}  // namespace pegsim::cli
