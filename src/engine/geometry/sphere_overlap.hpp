// Exact overlap volumes of spheres with half-spaces and with each other. A sphere against a
// convex polytope has no closed form this program computes (see metrics/overlap.hpp).
#pragma once

namespace pegsim {

// Volume of the part of a sphere of radius r whose centre lies at signed distance `height`
// above a plane (> 0 outside the half-space) that is inside the half-space: the cap of depth
// h = r - height, V = pi h^2 (3 r - h) / 3; 0 above r, the whole sphere below -r.
double sphere_halfspace_overlap_volume(double r, double height);

// Volume of the intersection of two spheres of radii r1, r2 whose centres are d apart: the
// lens V = pi (r1 + r2 - d)^2 (d^2 + 2 d (r1 + r2) - 3 (r1 - r2)^2) / (12 d), the smaller
// sphere when it lies inside the other, 0 when they are apart.
double sphere_sphere_overlap_volume(double r1, double r2, double d);

}  // namespace pegsim
