// RPIsim .poly mesh files: vertex lines first, then faces as vertex-index triples.
#pragma once

#include <filesystem>

#include "engine/core/shape.hpp"

namespace pegsim {

// Reads a .poly file into a convex polytope (not yet re-centred). Throws SceneError naming the
// file and line for unreadable, malformed or non-convex meshes.
Polytope read_poly_file(const std::filesystem::path& file);

}  // namespace pegsim
