// Builders for the planar (2D) shapes: regular polygons, rectangles, triangles and convex
// hulls of points, the regular ones centred on their centroid with a flat bottom edge.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/shape.hpp"

namespace pegsim {

// Regular n-gon (n >= 3) of circumradius `radius`, edge 0 horizontal at the bottom.
Polygon make_regular_polygon(int n, double radius);
// Rectangle of width lx (along x) and height ly (along y).
Polygon make_rectangle(double lx, double ly);
// Equilateral triangle of side `side`.
Polygon make_triangle(double side);
// Convex hull of 2D points (Andrew's monotone chain), collinear points dropped, CCW from the
// lowest-x point; not re-centred. Throws GeometryError for fewer than 3 non-collinear points.
Polygon make_convex_hull_2d(const std::vector<Vec2>& points);
// The thesis' random polygon (§5.2.3): the hull of `count` points uniform in
// [-extent, extent]^2, from a deterministic generator seeded with `seed`; not re-centred.
Polygon make_random_polygon(std::uint64_t seed, int count = 10, double extent = 0.25);

}  // namespace pegsim
