// The "compound" shape of scene files (docs/scene-format.md, thesis §4.5): the union's mass
// properties, parts placed by position and orientation, re-centring, and the errors.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kRoot(PEGSIM_SOURCE_DIR);

Scene parse(const std::string& text) {
  return parse_scene(text, "c.json", kRoot);
}

std::string with_shape(const std::string& shape) {
  return R"({"bodies": [{"name": "ground", "shape": {"type": "plane"}}, {"name": "c", "shape": )" +
         shape + "}]}";
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

// An L of two overlapping 2 x 1 x 1 boxes, the second turned 90 degrees about z: the union of
// [0,2]x[0,1]x[0,1] and [0,1]x[0,2]x[0,1], volume 3 m^3 (not 4), so 3000 kg at the default
// density; centroid (5/6, 5/6, 1/2) in the parts' frame, where the body origin now lies.
TEST(SceneCompound, LShapeFromTwoPartsHasTheUnionsMass) {
  const Scene s = parse(with_shape(R"({"type": "compound", "parts": [
      {"shape": {"type": "box", "size": [2, 1, 1]}, "position": [1, 0.5, 0.5]},
      {"shape": {"type": "box", "size": [2, 1, 1]}, "position": [0.5, 1, 0.5],
       "orientation": {"axis": [0, 0, 1], "angle": 1.5707963267948966}}]})"));
  const Body& b = s.model.bodies[1];
  ASSERT_EQ(b.shape.kind, ShapeKind::Compound);
  EXPECT_NEAR(b.mass, 3000.0, 1e-9);
  const Compound& c = *b.shape.compound;
  EXPECT_LT((c.parts[0].position - Vec3(1 - 5.0 / 6, 0.5 - 5.0 / 6, 0)).norm(), 1e-12);
  // I_zz of the union about its centroid (analytic, the two disjoint boxes and parallel axes):
  // 2 (1 + 4) / 12 + 2 |(1/6, -1/3)|^2 + (1 + 1) / 12 + |(-1/3, 2/3)|^2 = 11/6 per unit density.
  EXPECT_NEAR(b.inertia(2, 2), 1000.0 * 11.0 / 6.0, 1e-9);
}

// A hull part keeps the place its points give it: re-centring the hull moves its part frame.
TEST(SceneCompound, HullPartStaysWhereItsPointsAre) {
  const Scene s = parse(with_shape(R"({"type": "compound", "parts": [
      {"shape": {"type": "cube", "edge": 1}},
      {"shape": {"type": "hull", "points": [[0.5, -0.5, -0.5], [1.5, -0.5, -0.5],
        [0.5, 0.5, -0.5], [1.5, 0.5, -0.5], [0.5, -0.5, 0.5], [1.5, -0.5, 0.5],
        [0.5, 0.5, 0.5], [1.5, 0.5, 0.5]]}}]})"));
  // Two unit cubes side by side: a 2 x 1 x 1 block, centroid at x = 0.5 in the parts' frame.
  const Body& b = s.model.bodies[1];
  EXPECT_NEAR(b.mass, 2000.0, 1e-9);
  const Compound& c = *b.shape.compound;
  EXPECT_LT((c.parts[0].position - Vec3(-0.5, 0, 0)).norm(), 1e-12);
  EXPECT_LT((c.parts[1].position - Vec3(0.5, 0, 0)).norm(), 1e-12);
}

TEST(SceneCompound, BadPartsNameTheFieldAndWhatWasExpected) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"type": "compound"})", "/bodies/1/shape/parts"},
      {R"({"type": "compound", "parts": []})", "/bodies/1/shape/parts"},
      {R"({"type": "compound", "parts": [{"position": [0, 0, 0]}]})",
       "/bodies/1/shape/parts/0/shape"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "plane"}}]})",
       "/bodies/1/shape/parts/0/shape/type"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "cube", "edge": 1}, "size": 1}]})",
       "/bodies/1/shape/parts/0/size"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "cube", "edge": -1}}]})",
       "/bodies/1/shape/parts/0/shape/edge"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "cube", "edge": 1}},
          {"shape": {"type": "sphere", "radius": 0.5}, "position": [0, 0, 0.8]}]})",
       "/bodies/1/shape/parts"},
  };
  for (const auto& [shape, pointer] : cases) {
    const std::string message = error_of(with_shape(shape));
    EXPECT_NE(message.find("c.json"), std::string::npos) << message;
    EXPECT_NE(message.find(pointer + ":"), std::string::npos) << pointer << " in " << message;
  }
  EXPECT_NE(error_of(with_shape(R"({"type": "compound", "parts": [{"shape": {"type": "cube",
      "edge": 1}}, {"shape": {"type": "sphere", "radius": 0.5}, "position": [0, 0, 0.8]}]})"))
                .find("part 1"),
            std::string::npos);
}

