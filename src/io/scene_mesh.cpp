#include "io/scene_mesh.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/geometry/triangle_mesh.hpp"
#include "io/mesh_file.hpp"
#include "io/poly_file.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

constexpr const char* kFile =
    "a path to a mesh file: .poly, or a model format Assimp reads (.obj, .stl, .ply, .dae, "
    ".gltf, .glb, .fbx, .3ds, ...)";
constexpr const char* kUnit = "a length unit: m, dm, cm, mm, in or ft";
constexpr const char* kCollision =
    "a collision geometry: \"hull\" (the convex hull of the whole mesh) or \"parts\" (the hull of "
    "each of the file's meshes, a compound)";

Vec3 scale_of(const JsonNode& s) {
  Vec3 scale = Vec3::Ones();
  if (auto n = s.find("scale")) {
    const char* what = "a positive scale factor, or three [sx, sy, sz]";
    if (n->value().is_number()) {
      scale = Vec3::Constant(n->positive(what));
    } else {
      scale = n->vec3(what);
      if (!(scale.minCoeff() > 0.0)) n->fail(what);
    }
  }
  if (auto n = s.find("unit")) {
    const std::string unit = n->string(kUnit);
    const std::pair<const char*, double> units[] = {{"m", 1.0},    {"dm", 0.1},    {"cm", 0.01},
                                                    {"mm", 0.001}, {"in", 0.0254}, {"ft", 0.3048}};
    bool known = false;
    for (const auto& [name, metres] : units)
      if (unit == name) {
        scale *= metres;
        known = true;
      }
    if (!known) n->fail(kUnit);
  }
  return scale;
}

Polytope hull_of(const std::vector<Vec3>& points, const JsonNode& file, const std::string& what) {
  try {
    return make_convex_hull(points);
  } catch (const GeometryError& e) {
    file.fail(what + " spanning a volume (" + e.what() + ")");
  }
}

double volume_of(const Polytope& p) {
  return polytope_mass_properties(p).volume;
}

std::string percent(double x) {
  char s[32];
  std::snprintf(s, sizeof s, "%.0f %%", 100.0 * x);
  return s;
}

SceneShape poly_mesh(const JsonNode& file, const std::filesystem::path& path, const Vec3& scale) {
  Polytope p;
  try {
    p = read_poly_file(path);
  } catch (const SceneError& e) {
    file.fail(std::string("a readable convex .poly mesh (") + e.what() + ")");
  }
  if (scale != Vec3::Ones()) {
    std::vector<Vec3> points;
    for (const Vec3& v : p.vertices) points.push_back(scale.cwiseProduct(v));
    p = hull_of(points, file, "a scaled .poly mesh");
  }
  return convex_shape(std::move(p), true);
}

// What the body looks like, moved with the shape by `shift`: the "visual" file when the shape
// names one (a detailed surface over a coarse collision mesh, in the same frame, scale and
// unit), else `own`, the collision file's surface (none for a .poly file).
std::shared_ptr<const VisualMesh> visual_of(const JsonNode& s,
                                            const std::filesystem::path& base_dir,
                                            const Vec3& scale, const Vec3& shift,
                                            std::vector<VisualMesh::Part> own,
                                            std::vector<std::string>& warnings) {
  auto visual = std::make_shared<VisualMesh>();
  visual->parts = std::move(own);
  if (auto n = s.find("visual")) {
    const char* what = "a path to a model file to draw (any format Assimp reads)";
    const std::filesystem::path look = n->string(what);
    try {
      MeshFile file = read_mesh_file(look.is_absolute() ? look : base_dir / look, scale);
      visual->parts = std::move(file.visual);
      for (const std::string& w : file.warnings) warnings.push_back(look.string() + ": " + w);
    } catch (const SceneError& e) {
      n->fail(std::string("a readable mesh file to draw (") + e.what() + ")");
    }
  }
  if (visual->parts.empty()) return nullptr;
  for (VisualMesh::Part& part : visual->parts)
    for (Vec3& c : part.corners) c -= shift;
  return visual;
}

}  // namespace

