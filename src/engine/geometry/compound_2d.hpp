// Planar compounds (thesis §4.5 in 2D, "as in 3D"): the mass properties of the union of
// overlapping convex polygons and circles, the area of a union of convex polygons, and the
// checks on planar parts.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/geometry/mass_properties.hpp"

namespace pegsim {

// Throws GeometryError naming the part when a planar part is not a Polygon or a Circle, sits
// off the plane z = 0, is turned about another axis than z, or is a circle overlapping another
// part (circles may touch other parts, not overlap them: a disc cut by a polygon has no area
// formula here, as a ball in 3D).
void check_planar_parts(const std::vector<CompoundPart>& parts);

// Area, centroid and inertia (laminae, as polygon_mass_properties) of the union of the planar
// parts, exact: inclusion-exclusion over the intersections of polygon parts, which are convex
// polygons, plus the circles, which overlap nothing.
MassProperties planar_compound_mass_properties(const Compound& compound);

// Area of the union of convex polygons given counter-clockwise, by the same
// inclusion-exclusion.
double union_area(const std::vector<std::vector<Vec2>>& polygons);

// The outline of a polygon part placed by the pose (x, y, rotation about z) in the plane.
void placed_outline(const Polygon& polygon, const Vec3& position, const Quat& orientation,
                    std::vector<Vec2>& out);

}  // namespace pegsim
