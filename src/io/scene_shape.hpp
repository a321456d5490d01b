// The "shape" object of a scene body: its collision shape and unit-density mass properties.
#pragma once

#include <filesystem>
#include <optional>

#include "engine/core/shape.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "io/json_node.hpp"

namespace pegsim {

struct SceneShape {
  Shape shape;
  MassProperties unit;                 // for density 1; zero volume for a plane
  std::optional<Quat> plane_normal;    // plane with "normal": the orientation taking +z to it
};

// Meshes and hulls come back re-centred on their centroid, so the body position is the CoM.
SceneShape parse_shape(const JsonNode& node, const std::filesystem::path& base_dir);

}  // namespace pegsim
