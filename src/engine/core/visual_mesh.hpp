// How a body looks where that is not how it collides: a model file's own surface (a mesh
// shape, io/scene_mesh.hpp), which the view draws in place of the collision geometry. Nothing
// in the engine reads it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// An image a part is painted with: the file's bytes in a format an image reader takes (PNG,
// JPEG, BMP, ...; an embedded texture of raw texels as binary PPM), named for messages.
struct VisualTexture {
  std::string name;
  std::vector<std::uint8_t> encoded;
};

struct VisualMesh {
  struct Part {
    std::vector<Vec3> corners;  // body frame (CoM at the origin), m; three per triangle
    std::vector<Vec3> normals;  // one unit normal per corner
    // The file's diffuse colour (RGBA in [0, 1]); alpha 0 where the file gives none, and the
    // part takes the body's colour.
    std::array<float, 4> color{0.0f, 0.0f, 0.0f, 0.0f};
    // The diffuse texture and one (u, v) per corner into it (OpenGL's convention: v up from
    // the image's bottom row); both empty where the file paints none.
    std::shared_ptr<const VisualTexture> texture;
    std::vector<Vec2> uv;
  };
  std::vector<Part> parts;
};

}  // namespace pegsim
