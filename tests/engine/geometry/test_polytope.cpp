// make_polytope: topology and the rejection of meshes that are not closed convex polyhedra.
#include <gtest/gtest.h>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

std::vector<Vec3> tetra_vertices() {
  return {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
}
std::vector<std::vector<int>> tetra_faces() {
  return {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
}

void expect_error(std::vector<Vec3> v, std::vector<std::vector<int>> f, const std::string& text) {
  try {
    make_polytope(std::move(v), std::move(f));
    ADD_FAILURE() << "accepted a bad mesh (expected: " << text << ")";
  } catch (const GeometryError& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(Polytope, TetrahedronTopology) {
  const Polytope p = make_polytope(tetra_vertices(), tetra_faces());
  EXPECT_EQ(p.edges.size(), 6u);
  for (const auto& e : p.edges) {
    EXPECT_NE(e.face_left, e.face_right);
    // face_left runs tail -> head; face_right head -> tail.
    auto runs = [&](int f, int a, int b) {
      const auto& fv = p.faces[f].vertices;
      for (std::size_t i = 0; i < fv.size(); ++i)
        if (fv[i] == a && fv[(i + 1) % fv.size()] == b) return true;
      return false;
    };
    EXPECT_TRUE(runs(e.face_left, e.tail, e.head));
    EXPECT_TRUE(runs(e.face_right, e.head, e.tail));
  }
  for (int v = 0; v < 4; ++v) {
    EXPECT_EQ(p.vertex_neighbours[v].size(), 3u);
    EXPECT_EQ(p.vertex_faces[v].size(), 3u);
    EXPECT_EQ(p.vertex_edges[v].size(), 3u);
  }
  // The slanted face x + y + z = 1 has outward normal (1,1,1)/sqrt 3 and offset 1/sqrt 3.
  EXPECT_TRUE(p.faces[3].normal.isApprox(Vec3(1, 1, 1).normalized(), 1e-15));
  EXPECT_NEAR(p.faces[3].offset, 1.0 / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(p.bounding_radius, 1.0, 1e-15);
}

TEST(Polytope, RejectsOpenMesh) {
  auto f = tetra_faces();
  f.pop_back();
  expect_error(tetra_vertices(), f, "expected at least 4 faces");
  auto v = tetra_vertices();
  v.push_back({0.2, 0.2, 0.2});
  f = tetra_faces();
  f[3] = {1, 2, 4};
  f.push_back({2, 3, 4});  // a hole remains between 1, 3 and 4
  expect_error(v, f, "only one face");
}

TEST(Polytope, RejectsInsideOutFaces) {
  auto f = tetra_faces();
  for (auto& face : f) std::reverse(face.begin(), face.end());
  expect_error(tetra_vertices(), f, "lies in front of face");
  f = tetra_faces();
  std::reverse(f[0].begin(), f[0].end());
  expect_error(tetra_vertices(), f, "not consistently oriented");
}

TEST(Polytope, RejectsNonConvexAndBadIndices) {
  // A cube with one top corner pushed down makes a concave, non-planar top face.
  Polytope cube = make_cube(1.0);
  std::vector<std::vector<int>> faces;
  for (const auto& f : cube.faces) faces.push_back(f.vertices);
  auto v = cube.vertices;
  v[7].z() = 0.1;
  expect_error(v, faces, "not planar");
  expect_error(tetra_vertices(), {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 9}}, "vertex 9");
  expect_error(tetra_vertices(), {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 2}}, "repeats");
}

TEST(Polytope, TranslateMovesPlanes) {
  Polytope p = make_cube(2.0);
  translate(p, Vec3(1, 0, 0));
  for (const auto& f : p.faces) {
    if (f.normal.isApprox(Vec3::UnitX())) {
      EXPECT_NEAR(f.offset, 0.0, 1e-15);
    }
    if (f.normal.isApprox(-Vec3::UnitX())) {
      EXPECT_NEAR(f.offset, 2.0, 1e-15);
    }
  }
}

}  // namespace
}  // namespace pegsim
