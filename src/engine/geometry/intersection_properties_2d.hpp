// The common area of two overlapping planar bodies A and B, the planar twin of
// intersection_properties.hpp: in IntersectionProperties `volume` is the area (m^2), `inertia`
// the lamina's about the centroid at unit areal density (m^4; I_zz the polar moment), `normal`
// lies in the x-y plane (from A onto B, the gradient of the area with respect to separating
// them), and `area` is the rate at which the area shrinks, the length of the contact (m).
#pragma once

#include <vector>

#include "engine/geometry/intersection_properties.hpp"

namespace pegsim {

// A and B convex polygons in the world frame, counter-clockwise: B clipped by A's edges.
IntersectionProperties polygon_intersection_properties(const std::vector<Vec2>& a,
                                                       const std::vector<Vec2>& b,
                                                       IntersectionWorkspace& w);

// A the half-plane {x : normal . (x - point) <= 0} (normal unit, out of A), B a polygon.
IntersectionProperties halfplane_polygon_intersection_properties(const Vec2& point,
                                                                 const Vec2& normal,
                                                                 const std::vector<Vec2>& b,
                                                                 IntersectionWorkspace& w);

// Two discs: the lens of two circular segments. When one disc lies inside the other the length
// is 0 and the normal is along the centres (+x when they coincide).
IntersectionProperties disc_intersection_properties(const Vec2& a_centre, double a_radius,
                                                    const Vec2& b_centre, double b_radius);

// A a convex polygon (world frame, counter-clockwise), B a disc: exact (disc_polygon.hpp).
IntersectionProperties polygon_disc_intersection_properties(const std::vector<Vec2>& a,
                                                            const Vec2& centre, double radius,
                                                            IntersectionWorkspace& w);

// A the half-plane as above, B a disc: one circular segment.
IntersectionProperties halfplane_disc_intersection_properties(const Vec2& point, const Vec2& normal,
                                                              const Vec2& centre, double radius);

}  // namespace pegsim
