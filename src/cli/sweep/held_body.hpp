// Which parts of a body the others hold it by at the end of a step: the contacts that carry
// force, and the part of the body each touches (seed 001 §6.4's "held by its outer-most
// teeth"). For the gear_grasp experiment and the sweeps' grasp metric.
#pragma once

#include <map>
#include <set>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/dynamics/step_report.hpp"

namespace pegsim::cli {

// A contact holds when its normal impulse is at least this fraction of the step's largest.
constexpr double kHoldingFraction = 1e-2;

// For each other body with a contact on `held` that holds: the parts of `held` it touches (a
// compound's part index; under the geometrically implicit formulation the piece whose function
// is nearest zero at the contact point; 0 for a body of one part).
std::map<int, std::set<int>> parts_touched(const Model& model, const State& state,
                                           const StepReport& report, int held);

}  // namespace pegsim::cli
