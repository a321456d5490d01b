// RPIsim .poly mesh files (docs/scene-format.md; digest §4.5: vertices, then faces).
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/geometry/mass_properties.hpp"
#include "io/poly_file.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kMeshes = std::filesystem::path(PEGSIM_SOURCE_DIR) / "resources/meshes";
const std::filesystem::path kData = std::filesystem::path(PEGSIM_SOURCE_DIR) / "tests/io/data";

std::string error_of(const std::filesystem::path& file) {
  try {
    read_poly_file(file);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PolyFile, ReadsTheTriangulatedUnitCube) {
  const Polytope p = read_poly_file(kMeshes / "cube.poly");
  EXPECT_EQ(p.vertices.size(), 8u);
  EXPECT_EQ(p.faces.size(), 12u);
  EXPECT_EQ(p.edges.size(), 18u);
  const MassProperties m = polytope_mass_properties(p);
  EXPECT_NEAR(m.volume, 1.0, 1e-12);
  EXPECT_NEAR(m.centroid.norm(), 0.0, 1e-12);
}

TEST(PolyFile, ReadsOneBasedAndZeroBasedMeshes) {
  const Polytope tet = read_poly_file(kMeshes / "tetrahedron.poly");  // 1-based
  EXPECT_NEAR(polytope_mass_properties(tet).volume, 1.0 / 3.0, 1e-12);
  const Polytope wedge = read_poly_file(kMeshes / "wedge.poly");  // 0-based
  EXPECT_NEAR(polytope_mass_properties(wedge).volume, 0.25, 1e-12);
}

TEST(PolyFile, RejectsAnOpenMeshNamingFileAndLine) {
  const std::string e = error_of(kData / "open_cube.poly");
  EXPECT_NE(e.find("open_cube.poly: line "), std::string::npos) << e;
  EXPECT_NE(e.find("expected a closed mesh"), std::string::npos) << e;
}

TEST(PolyFile, RejectsAMalformedVertexLine) {
  const std::string e = error_of(kData / "bad_vertex.poly");
  EXPECT_NE(e.find("bad_vertex.poly: line 5: expected a vertex"), std::string::npos) << e;
}

TEST(PolyFile, MissingFileIsNamed) {
  const std::string e = error_of(kData / "nowhere.poly");
  EXPECT_NE(e.find("nowhere.poly"), std::string::npos) << e;
  EXPECT_NE(e.find("expected"), std::string::npos) << e;
}

}  // namespace
}  // namespace pegsim
