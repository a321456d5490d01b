#include "engine/core/settings_preset.hpp"

namespace pegsim {
namespace {

struct Preset {
  const char* name;
  const char* solver;
  std::vector<std::string> fallbacks;
  int max_iterations;
  bool iteration_budget;
  int contacts_per_pair;
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = {
      {"exact", "lemke", Settings{}.fallbacks, Settings{}.max_iterations, false,
       Settings{}.contacts_per_pair},
      {"interactive", "pgs-contact", {}, kInteractiveSweeps, true, kInteractiveContactsPerPair},
  };
  return all;
}

}  // namespace

std::vector<std::string> preset_names() {
  std::vector<std::string> out;
  for (const Preset& p : presets()) out.emplace_back(p.name);
  return out;
}

bool apply_preset(std::string_view name, Settings& settings) {
  for (const Preset& p : presets()) {
    if (name != p.name) continue;
    settings.solver = p.solver;
    settings.fallbacks = p.fallbacks;
    settings.max_iterations = p.max_iterations;
    settings.iteration_budget = p.iteration_budget;
    settings.contacts_per_pair = p.contacts_per_pair;
    settings.warm_start = true;
    return true;
  }
  return false;
}

std::string preset_of(const Settings& settings) {
  for (const Preset& p : presets())
    if (settings.solver == p.solver && settings.fallbacks == p.fallbacks &&
        settings.max_iterations == p.max_iterations &&
        settings.iteration_budget == p.iteration_budget &&
        settings.contacts_per_pair == p.contacts_per_pair && settings.warm_start)
      return p.name;
  return "";
}

}  // namespace pegsim
