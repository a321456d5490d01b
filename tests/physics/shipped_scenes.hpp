// The scenes shipped in scenes/, loaded as a user's file.
#pragma once

#include <filesystem>
#include <string>

#include "io/scene.hpp"

namespace pegsim::test {

inline const std::filesystem::path kScenes = std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes";

// scenes/NAME.json
inline Scene shipped(const std::string& name) {
  return load_scene(kScenes / (name + ".json"));
}

}  // namespace pegsim::test
