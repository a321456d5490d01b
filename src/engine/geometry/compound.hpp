// Non-convex bodies as unions of overlapping convex parts (thesis §4.5, Fig. 4.11): building
// a Compound, the mass properties of the union, and whether a point lies inside a part.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polytope_overlap.hpp"

namespace pegsim {

// Checks the parts (each a Sphere or a Polytope; a sphere may touch but not overlap another
// part, see compound_mass_properties; or, for a planar compound, each a Polygon or a Circle,
// see check_planar_parts) and sets the bounding radius and `planar`. With `recentre` the parts
// are moved so that the union's centroid is the body origin. Throws GeometryError naming the
// part that is wrong.
Compound make_compound(std::vector<CompoundPart> parts, bool recentre = true);

// Mass properties of the union (not the sum) of the parts, for unit density (a planar
// compound: planar_compound_mass_properties), exact: by
// inclusion-exclusion over the intersections of polytope parts, which are convex polytopes
// (clipped exactly), plus the spheres, which overlap nothing.
MassProperties compound_mass_properties(const Compound& compound);

// Volume of the union of convex solids, by the same inclusion-exclusion.
double union_volume(const std::vector<ConvexSolid>& solids);
// The intersection of two convex solids (empty when they do not overlap).
ConvexSolid intersect_solids(const ConvexSolid& a, const ConvexSolid& b);

// True when the body-frame point x lies inside part `part` deeper than `depth` (every
// face plane or polygon edge line at least `depth` away; a sphere's or circle's boundary at
// least `depth` away).
bool inside_part(const CompoundPart& part, const Vec3& x, double depth);

// True when x lies deeper than `depth` inside a part other than `except`: such a point is
// inside the union, not on its surface (§4.5: the decomposition adds interior faces).
bool buried_in_other_part(const Compound& compound, int except, const Vec3& x, double depth);

}  // namespace pegsim
