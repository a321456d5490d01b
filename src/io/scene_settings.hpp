// The "settings" object of a scene file: every field optional, defaults from Settings.
#pragma once

#include "engine/core/settings.hpp"
#include "io/json_node.hpp"

namespace pegsim {

Settings parse_settings(const JsonNode& node);

}  // namespace pegsim
