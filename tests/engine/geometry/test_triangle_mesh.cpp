// Triangle meshes: whether one closes a volume (open, shared and flipped edges counted), and its
// mass properties against a polytope's.
#include <gtest/gtest.h>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/triangle_mesh.hpp"

namespace pegsim {
namespace {

// The unit tetrahedron (0, e_x, e_y, e_z), its triangles counter-clockwise from outside.
TriangleMesh tetrahedron() {
  TriangleMesh m;
  m.vertices = {Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
  m.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  return m;
}

TEST(TriangleMesh, AClosedMeshHasTheMassPropertiesOfItsSolid) {
  const TriangleMesh t = tetrahedron();
  EXPECT_TRUE(mesh_closure(t).closed());
  const MassProperties m = mesh_mass_properties(t);
  const MassProperties p = polytope_mass_properties(
      make_convex_hull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()}));
  EXPECT_NEAR(m.volume, 1.0 / 6.0, 1e-15);
  EXPECT_LE((m.centroid - Vec3::Constant(0.25)).norm(), 1e-15);
  EXPECT_LE((m.inertia - p.inertia).norm(), 1e-15);
  // Faced inwards, the same solid with a negative volume.
  TriangleMesh inside = t;
  for (auto& tri : inside.triangles) std::swap(tri[1], tri[2]);
  EXPECT_TRUE(mesh_closure(inside).closed());
  EXPECT_NEAR(mesh_mass_properties(inside).volume, -1.0 / 6.0, 1e-15);
}

TEST(TriangleMesh, HolesFlippedTrianglesAndSharedEdgesAreCounted) {
  TriangleMesh open = tetrahedron();
  open.triangles.pop_back();  // three edges now bound one triangle each
  EXPECT_EQ(mesh_closure(open).open_edges, 3);
  TriangleMesh flipped = tetrahedron();
  std::swap(flipped.triangles[3][1], flipped.triangles[3][2]);
  EXPECT_EQ(mesh_closure(flipped).misoriented_edges, 3);
  EXPECT_FALSE(mesh_closure(flipped).closed());
  TriangleMesh fin = tetrahedron();  // a fourth triangle on the edge (0, 1)
  fin.vertices.push_back(Vec3(0.5, -1.0, 0.0));
  fin.triangles.push_back({0, 1, 4});
  const MeshClosure c = mesh_closure(fin);
  EXPECT_EQ(c.shared_edges, 1);
  EXPECT_EQ(c.open_edges, 2);
}

}  // namespace
}  // namespace pegsim