SceneShape parse_mesh_shape(const JsonNode& s, const std::filesystem::path& base_dir) {
  s.allow_only({"type", "file", "scale", "unit", "collision", "visual"});
  const JsonNode file = s.at("file", kFile);
  const std::filesystem::path given = file.string(kFile);
  const std::filesystem::path path = given.is_absolute() ? given : base_dir / given;
  const Vec3 scale = scale_of(s);
  bool parts = false;
  if (auto n = s.find("collision")) {
    const std::string c = n->string(kCollision);
    if (c != "hull" && c != "parts") n->fail(kCollision);
    parts = c == "parts";
  }
  if (given.extension() == ".poly") {
    if (parts) s.at("collision", kCollision).fail("\"hull\": a .poly file is one convex part");
    SceneShape out = poly_mesh(file, path, scale);
    out.visual = visual_of(s, base_dir, scale, out.shift, {}, out.warnings);
    return out;
  }
  MeshFile mesh;
  try {
    mesh = read_mesh_file(path, scale);
  } catch (const SceneError& e) {
    file.fail(std::string("a readable mesh file (") + e.what() + ")");
  }
  const std::string name = given.string();

  // The solid: every part closed, each turned outwards if its triangles face in.
  SceneShape out;
  if (const std::string defect = close_solid(mesh); !defect.empty())
    out.mass_defect = name + ": " + defect;
  MassProperties solid;
  if (out.mass_defect.empty()) {
    solid = mesh_mass_properties(mesh.parts);
    if (!(solid.volume > 0.0)) out.mass_defect = name + ": the mesh encloses no volume";
  }

  // The collision geometry, and how much more it holds than the solid.
  std::vector<CompoundPart> hulls;
  double hull_volume = 0.0;
  if (parts) {
    for (const TriangleMesh& part : mesh.parts) {
      Polytope p =
          hull_of(part.vertices, file,
                  "parts (" + (part.name.empty() ? std::string("a part") : part.name) + ")");
      hull_volume += volume_of(p);
      hulls.push_back({Shape::convex(std::make_shared<const Polytope>(std::move(p)))});
    }
  } else {
    std::vector<Vec3> points;
    for (const TriangleMesh& part : mesh.parts)
      points.insert(points.end(), part.vertices.begin(), part.vertices.end());
    Polytope p = hull_of(points, file, "a mesh");
    hull_volume = volume_of(p);
    hulls.push_back({Shape::convex(std::make_shared<const Polytope>(std::move(p)))});
  }
  if (out.mass_defect.empty() && hull_volume > (1.0 + kHullExcess) * solid.volume) {
    const std::string excess = percent(hull_volume / solid.volume - 1.0);
    if (parts)
      out.warnings.push_back(name + ": its parts' convex hulls hold " + excess +
                             " more than the mesh: a part is not convex; split it into convex "
                             "parts in a modelling tool");
    else if (mesh.parts.size() > 1)
      out.warnings.push_back(name + ": its convex hull holds " + excess +
                             " more than the mesh (a non-convex object collides as convex); "
                             "\"collision\": \"parts\" collides with each of its " +
                             std::to_string(mesh.parts.size()) + " parts' hulls instead");
    else
      out.warnings.push_back(name + ": its convex hull holds " + excess +
                             " more than the mesh (a non-convex object collides as convex); "
                             "the file has one part, so split it into convex parts (a convex "
                             "decomposition, one object each) and give \"collision\": \"parts\"");
  }

  // Mass properties: the solid's, or the collision geometry's where the mesh bounds no volume
  // (for a static body, or one given its mass and inertia; scene_body.cpp).
  if (hulls.size() == 1) {
    out.shape = hulls.front().shape;
  } else {
    try {
      out.shape = Shape::compound_of(
          std::make_shared<const Compound>(make_compound(std::move(hulls), false)));
    } catch (const GeometryError& e) {
      file.fail(std::string("parts that make a compound (") + e.what() + ")");
    }
  }
  const MassProperties geometry = out.shape.kind == ShapeKind::Compound
                                      ? compound_mass_properties(*out.shape.compound)
                                      : polytope_mass_properties(*out.shape.polytope);
  out.unit = out.mass_defect.empty() ? solid : geometry;
  // Re-centred on the centroid, so that the body's position is its centre of mass.
  out.shift = out.unit.centroid;
  out.unit.centroid = Vec3::Zero();
  for (const std::string& w : mesh.warnings) out.warnings.push_back(name + ": " + w);
  out.visual = visual_of(s, base_dir, scale, out.shift, std::move(mesh.visual), out.warnings);
  if (out.shape.kind == ShapeKind::Compound) {
    Compound moved = *out.shape.compound;
    for (CompoundPart& p : moved.parts) p.position -= out.shift;
    out.shape =
        Shape::compound_of(std::make_shared<const Compound>(make_compound(moved.parts, false)));
  } else {
    Polytope moved = *out.shape.polytope;
    translate(moved, out.shift);
    out.shape = Shape::convex(std::make_shared<const Polytope>(std::move(moved)));
  }
  return out;
}

}  // namespace pegsim
