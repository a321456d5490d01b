// 2D scenes ("dimension": 2, docs/scene-format.md): planar shapes, bodies and joints in the
// world x-y plane, their defaults, and one clear error per kind of bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kRoot(PEGSIM_SOURCE_DIR);

Scene parse(const std::string& text) {
  return parse_scene(text, "flat.json", kRoot);
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

// A 2D scene whose second body (after a ground half-plane) is `body`, with `extra` top-level
// fields.
std::string with_body(const std::string& body, const std::string& extra = "") {
  return R"({"dimension": 2, )" + extra +
         R"("bodies": [{"name": "ground", "shape": {"type": "half_plane"}}, )" + body + "]}";
}

TEST(Scene2D, PlanarDefaultsShapesAndState) {
  const Scene s = parse(with_body(
      R"({"name": "tri", "shape": {"type": "polygon", "vertices": [[0, 0], [3, 0], [0, 3]]},
          "position": [2, 5], "orientation": 0.5, "velocity": [1, -1], "angular_velocity": 2,
          "density": 2})"));
  EXPECT_EQ(s.dimension, 2);
  EXPECT_EQ(s.settings.gravity, Vec3(0, -9.81, 0));
  EXPECT_EQ(s.settings.friction_directions, 2);
  ASSERT_TRUE(s.model.planar());
  const Body& tri = s.model.bodies[1];
  ASSERT_EQ(tri.shape.kind, ShapeKind::Polygon);
  // Re-centred on the centroid (1, 1), so the position is the centre of mass.
  EXPECT_TRUE(tri.shape.polygon->vertices[0].isApprox(Vec2(-1, -1)));
  EXPECT_NEAR(tri.mass, 2.0 * 4.5, 1e-12);  // areal density x area
  // Right triangle, legs a = b = 3: I_zz about the centroid = m (a^2 + b^2) / 18.
  EXPECT_NEAR(tri.inertia(2, 2), 9.0 * 18.0 / 18.0, 1e-12);
  const BodyState& st = s.initial.bodies[1];
  EXPECT_EQ(st.position, Vec3(2, 5, 0));
  EXPECT_NEAR(2.0 * std::atan2(st.orientation.z(), st.orientation.w()), 0.5, 1e-15);
  EXPECT_EQ(st.orientation.x(), 0.0);
  EXPECT_EQ(st.velocity, Vec3(1, -1, 0));
  EXPECT_EQ(st.angular_velocity, Vec3(0, 0, 2));
  EXPECT_TRUE(s.model.bodies[0].is_static);
  EXPECT_EQ(s.model.bodies[0].shape.kind, ShapeKind::HalfPlane);
}

TEST(Scene2D, EveryPlanarShapeType) {
  const Scene s = parse(R"({"dimension": 2, "settings": {"gravity": [1, -2]}, "bodies": [
      {"name": "g", "shape": {"type": "half_plane", "normal": [-1, 1]}, "position": [0, -1]},
      {"name": "a", "shape": {"type": "regular_polygon", "sides": 5, "radius": 0.5}},
      {"name": "b", "shape": {"type": "rectangle", "size": [2, 1]}, "mass": 3, "inertia": 0.7},
      {"name": "c", "shape": {"type": "triangle", "side": 2.45}},
      {"name": "d", "shape": {"type": "hull", "points": [[0, 0], [1, 0], [0.5, 0.2], [1, 1], [0, 1]]}},
      {"name": "e", "shape": {"type": "random_polygon", "seed": 3}},
      {"name": "f", "shape": {"type": "circle", "radius": 0.25}, "mass": 2}]})");
  EXPECT_EQ(s.settings.gravity, Vec3(1, -2, 0));
  const Vec3 n = s.initial.bodies[0].orientation * Vec3::UnitY();
  EXPECT_NEAR((n - Vec3(-1, 1, 0).normalized()).norm(), 0.0, 1e-15);
  EXPECT_EQ(s.model.bodies[1].shape.polygon->size(), 5);
  EXPECT_EQ(s.model.bodies[2].mass, 3.0);
  EXPECT_EQ(s.model.bodies[2].inertia(2, 2), 0.7);
  EXPECT_EQ(s.model.bodies[3].shape.polygon->size(), 3);
  EXPECT_EQ(s.model.bodies[4].shape.polygon->size(), 4);  // the interior point dropped
  EXPECT_GE(s.model.bodies[5].shape.polygon->size(), 3);
  EXPECT_EQ(s.model.bodies[6].shape.kind, ShapeKind::Circle);
  EXPECT_NEAR(s.model.bodies[6].inertia(2, 2), 0.5 * 2.0 * 0.0625, 1e-15);  // m r^2 / 2
}

