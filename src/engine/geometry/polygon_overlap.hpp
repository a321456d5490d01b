// Exact overlap of convex polygons (the area-of-overlap error of thesis §5.2.3, Fig. 5.10b,
// and §5.3, Fig. 5.25).
#pragma once

#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// Signed area of a simple polygon (shoelace): positive when counter-clockwise.
double polygon_area(const std::vector<Vec2>& polygon);

// Clips `polygon` to the half-plane on the left of the directed line a -> b (the inside of a
// counter-clockwise convex polygon whose edge that is): one Sutherland-Hodgman pass.
void clip_polygon_left(const std::vector<Vec2>& polygon, const Vec2& a, const Vec2& b,
                       std::vector<Vec2>& out);

// The intersection of two convex polygons given counter-clockwise (Sutherland-Hodgman: p
// clipped by every edge line of q), counter-clockwise; fewer than 3 vertices when they are
// disjoint. `scratch` is a workspace.
void polygon_intersection(const std::vector<Vec2>& p, const std::vector<Vec2>& q,
                          std::vector<Vec2>& out, std::vector<Vec2>& scratch);

// Area of the intersection of two convex polygons given counter-clockwise. 0 when they are
// disjoint or touch along an edge.
double polygon_overlap_area(const std::vector<Vec2>& p, const std::vector<Vec2>& q);

// Area centroid of a simple polygon of non-zero area: sum over the fan's triangles of their
// centroids weighted by their signed areas.
Vec2 polygon_centroid(const std::vector<Vec2>& polygon);

}  // namespace pegsim
