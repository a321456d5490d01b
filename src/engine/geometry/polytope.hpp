// Building a Polytope (core/shape.hpp) with its full topology from vertices and faces.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/core/shape.hpp"

namespace pegsim {

// Thrown for geometry that is not a closed, convex, outward-oriented polyhedron.
// The message says what is wrong (e.g. "edge 3-7 belongs to 3 faces").
struct GeometryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Builds the topology (edges with both faces, neighbour lists, normals) of a convex
// polyhedron. `faces` are convex polygons of vertex indices, counter-clockwise seen from
// outside. Coplanar adjacent faces are kept as given. Throws GeometryError unless the mesh is
// closed (every edge in exactly two faces, traversed once each way), convex (every vertex on
// or behind every face plane, to a relative tolerance) and outward oriented.
Polytope make_polytope(std::vector<Vec3> vertices, std::vector<std::vector<int>> faces);

// Translates every vertex by -offset and rebuilds plane offsets (used to put the CoM at 0).
void translate(Polytope& p, const Vec3& offset);

}  // namespace pegsim