// Ellipses and superellipses: the polygon to collide, the curve for the implicit formulation
// (its unused z semi-axis the smaller in-plane one), the exact area and moment.
TEST(Scene2D, EllipsesAndSuperellipsesCarryTheirCurve) {
  const Scene s = parse(with_body(
      R"({"name": "e", "shape": {"type": "ellipse", "semi_axes": [1, 0.5]}, "density": 2},
         {"name": "s", "shape": {"type": "superellipse", "semi_axes": [0.4, 0.3], "exponent": 4,
                                 "segments": 40}})"));
  const Body& e = s.model.bodies[1];
  ASSERT_EQ(e.shape.kind, ShapeKind::Polygon);
  ASSERT_TRUE(e.shape.smooth);
  EXPECT_EQ(e.shape.smooth->semi_axes, Vec3(1.0, 0.5, 0.5));
  EXPECT_EQ(e.shape.polygon->size(), 64);
  const double m = 2.0 * std::numbers::pi * 0.5;
  EXPECT_NEAR(e.mass, m, 1e-12);
  EXPECT_NEAR(e.inertia(2, 2), m * (1.0 + 0.25) / 4.0, 1e-12);
  const Body& sq = s.model.bodies[2];
  EXPECT_EQ(sq.shape.smooth->exponent, 4.0);
  EXPECT_EQ(sq.shape.polygon->size(), 40);
  EXPECT_NE(
      error_of(
          with_body(R"({"name": "b", "shape": {"type": "ellipsoid", "semi_axes": [1, 1, 1]}})"))
          .find("use ellipse or superellipse"),
      std::string::npos);
  EXPECT_EQ(
      error_of(with_body(R"({"name": "b", "shape": {"type": "ellipse", "semi_axes": [1, -1]}})"))
          .rfind("flat.json: /bodies/1/shape/semi_axes: expected ", 0),
      0u);
}

TEST(Scene2D, JointsStayInThePlane) {
  const Scene j = parse(R"({"dimension": 2, "bodies": [
      {"name": "rod", "shape": {"type": "rectangle", "size": [0.1, 1]}, "position": [0, -0.5]},
      {"name": "slider", "shape": {"type": "rectangle", "size": [0.2, 0.1]}, "position": [3, 0]}],
    "joints": [{"type": "revolute", "body_b": "rod", "anchor": [0, 0]},
               {"type": "prismatic", "body_b": "slider", "anchor": [3, 0], "axis": [1, 1]}]})");
  ASSERT_EQ(j.model.joints.size(), 2u);
  const Joint& hinge = j.model.joints[0];
  EXPECT_EQ(hinge.type, JointType::Revolute);
  EXPECT_EQ(hinge.anchor_a, Vec3::Zero());
  EXPECT_NEAR((hinge.frame_a * Vec3::UnitZ() - Vec3::UnitZ()).norm(), 0.0, 1e-15);
  const Joint& rail = j.model.joints[1];
  EXPECT_NEAR((rail.frame_a * Vec3::UnitZ() - Vec3(1, 1, 0).normalized()).norm(), 0.0, 1e-15);
}

