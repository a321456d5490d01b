// Mesh shapes from model files (docs/scene-format.md, "Meshes"): mass properties from the closed
// mesh against closed forms, the collision hull or the parts' hulls, units and scale, warnings for
// non-convex meshes, errors naming the file for open ones; and a sample of real models in many
// formats (Debian's assimp-testmodels).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/triangle_mesh.hpp"
#include "io/mesh_file.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kMeshes =
    std::filesystem::path(PEGSIM_SOURCE_DIR) / "tests/io/data/meshes";

Scene scene_with(const std::string& body) {
  return parse_scene(R"({"bodies": [)" + body + "]}", "mesh.json", kMeshes);
}

std::string error_of(const std::string& body) {
  try {
    scene_with(body);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

// An L of two boxes (2 x 1 x 1 and 1 x 1 x 1): volume 3, centroid (5/6, 5/6, 1/2) from the
// corner; as one solid it collides as its hull (a warning says how to split it); as two objects
// with "collision": "parts" as a compound of the two boxes.
TEST(SceneMesh, AnLCollidesAsItsHullOrAsItsParts) {
  const Scene one = scene_with(
      R"({"name": "l", "shape": {"type": "mesh", "file": "l_one_object.obj"}, "density": 1})");
  const Body& l = one.model.bodies[0];
  EXPECT_NEAR(l.mass, 3.0, 1e-12);
  EXPECT_EQ(l.shape.kind, ShapeKind::Polytope);
  // The body sits at the solid's centroid; the hull's corner (0, 0, 0) lies at minus it.
  const Vec3 centroid(5.0 / 6.0, 5.0 / 6.0, 0.5);
  EXPECT_LE((one.initial.bodies[0].position - Vec3::Zero()).norm(), 1e-15);
  bool corner = false;
  for (const Vec3& v : l.shape.polytope->vertices) corner |= (v + centroid).norm() < 1e-12;
  EXPECT_TRUE(corner);
  // I_zz of the L about its centroid: each box's (m (a^2 + b^2) / 12) plus m d^2.
  auto squared = [&](double x, double y) {
    return (x - centroid.x()) * (x - centroid.x()) + (y - centroid.y()) * (y - centroid.y());
  };
  const double izz = 2.0 * (4.0 + 1.0) / 12.0 + 2.0 * squared(1.0, 0.5) + 1.0 * 2.0 / 12.0 +
                     1.0 * squared(0.5, 1.5);  // 11 / 6
  EXPECT_NEAR(l.inertia(2, 2), izz, 1e-12);
  ASSERT_EQ(one.warnings.size(), 1u);
  EXPECT_NE(one.warnings[0].find("body 'l': l_one_object.obj: its convex hull holds 17 % more"),
            std::string::npos)
      << one.warnings[0];
  EXPECT_NE(one.warnings[0].find("split it into convex parts"), std::string::npos);

  const Scene two = scene_with(
      R"({"name": "l", "shape": {"type": "mesh", "file": "l_two_objects.obj"}, "density": 1})");
  EXPECT_NEAR(two.model.bodies[0].mass, 3.0, 1e-12);
  EXPECT_NEAR(two.model.bodies[0].inertia(2, 2), izz, 1e-12);
  ASSERT_EQ(two.warnings.size(), 1u);
  EXPECT_NE(two.warnings[0].find("\"collision\": \"parts\""), std::string::npos);
  const Scene parts = scene_with(
      R"({"name": "l", "shape": {"type": "mesh", "file": "l_two_objects.obj", "collision": "parts"}, "density": 1})");
  const Shape& s = parts.model.bodies[0].shape;
  ASSERT_EQ(s.kind, ShapeKind::Compound);
  EXPECT_EQ(s.compound->parts.size(), 2u);
  EXPECT_TRUE(parts.warnings.empty());
  EXPECT_NEAR(parts.model.bodies[0].inertia(2, 2), izz, 1e-12);
}

// The view draws the file's own surface: per part its triangles with outward normals, in the
// colour of the part's material; a file without materials, or a body given a colour, draws in
// the body's colour.
TEST(SceneMesh, TheFilesSurfaceIsKeptToDraw) {
  const Scene two = scene_with(
      R"({"name": "l", "shape": {"type": "mesh", "file": "l_two_objects.obj"}, "density": 1})");
  const Body& b = two.model.bodies[0];
  ASSERT_TRUE(b.visual);
  ASSERT_EQ(b.visual->parts.size(), 2u);
  const std::array<float, 4> steel{0.8f, 0.2f, 0.1f, 1.0f}, paint{0.1f, 0.3f, 0.9f, 1.0f};
  EXPECT_EQ(b.visual->parts[0].color, steel);
  EXPECT_EQ(b.visual->parts[1].color, paint);
  for (const VisualMesh::Part& p : b.visual->parts) {
    ASSERT_EQ(p.corners.size(), 36u);  // a box's 12 triangles
    ASSERT_EQ(p.normals.size(), 36u);
    Vec3 centre = Vec3::Zero();
    for (const Vec3& c : p.corners) centre += c / 36.0;
    for (std::size_t t = 0; t < 36; t += 3) {
      const Vec3 n = (p.corners[t + 1] - p.corners[t]).cross(p.corners[t + 2] - p.corners[t]);
      EXPECT_GT(n.dot(p.corners[t] - centre), 0.0);  // counter-clockwise from outside
      for (std::size_t k = t; k < t + 3; ++k) {
        EXPECT_NEAR(p.normals[k].norm(), 1.0, 1e-12);
        EXPECT_GT(p.normals[k].dot(n), 0.0);
      }
    }
  }
  // Re-centred with the body: the long arm's corner (0, 0, 0) at minus the centroid.
  bool corner = false;
  for (const Vec3& c : b.visual->parts[0].corners)
    corner |= (c + Vec3(5.0 / 6.0, 5.0 / 6.0, 0.5)).norm() < 1e-12;
  EXPECT_TRUE(corner);
  const Scene plain = scene_with(
      R"({"name": "l", "shape": {"type": "mesh", "file": "l_one_object.obj"}, "density": 1})");
  ASSERT_TRUE(plain.model.bodies[0].visual);
  EXPECT_EQ(plain.model.bodies[0].visual->parts[0].color[3], 0.0f);
  const Scene coloured = scene_with(
      R"({"name": "l", "shape": {"type": "mesh", "file": "l_two_objects.obj"}, "density": 1, "color": "#ff0000"})");
  for (const VisualMesh::Part& p : coloured.model.bodies[0].visual->parts)
    EXPECT_EQ(p.color[3], 0.0f);
  EXPECT_FALSE(
      scene_with(R"({"name": "c", "shape": {"type": "cube", "edge": 1}})").model.bodies[0].visual);

  // A separate file to draw, in the collision file's frame: the L over a tetrahedron, moved with
  // the tetrahedron's centroid (1/4, 1/4, 1/4); a .poly cube drawn as the L the same way.
  const Scene over = scene_with(
      R"({"name": "t", "shape": {"type": "mesh", "file": "tetra.stl", "visual": "l_two_objects.obj"}})");
  ASSERT_EQ(over.model.bodies[0].visual->parts.size(), 2u);
  EXPECT_EQ(over.model.bodies[0].shape.polytope->vertices.size(), 4u);
  bool moved = false;
  for (const Vec3& c : over.model.bodies[0].visual->parts[0].corners)
    moved |= (c + Vec3::Constant(0.25)).norm() < 1e-12;
  EXPECT_TRUE(moved);
  const std::filesystem::path cube =
      std::filesystem::path(PEGSIM_SOURCE_DIR) / "resources" / "meshes" / "cube.poly";
  const Scene poly = scene_with(R"({"name": "c", "shape": {"type": "mesh", "file": ")" +
                                cube.string() + R"(", "visual": "l_one_object.obj"}})");
  ASSERT_TRUE(poly.model.bodies[0].visual);
  EXPECT_EQ(poly.model.bodies[0].visual->parts.size(), 1u);
  EXPECT_NE(
      error_of(
          R"({"name": "t", "shape": {"type": "mesh", "file": "tetra.stl", "visual": "none.obj"}})")
          .find("/bodies/0/shape/visual: expected a readable mesh file to draw ("),
      std::string::npos);
}

