// The runtime controllers of a model's ControllerSpecs, in order: PD joints, then wrenches.
#pragma once

#include <memory>
#include <vector>

#include "engine/controllers/controller.hpp"

namespace pegsim {

std::vector<std::unique_ptr<Controller>> make_controllers(const ControllerSpecs& specs);

}  // namespace pegsim
