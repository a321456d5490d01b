// The "settings" object of a scene file: every field optional, defaults from Settings.
#pragma once

#include "engine/core/settings.hpp"
#include "io/json_node.hpp"

namespace pegsim {

// The defaults of a scene of `dimension` 3 or 2; a planar scene's gravity is (0, -9.81, 0)
// and its friction cone the exact +-t (friction_directions = 2).
Settings default_settings(int dimension);
Settings parse_settings(const JsonNode& node, int dimension = 3);

// The friction_directions a scene of `dimension` takes: exactly 2 in 2D (+-t is the exact
// cone), at least 3 in 3D (with 1 or 2 the linearized cone (2.21) lies along one line, so
// nothing resists a slip across it). Scene files (/settings/friction_directions) and
// `pegsim-cli run --friction-directions` both check it here, and say what is expected with
// friction_directions_expected ("expected " + it).
bool friction_directions_allowed(long long n, int dimension);
const char* friction_directions_expected(int dimension);

}  // namespace pegsim