// Coincident corners of an STL's facets are welded into a closed tetrahedron; "unit" and "scale"
// size it: V = s^3 / 6, inertia scaling as s^5.
TEST(SceneMesh, AnStlIsWeldedClosedAndScaled) {
  const MeshFile f = read_mesh_file(kMeshes / "tetra.stl", Vec3::Ones());
  ASSERT_EQ(f.parts.size(), 1u);
  EXPECT_EQ(f.parts[0].vertices.size(), 4u);
  EXPECT_TRUE(mesh_closure(f.parts[0]).closed());
  const MassProperties reference = polytope_mass_properties(
      make_convex_hull({Vec3::Zero(), Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()}));
  const Scene mm = scene_with(
      R"({"name": "t", "shape": {"type": "mesh", "file": "tetra.stl", "unit": "mm", "scale": 200}, "density": 1000})");
  const double s = 0.2;  // 200 mm
  EXPECT_NEAR(mm.model.bodies[0].mass, 1000.0 * s * s * s / 6.0, 1e-12);
  EXPECT_LE((mm.model.bodies[0].inertia - 1000.0 * std::pow(s, 5) * reference.inertia).norm(),
            1e-14);
  const Scene stretched = scene_with(
      R"({"name": "t", "shape": {"type": "mesh", "file": "tetra.stl", "scale": [1, 2, 3]}, "density": 1})");
  EXPECT_NEAR(stretched.model.bodies[0].mass, 1.0, 1e-12);  // 6 / 6
}

