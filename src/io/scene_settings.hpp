// The "settings" object of a scene file: every field optional, defaults from Settings.
#pragma once

#include "engine/core/settings.hpp"
#include "io/json_node.hpp"

namespace pegsim {

// The defaults of a scene of `dimension` 3 or 2; a planar scene's gravity is (0, -9.81, 0)
// and its friction cone the exact +-t (friction_directions = 2).
Settings default_settings(int dimension);
Settings parse_settings(const JsonNode& node, int dimension = 3);

}  // namespace pegsim
