// The "robots" of scene files (docs/robots.md): URDF robots placed in the scene as bodies,
// joints and, on request, gravity compensation.
#pragma once

#include <filesystem>
#include <vector>

#include "io/json_node.hpp"
#include "io/scene.hpp"

namespace pegsim {

// Appends each robot of the array `list` to the scene (after its bodies, before its joints and
// controllers, which may name the robots' links and joints). `package_path` (a --package-path)
// is searched before each robot's own "package_path".
void read_robots(const JsonNode& list, const std::filesystem::path& base_dir,
                 const std::vector<std::filesystem::path>& package_path, Scene& scene);

// The scene text that opening a robot file directly stands for: the robot on a fixed base at
// the origin, every joint at 0 (or its nearest limit), under gravity, for 5 s.
std::string robot_scene_text(const std::filesystem::path& robot_file);

}  // namespace pegsim
