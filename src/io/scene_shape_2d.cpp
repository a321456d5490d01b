// The planar shapes of 2D scenes (schema: docs/scene-format.md, "2D scenes").
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/geometry/compound.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polygon_builders.hpp"
#include "engine/geometry/smooth_shapes.hpp"
#include "io/scene_compound.hpp"
#include "io/scene_limits.hpp"
#include "io/scene_shape.hpp"

namespace pegsim {

namespace {

std::string planar_types() {
  return "a 2D shape type: polygon, regular_polygon, rectangle, triangle, hull, random_polygon, "
         "circle, ellipse, superellipse, half_plane or compound";
}

double positive_field(const JsonNode& s, const char* key, const char* what) {
  return s.at(key, what).positive(what);
}

SceneShape polygon_shape(Polygon p, bool recentre) {
  SceneShape out;
  out.unit = polygon_mass_properties(p);
  if (recentre) {
    translate(p, out.unit.centroid.head<2>());
    out.shift = out.unit.centroid;
    out.unit.centroid = Vec3::Zero();
  }
  out.shape = Shape::convex_polygon(std::make_shared<const Polygon>(std::move(p)));
  return out;
}

std::vector<Vec2> points(const JsonNode& s, const char* key, const char* what) {
  const JsonNode list = s.at(key, what);
  list.require_array(what);
  if (list.size() < 3) list.fail(what);
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < list.size(); ++i) out.push_back(list[i].vec2("a point [x, y] in m"));
  return out;
}

SceneShape half_plane(const JsonNode& s) {
  s.allow_only({"type", "normal"});
  SceneShape out;
  out.shape = Shape::half_plane();
  if (auto n = s.find("normal")) {
    const char* what = "a non-zero normal [x, y]";
    const Vec2 normal = n->vec2(what);
    if (!(normal.norm() > 0.0)) n->fail(what);
    // The rotation about z taking the body's +y to the normal.
    const double angle = std::atan2(normal.y(), normal.x()) - M_PI / 2;
    out.plane_normal = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
  }
  return out;
}

SceneShape build(const JsonNode& s, const std::string& type);

// thesis §4.5 in the plane: polygon and circle parts posed by "position" [x, y] and
// "orientation" (an angle about z) (scene_compound.hpp).
SceneShape planar_compound(const JsonNode& s) {
  return parse_compound(
      s, {"a convex 2D shape object",
          "a convex 2D part type: polygon, regular_polygon, rectangle, triangle, hull, "
          "random_polygon, circle, ellipse or superellipse",
          "half_plane", "circles", [](const JsonNode& n) { return parse_planar_shape(n); },
          [](const JsonNode& item, CompoundPart& p) {
            if (auto n = item.find("position")) {
              const Vec2 x = n->vec2("a position [x, y] in m (2D scene)");
              p.position = Vec3(x.x(), x.y(), 0.0);
            }
            if (auto n = item.find("orientation"))
              p.orientation = Quat(Eigen::AngleAxisd(
                  n->number("an angle about z in rad (2D scene)"), Vec3::UnitZ()));
          }});
}

// ellipse, superellipse: the smooth surface |x / a|^p + |y / b|^p <= 1 with its polygon.
SceneShape smooth(const JsonNode& s, const std::string& type) {
  const double p = smooth_exponent(s, type == "ellipse", "the ellipse", "a rectangle");
  const char* axes_what = "an array of 2 positive semi-axes [a, b] in m";
  const JsonNode axes = s.at("semi_axes", axes_what);
  const Vec2 a = axes.vec2(axes_what);
  if (!(a.minCoeff() > 0.0)) axes.fail(axes_what);
  int segments = 2 * kDefaultSmoothSegments;
  if (auto n = s.find("segments"))
    segments = n->integer("an integer number of segments from 8 to 1000", 8, kMaxShapeSides);
  SceneShape out;
  out.shape = make_smooth_shape(Vec3(a.x(), a.y(), 0.0), p, segments, true);
  out.unit = smooth_mass_properties(out.shape);
  return out;
}

// Builds the shape of `type` after checking its fields; GeometryError from a builder passes up.
SceneShape build(const JsonNode& s, const std::string& type) {
  if (type == "circle") {
    s.allow_only({"type", "radius"});
    const double r = positive_field(s, "radius", "a positive radius in m");
    SceneShape out;
    out.shape = Shape::circle(r);
    out.unit = circle_mass_properties(r);
    return out;
  }
  if (type == "half_plane") return half_plane(s);
  if (type == "ellipse" || type == "superellipse") return smooth(s, type);
  if (type == "polygon") {
    s.allow_only({"type", "vertices"});
    return polygon_shape(
        make_polygon(
            points(s, "vertices", "an array of at least 3 vertices [x, y], counter-clockwise")),
        true);
  }
  if (type == "regular_polygon") {
    s.allow_only({"type", "sides", "radius"});
    const char* what = "an integer number of sides from 3 to 1000";
    const int n = s.at("sides", what).integer(what, 3, kMaxShapeSides);
    return polygon_shape(
        make_regular_polygon(n, positive_field(s, "radius", "a positive circumradius in m")),
        false);
  }
  if (type == "rectangle") {
    s.allow_only({"type", "size"});
    const char* what = "an array of 2 positive numbers [width, height] in m";
    const JsonNode size = s.at("size", what);
    const Vec2 l = size.vec2(what);
    if (!(l.minCoeff() > 0.0)) size.fail(what);
    return polygon_shape(make_rectangle(l.x(), l.y()), false);
  }
  if (type == "triangle") {
    s.allow_only({"type", "side"});
    return polygon_shape(make_triangle(positive_field(s, "side", "a positive side length in m")),
                         false);
  }
  if (type == "hull") {
    s.allow_only({"type", "points"});
    return polygon_shape(
        make_convex_hull_2d(points(s, "points", "an array of at least 3 points [x, y]")), true);
  }
  if (type == "random_polygon") {
    s.allow_only({"type", "seed", "points", "extent"});
    const int seed = s.at("seed", "an integer seed >= 0").integer("an integer seed >= 0", 0);
    const auto count = s.find("points");
    const int n =
        count ? count->integer("an integer number of points from 3 to 1000", 3, kMaxShapeSides)
              : 10;
    const auto extent = s.find("extent");
    const double e = extent ? extent->positive("a positive extent in m") : 0.25;
    return polygon_shape(make_random_polygon(static_cast<std::uint64_t>(seed), n, e), true);
  }
  if (type == "compound") return planar_compound(s);
  const std::string what = planar_types();
  s.at("type", what.c_str())
      .fail(what + " (a 2D scene takes no 3D shape" +
            (type == "sphere" || type == "plane" || type == "box"
                 ? ": use circle, half_plane or rectangle)"
             : type == "ellipsoid" || type == "superquadric" ? ": use ellipse or superellipse)"
                                                             : ")"));
}

}  // namespace

bool planar_shape_type(const std::string& type) {
  for (const char* t : {"polygon", "regular_polygon", "rectangle", "triangle", "random_polygon",
                        "circle", "ellipse", "superellipse", "half_plane"})
    if (type == t) return true;
  return false;
}

SceneShape parse_planar_shape(const JsonNode& s) {
  const std::string what = planar_types();
  const std::string type = s.at("type", what.c_str()).string(what.c_str());
  try {
    return build(s, type);
  } catch (const GeometryError& e) {
    const char* field = type == "polygon" ? "vertices" : type == "hull" ? "points" : "type";
    s.at(field, "").fail("a valid convex " + type + " (" + e.what() + ")");
  }
}

}  // namespace pegsim
