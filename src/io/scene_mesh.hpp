// The "mesh" shape of scene files (docs/scene-format.md, "Meshes"): a .poly file, or a model
// file of any format Assimp reads, collided with as its convex hull or as the hulls of its parts,
// its mass properties from the closed mesh.
#pragma once

#include <filesystem>

#include "io/scene_shape.hpp"

namespace pegsim {

SceneShape parse_mesh_shape(const JsonNode& node, const std::filesystem::path& base_dir);

}  // namespace pegsim
