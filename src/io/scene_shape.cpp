// Shape objects of scene files (schema: docs/scene-format.md, "shape").
#include "io/scene_shape.hpp"

#include <memory>
#include <string>
#include <vector>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/polytope.hpp"
#include "io/poly_file.hpp"
#include "io/scene.hpp"
#include "io/scene_body.hpp"

namespace pegsim {
namespace {

constexpr const char* kTypes =
    "a shape type: sphere, plane, box, cube, cylinder, tetrahedron, octahedron, hexahedron, "
    "dodecahedron, icosahedron, hull, random_polyhedron, mesh or compound";
constexpr const char* kPartTypes =
    "a convex part type: sphere, box, cube, cylinder, tetrahedron, octahedron, hexahedron, "
    "dodecahedron, icosahedron, hull, random_polyhedron or mesh";

double radius(const JsonNode& s) {
  return s.at("radius", "a positive radius in m").positive("a positive radius in m");
}

SceneShape convex(Polytope p, bool recentre) {
  SceneShape out;
  out.unit = polytope_mass_properties(p);
  if (recentre) {
    out.shift = out.unit.centroid;
    translate(p, out.unit.centroid);
    out.unit.centroid = Vec3::Zero();
  }
  out.shape = Shape::convex(std::make_shared<const Polytope>(std::move(p)));
  return out;
}

SceneShape plane(const JsonNode& s) {
  s.allow_only({"type", "normal"});
  SceneShape out;
  out.shape = Shape::plane();
  if (auto n = s.find("normal")) {
    const char* what = "a non-zero normal vector [x, y, z]";
    const Vec3 normal = n->vec3(what);
    if (!(normal.norm() > 0.0)) n->fail(what);
    out.plane_normal = Quat::FromTwoVectors(Vec3::UnitZ(), normal.normalized());
  }
  return out;
}

std::vector<Vec3> hull_points(const JsonNode& s) {
  const JsonNode points = s.at("points", "an array of at least 4 points [x, y, z]");
  points.require_array("an array of at least 4 points [x, y, z]");
  if (points.size() < 4) points.fail("an array of at least 4 points [x, y, z]");
  std::vector<Vec3> out;
  for (std::size_t i = 0; i < points.size(); ++i) out.push_back(points[i].vec3("a point [x, y, z]"));
  return out;
}

Polytope mesh(const JsonNode& s, const std::filesystem::path& base_dir) {
  const JsonNode file = s.at("file", "a path to a .poly file");
  const std::filesystem::path path = file.string("a path to a .poly file");
  if (path.extension() != ".poly") file.fail("a path to a .poly file");
  try {
    return read_poly_file(path.is_absolute() ? path : base_dir / path);
  } catch (const SceneError& e) {
    file.fail(std::string("a readable convex .poly mesh (") + e.what() + ")");
  }
}

// Builds the polytope of a primitive or point-set type, after checking its fields.
SceneShape polytope(const JsonNode& s, const std::string& type,
                    const std::filesystem::path& base_dir) {
  if (type == "box") {
    s.allow_only({"type", "size"});
    const char* what = "an array of 3 positive numbers";
    const JsonNode size = s.at("size", what);
    const Vec3 l = size.vec3(what);
    if (!(l.minCoeff() > 0.0)) size.fail(what);
    return convex(make_box(l.x(), l.y(), l.z()), false);
  }
  if (type == "cube") {
    s.allow_only({"type", "edge"});
    return convex(make_cube(s.at("edge", "a positive edge length in m")
                                .positive("a positive edge length in m")),
                  false);
  }
  if (type == "cylinder") {
    s.allow_only({"type", "radius", "height", "sides"});
    const double r = radius(s);
    const double h = s.at("height", "a positive height in m").positive("a positive height in m");
    const auto sides = s.find("sides");
    const int n = sides ? sides->integer("an integer number of sides >= 3", 3) : 20;
    return convex(make_cylinder(n, r, h), false);
  }
  using Builder = Polytope (*)(double);
  const std::pair<const char*, Builder> platonic[] = {
      {"tetrahedron", make_tetrahedron}, {"octahedron", make_octahedron},
      {"hexahedron", make_hexahedron},   {"dodecahedron", make_dodecahedron},
      {"icosahedron", make_icosahedron}};
  for (const auto& [name, build] : platonic) {
    if (type != name) continue;
    s.allow_only({"type", "radius"});
    return convex(build(radius(s)), false);
  }
  if (type == "hull") {
    s.allow_only({"type", "points"});
    try {
      return convex(make_convex_hull(hull_points(s)), true);
    } catch (const GeometryError& e) {
      s.at("points", "").fail(std::string("points spanning a volume (") + e.what() + ")");
    }
  }
  if (type == "random_polyhedron") {
    s.allow_only({"type", "seed", "points", "extent"});
    const int seed = s.at("seed", "an integer seed >= 0").integer("an integer seed >= 0", 0);
    const auto count = s.find("points");
    const int n = count ? count->integer("an integer number of points >= 4", 4) : 10;
    const auto extent = s.find("extent");
    const double e = extent ? extent->positive("a positive extent in m") : 0.25;
    return convex(make_random_polyhedron(static_cast<std::uint64_t>(seed), n, e), true);
  }
  if (type == "mesh") {
    s.allow_only({"type", "file"});
    return convex(mesh(s, base_dir), true);
  }
  if (planar_shape_type(type))
    s.at("type", "").fail(std::string(kTypes) + " (\"" + type +
                          "\" is a 2D shape: it needs \"dimension\": 2 at the top level)");
  s.at("type", kTypes).fail(kTypes);
}

// thesis §4.5: a non-convex body as a union of overlapping convex parts, each placed in the
// compound's frame by "position" and "orientation"; the union is re-centred on its centroid.
SceneShape compound(const JsonNode& s, const std::filesystem::path& base_dir) {
  s.allow_only({"type", "parts"});
  const char* what = "a non-empty array of parts {\"shape\", \"position\", \"orientation\"}";
  const JsonNode list = s.at("parts", what);
  list.require_array(what);
  if (list.size() == 0) list.fail(what);
  std::vector<CompoundPart> parts;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const JsonNode item = list[k];
    item.require_object("a part object {\"shape\", \"position\", \"orientation\"}");
    item.allow_only({"shape", "position", "orientation"});
    const JsonNode shape_node = item.at("shape", "a convex shape object");
    shape_node.require_object("a convex shape object with a \"type\"");
    const std::string type = shape_node.at("type", kPartTypes).string(kPartTypes);
    if (type == "plane" || type == "compound") shape_node.at("type", "").fail(kPartTypes);
    const SceneShape part = parse_shape(shape_node, base_dir);
    CompoundPart p{part.shape, Vec3::Zero(), Quat::Identity()};
    if (auto n = item.find("position")) p.position = n->vec3("a position [x, y, z] in m");
    if (auto n = item.find("orientation")) p.orientation = parse_orientation(*n);
    p.position += p.orientation * part.shift;  // a re-centred hull stays where it was given
    parts.push_back(std::move(p));
  }
  SceneShape out;
  try {
    auto c = std::make_shared<const Compound>(make_compound(std::move(parts)));
    out.unit = compound_mass_properties(*c);
    out.unit.centroid = Vec3::Zero();  // make_compound moved it there (to rounding)
    out.shape = Shape::compound_of(std::move(c));
  } catch (const GeometryError& e) {
    list.fail(std::string("convex parts whose spheres overlap no other part (") + e.what() + ")");
  }
  return out;
}

}  // namespace

SceneShape parse_shape(const JsonNode& s, const std::filesystem::path& base_dir, int dimension) {
  s.require_object("a shape object with a \"type\"");
  if (dimension == 2) return parse_planar_shape(s);
  const std::string type = s.at("type", kTypes).string(kTypes);
  if (type == "sphere") {
    s.allow_only({"type", "radius"});
    const double r = radius(s);
    return SceneShape{Shape::sphere(r), sphere_mass_properties(r), std::nullopt};
  }
  if (type == "plane") return plane(s);
  if (type == "compound") return compound(s, base_dir);
  try {
    return polytope(s, type, base_dir);
  } catch (const GeometryError& e) {
    // Primitive sizes are checked above, so this is a builder refusing an extreme value.
    s.fail("a valid " + type + " (" + e.what() + ")");
  }
}

}  // namespace pegsim
