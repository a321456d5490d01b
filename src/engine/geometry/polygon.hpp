// Building a Polygon (core/shape.hpp), the convex shape of planar (2D) bodies.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {

// Builds a polygon (edge normals, bounding radius) from its vertices, counter-clockwise seen
// from +z. Throws GeometryError, saying what is wrong, unless there are at least 3 finite
// vertices forming a strictly convex polygon listed counter-clockwise (no repeated vertex, no
// three consecutive vertices collinear, turning once around).
Polygon make_polygon(std::vector<Vec2> vertices);

// Translates every vertex by -offset (used to put the centre of mass at 0).
void translate(Polygon& p, const Vec2& offset);

}  // namespace pegsim
