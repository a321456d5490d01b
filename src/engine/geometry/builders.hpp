// Builders for the shipped primitive polytopes, all centred on their centroid.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/shape.hpp"

namespace pegsim {

// Rectangular block with edge lengths lx, ly, lz along the body axes (6 quad faces).
Polytope make_box(double lx, double ly, double lz);
Polytope make_cube(double edge);
// Right prism over a regular n-gon of circumradius `radius`, axis along body z, height h.
Polytope make_cylinder(int n, double radius, double height);
// A ball's stand-in where a ball cannot go (a part overlapping other parts of a compound): the
// hull of `rings` - 1 circles of latitude, 2 rings points each, and the poles, inside the sphere
// of `radius` and at most about radius (1 - cos(pi / rings)) from it.
Polytope make_sphere_polytope(int rings, double radius);
// The five Platonic solids, scaled so that every vertex lies at distance `radius` from 0.
Polytope make_tetrahedron(double radius);
Polytope make_octahedron(double radius);
Polytope make_hexahedron(double radius);
Polytope make_dodecahedron(double radius);
Polytope make_icosahedron(double radius);
// Convex hull of a point set (qhull), with coplanar facets merged into polygons.
// Throws GeometryError for fewer than 4 points or a degenerate (flat) set.
Polytope make_convex_hull(const std::vector<Vec3>& points);
// The thesis' random polyhedron (§5.2.4, the 3D form of §5.2.3's polygons): the hull of
// `count` points uniform in [-extent, extent]^3 (random_points_3d); not re-centred.
Polytope make_random_polyhedron(std::uint64_t seed, int count = 10, double extent = 0.25);

}  // namespace pegsim
