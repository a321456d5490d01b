// Shape objects of scene files (schema: docs/scene-format.md, "shape").
#include "io/scene_shape.hpp"

#include <memory>
#include <string>
#include <vector>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/geometry/smooth_shapes.hpp"
#include "io/scene.hpp"
#include "io/scene_body.hpp"
#include "io/scene_compound.hpp"
#include "io/scene_limits.hpp"
#include "io/scene_mesh.hpp"

namespace pegsim {
namespace {

constexpr const char* kTypes =
    "a shape type: sphere, ellipsoid, superquadric, plane, box, cube, cylinder, tetrahedron, "
    "octahedron, hexahedron, dodecahedron, icosahedron, hull, random_polyhedron, mesh or "
    "compound";
constexpr const char* kPartTypes =
    "a convex part type: sphere, ellipsoid, superquadric, box, cube, cylinder, tetrahedron, "
    "octahedron, hexahedron, dodecahedron, icosahedron, hull, random_polyhedron or mesh";

double radius(const JsonNode& s) {
  return s.at("radius", "a positive radius in m").positive("a positive radius in m");
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
  for (std::size_t i = 0; i < points.size(); ++i)
    out.push_back(points[i].vec3("a point [x, y, z]"));
  return out;
}

// ellipsoid, superquadric: the smooth surface sum |x_i / a_i|^p <= 1 with its tessellation.
SceneShape smooth(const JsonNode& s, const std::string& type) {
  const double p = smooth_exponent(s, type == "ellipsoid", "the ellipsoid", "a box");
  const char* axes_what = "an array of 3 positive semi-axes [a, b, c] in m";
  const JsonNode axes = s.at("semi_axes", axes_what);
  const Vec3 a = axes.vec3(axes_what);
  if (!(a.minCoeff() > 0.0)) axes.fail(axes_what);
  int segments = kDefaultSmoothSegments;
  if (auto n = s.find("segments"))
    segments = n->integer("an integer number of segments from 8 to 256", 8, 256);
  SceneShape out;
  out.shape = make_smooth_shape(a, p, segments, false);
  out.unit = smooth_mass_properties(out.shape);
  return out;
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
    return convex_shape(make_box(l.x(), l.y(), l.z()), false);
  }
  if (type == "cube") {
    s.allow_only({"type", "edge"});
    return convex_shape(
        make_cube(
            s.at("edge", "a positive edge length in m").positive("a positive edge length in m")),
        false);
  }
  if (type == "cylinder") {
    s.allow_only({"type", "radius", "height", "sides"});
    const double r = radius(s);
    const double h = s.at("height", "a positive height in m").positive("a positive height in m");
    const auto sides = s.find("sides");
    const char* what = "an integer number of sides from 3 to 1000";
    const int n = sides ? sides->integer(what, 3, kMaxShapeSides) : 20;
    return convex_shape(make_cylinder(n, r, h), false);
  }
  using Builder = Polytope (*)(double);
  const std::pair<const char*, Builder> platonic[] = {{"tetrahedron", make_tetrahedron},
                                                      {"octahedron", make_octahedron},
                                                      {"hexahedron", make_hexahedron},
                                                      {"dodecahedron", make_dodecahedron},
                                                      {"icosahedron", make_icosahedron}};
  for (const auto& [name, build] : platonic) {
    if (type != name) continue;
    s.allow_only({"type", "radius"});
    return convex_shape(build(radius(s)), false);
  }
  if (type == "hull") {
    s.allow_only({"type", "points"});
    try {
      return convex_shape(make_convex_hull(hull_points(s)), true);
    } catch (const GeometryError& e) {
      s.at("points", "").fail(std::string("points spanning a volume (") + e.what() + ")");
    }
  }
  if (type == "random_polyhedron") {
    s.allow_only({"type", "seed", "points", "extent"});
    const int seed = s.at("seed", "an integer seed >= 0").integer("an integer seed >= 0", 0);
    const auto count = s.find("points");
    const int n =
        count ? count->integer("an integer number of points from 4 to 1000", 4, kMaxShapeSides)
              : 10;
    const auto extent = s.find("extent");
    const double e = extent ? extent->positive("a positive extent in m") : 0.25;
    return convex_shape(make_random_polyhedron(static_cast<std::uint64_t>(seed), n, e), true);
  }
  if (type == "mesh") return parse_mesh_shape(s, base_dir);
  if (planar_shape_type(type))
    s.at("type", "")
        .fail(std::string(kTypes) + " (\"" + type +
              "\" is a 2D shape: it needs \"dimension\": 2 at the top level)");
  s.at("type", kTypes).fail(kTypes);
}

// thesis §4.5 in 3D: parts of the convex 3D types, posed by "position" [x, y, z] and
// "orientation" (scene_compound.hpp).
SceneShape compound(const JsonNode& s, const std::filesystem::path& base_dir) {
  return parse_compound(s, {"a convex shape object", kPartTypes, "plane", "spheres",
                            [&](const JsonNode& n) { return parse_shape(n, base_dir); },
                            [](const JsonNode& item, CompoundPart& p) {
                              if (auto n = item.find("position"))
                                p.position = n->vec3("a position [x, y, z] in m");
                              if (auto n = item.find("orientation"))
                                p.orientation = parse_orientation(*n);
                            }});
}

}  // namespace

SceneShape convex_shape(Polytope p, bool recentre) {
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

double smooth_exponent(const JsonNode& s, bool fixed, const char* at_two, const char* beyond) {
  if (fixed) {
    s.allow_only({"type", "semi_axes", "segments"});
    return 2.0;
  }
  s.allow_only({"type", "semi_axes", "exponent", "segments"});
  const std::string what = std::string("an exponent p from 2 to 100 (2: ") + at_two +
                           "; larger: closer to " + beyond + ")";
  const JsonNode e = s.at("exponent", what.c_str());
  const double p = e.number(what.c_str());
  if (!(p >= 2.0) || p > kMaxSmoothExponent) e.fail(what);
  return p;
}

SceneShape parse_shape(const JsonNode& s, const std::filesystem::path& base_dir, int dimension) {
  s.require_object("a shape object with a \"type\"");
  if (dimension == 2) return parse_planar_shape(s);
  const std::string type = s.at("type", kTypes).string(kTypes);
  if (type == "sphere") {
    s.allow_only({"type", "radius"});
    const double r = radius(s);
    SceneShape out;
    out.shape = Shape::sphere(r);
    out.unit = sphere_mass_properties(r);
    return out;
  }
  if (type == "plane") return plane(s);
  if (type == "compound") return compound(s, base_dir);
  try {
    if (type == "ellipsoid" || type == "superquadric") return smooth(s, type);
    return polytope(s, type, base_dir);
  } catch (const GeometryError& e) {
    // Primitive sizes are checked above, so this is a builder refusing an extreme value.
    s.fail("a valid " + type + " (" + e.what() + ")");
  }
}

}  // namespace pegsim
