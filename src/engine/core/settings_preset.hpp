// Named bundles of settings: "exact" (the defaults: Lemke, every step solved to the tolerance)
// and "interactive" (a fixed number of contact-by-contact PGS sweeps a step, the game engines'
// trade: bounded cost, approximate answers, marked as such). A scene's "preset", the CLI's
// --preset and the desktop application's Settings dock apply one before any explicit setting.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/core/settings.hpp"

namespace pegsim {

// The interactive preset's sweeps a step: on stack10 (h = 0.01 s) 20 keep every interface
// within 2 mm; 10 let the stack slide apart within 10 s (docs/benchmarks.md).
constexpr int kInteractiveSweeps = 20;
// The interactive preset's contacts per body pair and normal direction (Settings::
// contacts_per_pair): two faces meeting flat keep four points, as ODE's and Bullet's boxes do.
constexpr int kInteractiveContactsPerPair = 4;

// The presets' names, in the order lists show them.
std::vector<std::string> preset_names();
// Sets the solver fields of `settings` as preset `name` has them (solver, fallbacks,
// max_iterations, iteration_budget, contacts_per_pair, warm_start); false, with `settings`
// unchanged, for an unknown name. Nothing else (h, formulation, contact model, friction) changes.
bool apply_preset(std::string_view name, Settings& settings);
// The preset whose fields `settings` hold, or "" if none.
std::string preset_of(const Settings& settings);

}  // namespace pegsim
