// What planar (2D) shapes look like in a view down the z axis: polygons and circles as flat
// faces in their body's x-y plane (normal +z), a half-plane as a wide strip below its
// boundary line, with their outlines (a circle's with a spoke, so its turning shows).
// Body frame; the body's transform places them.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "gui/render/mesh_data.hpp"

namespace pegsim::gui {

// The outline of a planar shape, CCW, in the body's x-y plane: a polygon's vertices, a
// circle as `sides` points, a half-plane {y <= 0} as the strip [-half_width, half_width] x
// [-depth, 0]. Empty for a 3D shape.
std::vector<Vec2> planar_outline(const Shape& shape, double half_width, double depth,
                                 int sides = 48);

// A convex outline as a triangle fan at height z, every normal +z.
FlatMesh flat_face(const std::vector<Vec2>& outline, double z);

// The outline's edges at height z in `color`; a circle's spoke from its centre along +x.
Sketch planar_edges(const Shape& shape, const std::vector<Vec2>& outline, double z,
                    const Rgb& color);

}  // namespace pegsim::gui
