// Triangle meshes as read from model files (io/mesh_file.hpp): whether one closes a volume, and
// its exact mass properties when it does.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/math.hpp"
#include "engine/geometry/mass_properties.hpp"

namespace pegsim {

struct TriangleMesh {
  std::string name;                           // the file's name for the part, or ""
  std::vector<Vec3> vertices;                 // each position once (welded)
  std::vector<std::array<int, 3>> triangles;  // counter-clockwise seen from outside
};

// Each edge of a closed, consistently oriented mesh bounds exactly two triangles, which run it
// in opposite directions.
struct MeshClosure {
  int open_edges = 0;         // edges of one triangle: holes in the surface
  int shared_edges = 0;       // edges of three or more triangles: not a manifold
  int misoriented_edges = 0;  // edges two triangles run the same way: flipped triangles
  bool closed() const { return open_edges == 0 && shared_edges == 0 && misoriented_edges == 0; }
};
MeshClosure mesh_closure(const TriangleMesh& mesh);

// Volume, centroid and inertia (unit density) of a closed mesh by the divergence theorem over
// the tetrahedra of its triangles with a vertex (TetrahedralMoments); a mesh
// whose triangles face inwards comes out with a negative volume.
MassProperties mesh_mass_properties(const TriangleMesh& mesh);

// The same moments summed over several closed meshes (parts of one object).
MassProperties mesh_mass_properties(const std::vector<TriangleMesh>& meshes);

}  // namespace pegsim