// A surface that bounds no volume gives a moving body no mass properties: the error names the
// file, the part and its open edges; a static body, or one given its mass and inertia, loads.
TEST(SceneMesh, AnOpenMeshNeedsMassAndInertiaUnlessStatic) {
  const std::string moving =
      error_of(R"({"name": "tray", "shape": {"type": "mesh", "file": "open_box.obj"}})");
  EXPECT_NE(moving.find("mesh.json: /bodies/0/shape: expected a closed mesh for the body's mass "
                        "properties (open_box.obj: part 'tray' is not closed (4 open edges)"),
            std::string::npos)
      << moving;
  EXPECT_NE(moving.find("give the body \"mass\" and \"inertia\""), std::string::npos);
  const Scene fixed = scene_with(
      R"({"name": "tray", "shape": {"type": "mesh", "file": "open_box.obj"}, "static": true})");
  EXPECT_TRUE(fixed.model.bodies[0].is_static);
  const Scene given = scene_with(
      R"({"name": "tray", "shape": {"type": "mesh", "file": "open_box.obj"}, "mass": 2, "inertia": [1, 1, 1]})");
  EXPECT_EQ(given.model.bodies[0].mass, 2.0);
}

TEST(SceneMesh, BadFieldsAndFilesAreNamed) {
  EXPECT_NE(error_of(R"({"name": "x", "shape": {"type": "mesh", "file": "missing.stl"}})")
                .find("/bodies/0/shape/file: expected a readable mesh file ("),
            std::string::npos);
  EXPECT_NE(error_of(R"({"name": "x", "shape": {"type": "mesh", "file": "missing.stl"}})")
                .find("missing.stl: no such file"),
            std::string::npos);
  const std::filesystem::path junk = std::filesystem::temp_directory_path() / "pegsim_junk.obj";
  { std::ofstream(junk) << "this is not a model\n"; }
  EXPECT_NE(
      error_of(R"({"name": "x", "shape": {"type": "mesh", "file": ")" + junk.string() + "\"}}")
          .find("pegsim_junk.obj"),
      std::string::npos);
  EXPECT_NE(
      error_of(R"({"name": "x", "shape": {"type": "mesh", "file": "tetra.stl", "unit": "yd"}})")
          .find("/bodies/0/shape/unit: expected a length unit: m, dm, cm, mm, in or ft"),
      std::string::npos);
  EXPECT_NE(
      error_of(R"({"name": "x", "shape": {"type": "mesh", "file": "tetra.stl", "scale": -1}})")
          .find("/bodies/0/shape/scale: expected a positive scale factor"),
      std::string::npos);
  EXPECT_NE(
      error_of(
          R"({"name": "x", "shape": {"type": "mesh", "file": "tetra.stl", "collision": "exact"}})")
          .find("/bodies/0/shape/collision: expected a collision geometry"),
      std::string::npos);
  EXPECT_NE(
      error_of(
          R"({"name": "x", "shape": {"type": "compound", "parts": [{"shape": {"type": "mesh", "file": "l_two_objects.obj", "collision": "parts"}}]}})")
          .find("/bodies/0/shape/parts/0/shape/collision: expected \"hull\": a compound's part "
                "is one convex piece"),
      std::string::npos);
}

