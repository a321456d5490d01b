// How a body looks where that is not how it collides: a model file's own surface (a mesh
// shape, io/scene_mesh.hpp), which the view draws in place of the collision geometry. Nothing
// in the engine reads it.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

struct VisualMesh {
  struct Part {
    std::vector<Vec3> corners;  // body frame (CoM at the origin), m; three per triangle
    std::vector<Vec3> normals;  // one unit normal per corner
    // The file's diffuse colour (RGBA in [0, 1]); alpha 0 where the file gives none, and the
    // part takes the body's colour.
    std::array<float, 4> color{0.0f, 0.0f, 0.0f, 0.0f};
  };
  std::vector<Part> parts;
};

}  // namespace pegsim