TEST(Scene2D, BadInputNamesThePointerAndWhatWasExpected) {
  const std::string box = R"("shape": {"type": "rectangle", "size": [1, 1]})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"dimension": 4, "bodies": [{"name": "a", "shape": {"type": "half_plane"}}]})",
       "/dimension"},
      {with_body(
           R"({"name": "b", "shape": {"type": "polygon", "vertices": [[0, 0], [0, 1], [1, 0]]}})"),
       "/bodies/1/shape/vertices"},
      {with_body(R"({"name": "b", "shape": {"type": "polygon", "vertices": [[0, 0], [1, 0]]}})"),
       "/bodies/1/shape/vertices"},
      {with_body(
           R"({"name": "b", "shape": {"type": "polygon", "vertices": [[0, 0], [2, 0], [1, 0.2], [1, 2]]}})"),
       "/bodies/1/shape/vertices"},
      {with_body(
           R"({"name": "b", "shape": {"type": "polygon", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}})"),
       "/bodies/1/shape/vertices/0"},
      {with_body(R"({"name": "b", "shape": {"type": "box", "size": [1, 1, 1]}})"),
       "/bodies/1/shape/type"},
      {with_body(R"({"name": "b", "shape": {"type": "sphere", "radius": 1}})"),
       "/bodies/1/shape/type"},
      {with_body(R"({"name": "b", "shape": {"type": "rectangle", "size": [1, 0]}})"),
       "/bodies/1/shape/size"},
      {with_body(R"({"name": "b", "shape": {"type": "hull", "points": [[0, 0], [1, 1], [2, 2]]}})"),
       "/bodies/1/shape/points"},
      {with_body(R"({"name": "b", "shape": {"type": "half_plane", "normal": [0, 0]}})"),
       "/bodies/1/shape/normal"},
      {with_body(R"({"name": "b", )" + box + R"(, "position": [0, 1, 2]})"), "/bodies/1/position"},
      {with_body(R"({"name": "b", )" + box + R"(, "orientation": [1, 0, 0, 0]})"),
       "/bodies/1/orientation"},
      {with_body(R"({"name": "b", )" + box + R"(, "angular_velocity": [0, 0, 1]})"),
       "/bodies/1/angular_velocity"},
      {with_body(R"({"name": "b", )" + box + R"(, "inertia": [1, 1, 1]})"), "/bodies/1/inertia"},
      {with_body(R"({"name": "b", )" + box + "}", R"("settings": {"friction_directions": 7}, )"),
       "/settings/friction_directions"},
      {with_body(R"({"name": "b", )" + box + "}", R"("settings": {"gravity": [0, -9.81, 0]}, )"),
       "/settings/gravity"},
      {with_body(R"({"name": "b", )" + box + "}", R"("settings": {"sm_enforce": "every"}, )"),
       "/settings/sm_enforce"},
      {with_body(R"({"name": "b", )" + box + "}",
                 R"("joints": [{"type": "spherical", "body_b": "b", "anchor": [0, 0]}], )"),
       "/joints/0/type"},
      {with_body(
           R"({"name": "b", )" + box + "}",
           R"("joints": [{"type": "revolute", "body_b": "b", "anchor": [0, 0], "axis": [1, 0, 0]}], )"),
       "/joints/0/axis"},
      {with_body(R"({"name": "b", )" + box + "}",
                 R"("joints": [{"type": "revolute", "body_b": "b", "anchor": [0, 0, 0]}], )"),
       "/joints/0/anchor"},
      // A 2D shape in a 3D scene.
      {R"({"bodies": [{"name": "a", "shape": {"type": "circle", "radius": 1}}]})",
       "/bodies/0/shape/type"},
  };
  for (const auto& [text, pointer] : cases) {
    const std::string e = error_of(text);
    SCOPED_TRACE(text);
    EXPECT_EQ(e.rfind("flat.json: " + pointer + ": expected ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  EXPECT_NE(error_of(cases[1].first).find("counter-clockwise"), std::string::npos);
  EXPECT_NE(error_of(cases[3].first).find("not convex at vertex 2"), std::string::npos);
  EXPECT_NE(error_of(cases.back().first).find("needs \"dimension\": 2"), std::string::npos);
}

// The standard model's contact set (thesis §5.2): primary by default, "all" when asked.
TEST(Scene2D, SmEnforceReadsPrimaryOrAll) {
  const std::string box = R"({"name": "b", "shape": {"type": "rectangle", "size": [1, 1]}})";
  EXPECT_EQ(parse(with_body(box)).settings.sm_enforce, SmEnforce::Primary);
  EXPECT_EQ(parse(with_body(box, R"("settings": {"sm_enforce": "all"}, )")).settings.sm_enforce,
            SmEnforce::All);
}

TEST(Scene2D, ShippedPlanarScenesLoad) {
  for (const char* name : {"triangle_drop", "box_stack_2d"}) {
    const Scene s = load_scene(kRoot / "scenes" / (std::string(name) + ".json"));
    EXPECT_EQ(s.dimension, 2) << name;
    EXPECT_TRUE(s.model.planar()) << name;
  }
}

}  // namespace
}  // namespace pegsim