std::string planar_with_shape(const std::string& shape) {
  return R"({"dimension": 2, "bodies": [{"name": "ground", "shape": {"type": "half_plane"}},
      {"name": "c", "shape": )" +
         shape + "}]}";
}

// A 2D scene's compound: an L of two overlapping rectangles [0,2]x[0,1] and [0,1]x[0,2] (the
// second given as a 2 x 1 rectangle turned by pi/2 about z), area 3 m^2 (not 4), 3000 kg at
// the default density; centroid (5/6, 5/6) where the body origin now lies; I_zz of the union
// about it (the disjoint [0,2]x[0,1] and [0,1]x[1,2], parallel axes):
// 2 (4 + 1) / 12 + 2 |(1/6, -1/3)|^2 + (1 + 1) / 12 + |(-1/3, 2/3)|^2 = 11/6 per unit density.
TEST(SceneCompound, PlanarLShapeFromTwoRectangles) {
  const Scene s = parse(planar_with_shape(R"({"type": "compound", "parts": [
      {"shape": {"type": "rectangle", "size": [2, 1]}, "position": [1, 0.5]},
      {"shape": {"type": "rectangle", "size": [2, 1]}, "position": [0.5, 1],
       "orientation": 1.5707963267948966}]})"));
  ASSERT_TRUE(s.model.planar());
  const Body& b = s.model.bodies[1];
  ASSERT_EQ(b.shape.kind, ShapeKind::Compound);
  EXPECT_TRUE(b.shape.compound->planar);
  EXPECT_NEAR(b.mass, 3000.0, 1e-9);
  EXPECT_LT((b.shape.compound->parts[0].position - Vec3(1 - 5.0 / 6, 0.5 - 5.0 / 6, 0)).norm(),
            1e-12);
  EXPECT_NEAR(b.inertia(2, 2), 1000.0 * 11.0 / 6.0, 1e-9);
}

// A polygon part given by its vertices is re-centred by the parser; its part frame moves with
// it, so the part stays where the vertices put it.
TEST(SceneCompound, PlanarPolygonPartStaysWhereItsVerticesAre) {
  const Scene s = parse(planar_with_shape(R"({"type": "compound", "parts": [
      {"shape": {"type": "rectangle", "size": [1, 1]}},
      {"shape": {"type": "polygon", "vertices": [[0.5, -0.5], [1.5, -0.5], [1.5, 0.5], [0.5, 0.5]]}}]})"));
  const Compound& c = *s.model.bodies[1].shape.compound;
  EXPECT_NEAR(s.model.bodies[1].mass, 2000.0, 1e-9);
  EXPECT_LT((c.parts[0].position - Vec3(-0.5, 0, 0)).norm(), 1e-12);
  EXPECT_LT((c.parts[1].position - Vec3(0.5, 0, 0)).norm(), 1e-12);
}

TEST(SceneCompound, BadPlanarPartsNameTheFieldAndWhatWasExpected) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"type": "compound"})", "/bodies/1/shape/parts"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "half_plane"}}]})",
       "/bodies/1/shape/parts/0/shape/type"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "box", "size": [1, 1, 1]}}]})",
       "/bodies/1/shape/parts/0/shape/type"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "circle", "radius": 1},
          "position": [0, 0, 0]}]})",
       "/bodies/1/shape/parts/0/position"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "circle", "radius": 1},
          "orientation": [1, 0, 0, 0]}]})",
       "/bodies/1/shape/parts/0/orientation"},
      {R"({"type": "compound", "parts": [{"shape": {"type": "rectangle", "size": [1, 1]}},
          {"shape": {"type": "circle", "radius": 0.5}, "position": [0.8, 0]}]})",
       "/bodies/1/shape/parts"},
  };
  for (const auto& [shape, pointer] : cases) {
    const std::string message = error_of(planar_with_shape(shape));
    EXPECT_NE(message.find("c.json"), std::string::npos) << message;
    EXPECT_NE(message.find(pointer + ":"), std::string::npos) << pointer << " in " << message;
  }
  EXPECT_NE(error_of(planar_with_shape(R"({"type": "compound", "parts": [{"shape": {"type":
      "rectangle", "size": [1, 1]}}, {"shape": {"type": "circle", "radius": 0.5},
      "position": [0.8, 0]}]})"))
                .find("part 1: a circle part overlaps part 0"),
            std::string::npos);
}

}  // namespace
}  // namespace pegsim
