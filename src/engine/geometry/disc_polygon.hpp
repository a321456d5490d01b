// The common region of a disc and a convex polygon, exactly: its area and its first and second
// moments, from the region's boundary (the polygon's edges inside the disc and the disc's arcs
// inside the polygon) as a signed fan of triangles and sectors about the disc's centre. The
// ball's and the disc's common volumes with polytopes and polygons are built on it
// (intersection_properties.hpp, intersection_properties_2d.hpp).
#pragma once

#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

struct DiscRegion {
  double area = 0.0;           // int dA
  Vec2 first = Vec2::Zero();   // int x dA, x from the disc's centre
  Mat2 second = Mat2::Zero();  // int x x^T dA
};

// A piece of a polygon's edge inside the disc, from `from` to `to` along the edge.
struct EdgePiece {
  int edge;  // edge i runs from vertex i to vertex i + 1
  Vec2 from, to;
};

// The disc of radius `radius` about the origin and the convex counter-clockwise polygon
// `polygon` (coordinates from the disc's centre). `pieces` receives the polygon's edges inside
// the disc (their ends on the circle are where the region's arcs begin and end).
DiscRegion disc_polygon_region(const std::vector<Vec2>& polygon, double radius,
                               std::vector<EdgePiece>& pieces);

}  // namespace pegsim