// Real files of several formats from Assimp's own test models: each a closed unit cube, which
// comes out with the cube's volume and inertia whatever the format.
TEST(SceneMesh, RealModelsInManyFormatsLoad) {
  const std::filesystem::path models(PEGSIM_ASSIMP_MODELS_DIR);
  if (!std::filesystem::is_directory(models))
    GTEST_SKIP() << models
                 << " is missing (Debian package assimp-testmodels, installed by "
                    "scripts/install-deps.sh)";
  struct Cube {
    const char* file;
    double edge;
  };
  for (const Cube& c :
       {Cube{"OBJ/box.obj", 1.0}, Cube{"PLY/cube.ply", 1.0}, Cube{"PLY/cube_binary.ply", 1.0},
        Cube{"OFF/Cube.off", 1.0}, Cube{"Collada/cube_triangulate.dae", 1.0},
        Cube{"glTF2/BoxTextured-glTF/BoxTextured.gltf", 1.0}}) {
    SCOPED_TRACE(c.file);
    const Scene s = scene_with(R"({"name": "cube", "shape": {"type": "mesh", "file": ")" +
                               (models / c.file).string() + R"("}, "density": 1})");
    const Body& b = s.model.bodies[0];
    const double v = c.edge * c.edge * c.edge;
    EXPECT_NEAR(b.mass, v, 1e-9 * v);
    EXPECT_LE((b.inertia - v * c.edge * c.edge / 6.0 * Mat3::Identity()).norm(), 1e-9 * v);
    EXPECT_TRUE(s.warnings.empty());
  }
  // Wuson, the same open surface in four formats: each refused for a moving body with its 412
  // open edges, each the same hull for a static one (to the files' printed digits).
  double hull = 0.0;
  for (const char* file : {"OBJ/WusonOBJ.obj", "STL/Wuson.stl", "PLY/Wuson.ply", "OFF/Wuson.off"}) {
    SCOPED_TRACE(file);
    const std::string shape =
        R"("shape": {"type": "mesh", "file": ")" + (models / file).string() + R"("})";
    EXPECT_NE(error_of(R"({"name": "wuson", )" + shape + "}").find("(412 open edges)"),
              std::string::npos);
    const Scene s = scene_with(R"({"name": "wuson", "static": true, )" + shape + "}");
    const double v = polytope_mass_properties(*s.model.bodies[0].shape.polytope).volume;
    if (hull == 0.0) hull = v;
    EXPECT_NEAR(v, hull, 1e-6 * hull);
  }
}

