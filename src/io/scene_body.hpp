// One element of a scene's "bodies" array: the body, its initial state, and the names it must
// not collide with (resolved to indices once every body is known).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/body.hpp"
#include "engine/core/state.hpp"
#include "io/json_node.hpp"

namespace pegsim {

struct SceneBody {
  Body body;
  BodyState state;
  std::vector<std::pair<std::string, JsonNode>> no_collide;  // name and where it was written
  std::vector<std::string> warnings;                         // its shape's (SceneShape)
};

// In a scene of `dimension` 2 the body is planar: position [x, y], orientation and
// angular_velocity about z as numbers, velocity [x, y], inertia I_zz as a number.
// A 3D orientation: a unit quaternion [w, x, y, z] (normalized) or {"axis", "angle"}.
Quat parse_orientation(const JsonNode& node);

SceneBody parse_body(const JsonNode& node, const std::filesystem::path& base_dir,
                     int dimension = 3);

}  // namespace pegsim
