// A scene's "controllers" array: PD joint controllers following a target trajectory and
// constant or timed external wrenches, referring to joints and bodies by name
// (docs/scene-format.md).
#pragma once

#include "io/json_node.hpp"
#include "io/scene.hpp"

namespace pegsim {

// Fills scene.model.controllers; joints and bodies must be read first. Throws SceneError
// naming file, pointer and what was expected.
void read_controllers(const JsonNode& list, Scene& scene);

}  // namespace pegsim