// A closed cube whose triangles face inwards (and whose normals say so): it weighs what it
// holds, and is drawn turned round, every triangle and normal facing out of the solid. As a
// compound's part its hull warning names the part.
TEST(SceneMesh, AnInwardFacingMeshIsTurnedRoundForDrawingToo) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "pegsim_inward";
  std::filesystem::create_directories(dir);
  {
    std::ofstream obj(dir / "inside_out.obj");
    for (int x : {0, 1})
      for (int y : {0, 1})
        for (int z : {0, 1}) obj << "v " << x << " " << y << " " << z << "\n";
    // vertex (x, y, z) is 1 + 4x + 2y + z; the faces below run counter-clockwise seen from
    // outside and are written the other way round, as an inside-out file has them
    obj << "vn -1 0 0\nvn 1 0 0\nvn 0 -1 0\nvn 0 1 0\nvn 0 0 -1\nvn 0 0 1\n";
    const char* faces[] = {"1 2 4", "1 4 3", "5 7 8", "5 8 6", "1 5 6", "1 6 2",
                           "3 4 8", "3 8 7", "1 3 7", "1 7 5", "2 6 8", "2 8 4"};
    const int inward[] = {2, 2, 1, 1, 4, 4, 3, 3, 6, 6, 5, 5};  // the normal facing in
    for (int f = 0; f < 12; ++f) {
      int a, b, c;
      std::sscanf(faces[f], "%d %d %d", &a, &b, &c);
      obj << "f " << a << "//" << inward[f] << " " << c << "//" << inward[f] << " " << b << "//"
          << inward[f] << "\n";
    }
  }
  const Scene s = parse_scene(
      R"({"bodies": [{"name": "cube", "shape": {"type": "mesh", "file": "inside_out.obj"},
          "density": 1}]})",
      "inward.json", dir);
  EXPECT_NEAR(s.model.bodies[0].mass, 1.0, 1e-12);
  ASSERT_TRUE(s.model.bodies[0].visual);
  for (const VisualMesh::Part& p : s.model.bodies[0].visual->parts)
    for (std::size_t c = 0; c < p.corners.size(); c += 3) {
      const Vec3 middle = (p.corners[c] + p.corners[c + 1] + p.corners[c + 2]) / 3.0;
      const Vec3 turn = (p.corners[c + 1] - p.corners[c]).cross(p.corners[c + 2] - p.corners[c]);
      EXPECT_GT(turn.dot(middle), 0.0) << c;  // the body's origin is the cube's centre
      for (std::size_t k = c; k < c + 3; ++k) EXPECT_GT(p.normals[k].dot(middle), 0.0) << k;
    }
  // A compound part's warnings reach the scene, naming the part.
  const Scene l = parse_scene(
      R"({"bodies": [{"name": "c", "shape": {"type": "compound", "parts": [
          {"shape": {"type": "box", "size": [1, 1, 1]}},
          {"shape": {"type": "mesh", "file": "l_one_object.obj"}, "position": [3, 0, 0]}]}}]})",
      "parts.json", kMeshes);
  ASSERT_EQ(l.warnings.size(), 1u);
  EXPECT_NE(l.warnings[0].find("body 'c': part 1: l_one_object.obj: its convex hull holds 17 %"),
            std::string::npos)
      << l.warnings[0];
  std::filesystem::remove_all(dir);
}

// A COLLADA file painting its triangles with a PNG beside it (urdf_tutorial's finger): every
// corner gets its (u, v), within the image, and the part the file's bytes; a texture the file
// names but that is missing is said in a warning and the part drawn in its colour.
TEST(SceneMesh, TexturesComeWithTheirCoordinates) {
  const std::filesystem::path meshes =
      std::filesystem::path(PEGSIM_SOURCE_DIR) / "tests/data/robots/urdf_tutorial/meshes";
  const MeshFile finger = read_mesh_file(meshes / "l_finger.dae", Vec3::Ones());
  ASSERT_FALSE(finger.visual.empty());
  std::size_t painted = 0;
  for (const VisualMesh::Part& p : finger.visual) {
    if (!p.texture) continue;
    ++painted;
    EXPECT_EQ(p.uv.size(), p.corners.size());
    EXPECT_EQ(p.texture->name, "l_finger_color.png");
    std::ifstream png(meshes / "l_finger_color.png", std::ios::binary);
    const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(png), {}};
    ASSERT_EQ(p.texture->encoded.size(), bytes.size());
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), p.texture->encoded.begin()));
    for (const Vec2& t : p.uv) EXPECT_TRUE(t.allFinite());
  }
  EXPECT_EQ(painted, finger.visual.size());
  EXPECT_TRUE(finger.warnings.empty());

  const std::filesystem::path alone = std::filesystem::temp_directory_path() / "pegsim_texture";
  std::filesystem::create_directories(alone);
  std::filesystem::copy_file(meshes / "l_finger.dae", alone / "l_finger.dae",
                             std::filesystem::copy_options::overwrite_existing);
  const MeshFile bare = read_mesh_file(alone / "l_finger.dae", Vec3::Ones());
  for (const VisualMesh::Part& p : bare.visual) EXPECT_FALSE(p.texture);
  ASSERT_FALSE(bare.warnings.empty());
  EXPECT_NE(bare.warnings.front().find("texture 'l_finger_color.png' was not found"),
            std::string::npos)
      << bare.warnings.front();
  std::filesystem::remove_all(alone);
}

}  // namespace
}  // namespace pegsim
