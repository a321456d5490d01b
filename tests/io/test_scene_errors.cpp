// Bad scene input: one line naming the file, the JSON pointer and what was expected.
#include <gtest/gtest.h>

#include <filesystem>

#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kRoot(PEGSIM_SOURCE_DIR);

std::string error_of(const std::string& text) {
  try {
    parse_scene(text, "bad.json", kRoot / "tests/io/data");
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

// A scene whose second body (index 1, after a ground plane) is `body`.
std::string with_body(const std::string& body) {
  return R"({"bodies": [{"name": "ground", "shape": {"type": "plane"}}, )" + body + "]}";
}

struct BadScene {
  const char* text;
  const char* pointer;  // the JSON pointer the message must name
};

const std::string kCube = R"("shape": {"type": "cube", "edge": 1})";

TEST(SceneErrors, EachNamesThePointerAndWhatWasExpected) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"([1, 2])", "/"},
      {R"({"bodies": []})", "/bodies"},
      {R"({"name": "x"})", "/bodies"},
      {R"({"duration": -1, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})", "/duration"},
      {R"({"settings": {"h": 0}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/h"},
      {R"({"settings": {"friction_directions": 2}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/friction_directions"},
      {R"({"settings": {"formulation": "st"}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/formulation"},
      {R"({"settings": {"formulation": "ncp", "solver": "lemke", "fallbacks": ["fischer-newton"]}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/solver"},
      {R"({"settings": {"formulation": "ncp"}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/formulation"},
      {R"({"settings": {"fallbacks": ["pgs", "nope"]}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/fallbacks/1"},
      {R"({"settings": {"on_failure": "retry"}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/on_failure"},
      {R"({"settings": {"time_budget": -0.1}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/time_budget"},
      {R"({"settings": {"gyroscopic": "semi"}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/gyroscopic"},
      {R"({"settings": {"preset": "fast"}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/preset"},
      {R"({"settings": {"iteration_budget": 1}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/iteration_budget"},
      {R"({"settings": {"contacts_per_pair": -1}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/contacts_per_pair"},
      {R"({"settings": {"contacts_per_pair": 2.5}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/contacts_per_pair"},
      {R"({"settings": {"primaries": "all"}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/primaries"},
      {R"({"settings": {"gravity": [0, 0, "down"]}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})",
       "/settings/gravity"},
      {with_body(R"({"shape": {"type": "cube", "edge": 1}})"), "/bodies/1/name"},
      {with_body(R"({"name": "b"})"), "/bodies/1/shape"},
      {with_body(R"({"name": "b", "shape": {"type": "box", "size": [1, -2, 3]}})"),
       "/bodies/1/shape/size"},
      {with_body(R"({"name": "b", "shape": {"type": "box", "size": [1, 2]}})"),
       "/bodies/1/shape/size"},
      {with_body(R"({"name": "b", "shape": {"type": "blob"}})"), "/bodies/1/shape/type"},
      {with_body(
           R"({"name": "b", "shape": {"type": "cylinder", "radius": 1, "height": 1, "sides": 2}})"),
       "/bodies/1/shape/sides"},
      {with_body(
           R"({"name": "b", "shape": {"type": "hull", "points": [[0,0,0],[1,0,0],[0,1,0],[1,1,0]]}})"),
       "/bodies/1/shape/points"},
      {with_body(R"({"name": "b", "shape": {"type": "plane", "normal": [0, 0, 0]}})"),
       "/bodies/1/shape/normal"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "orientation": [0, 0, 0, 0]})"),
       "/bodies/1/orientation"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "orientation": {"axis": [0, 0, 0], "angle": 1}})"),
       "/bodies/1/orientation/axis"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "position": [0, "1", 0]})"),
       "/bodies/1/position"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "mass": 1, "density": 2})"),
       "/bodies/1/density"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "mass": 0})"), "/bodies/1/mass"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "inertia": [[1, 0, 0], [0, 1, 0], [0, 0, -1]]})"),
       "/bodies/1/inertia"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "inertia": [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]})"),
       "/bodies/1/inertia"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "mu": -0.1})"), "/bodies/1/mu"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "color": "#12345z"})"), "/bodies/1/color"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "color": [1, 0, 2]})"), "/bodies/1/color"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "static": "yes"})"), "/bodies/1/static"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "static": true, "velocity": [1, 0, 0]})"),
       "/bodies/1/velocity"},
      {with_body(R"({"name": "ground", )" + kCube + "}"), "/bodies/1/name"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "no_collide": ["ground", "ghost"]})"),
       "/bodies/1/no_collide/1"},
      {with_body(R"({"name": "b", "shape": {"type": "plane"}, "static": false})"),
       "/bodies/1/static"},
      {with_body(R"({"name": "b", "shape": {"type": "plane"}, "mass": 3})"), "/bodies/1/mass"},
      {with_body(
           R"({"name": "b", "shape": {"type": "plane", "normal": [1, 0, 0]}, "orientation": [1, 0, 0, 0]})"),
       "/bodies/1/orientation"},
      {with_body(R"({"name": "b", "shape": {"type": "mesh", "file": "open_cube.obj"}})"),
       "/bodies/1/shape/file"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "appear_time": -0.5})"),
       "/bodies/1/appear_time"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "volumetric": {"spin_speed": -1}})"),
       "/bodies/1/volumetric/spin_speed"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "volumetric": {"stiffness": 0}})"),
       "/bodies/1/volumetric/stiffness"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "volumetric": {"stick_stiffness": -1}})"),
       "/bodies/1/volumetric/stick_stiffness"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "shell": {"damping": 1}})"),
       "/bodies/1/shell/stiffness"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "shell": {"stiffness": 0}})"),
       "/bodies/1/shell/stiffness"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": 10, "max_deflection": -1}})"),
       "/bodies/1/shell/max_deflection"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "shell": {"stiffness": 10, "k": 1}})"),
       "/bodies/1/shell/k"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "shell": 1000})"), "/bodies/1/shell"},
      // Shell matrices (37): square of the scene's dimension, K positive definite, C
      // semi-definite, tangential damping with a stiffness matrix, and in 3D the same along
      // every tangent unless a friction ellipse fixes t.
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": [[1, 2, 0], [2, 1, 0], [0, 0, 1]]}})"),
       "/bodies/1/shell/stiffness"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "shell": {"stiffness": [[1, 0], [0, 1]]}})"),
       "/bodies/1/shell/stiffness"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": [[1, 0, 0], 5, [0, 0, 1]]}})"),
       "/bodies/1/shell/stiffness/1"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": [[1, 0, 0], [0, 1, 0], [0, 0, "x"]]}})"),
       "/bodies/1/shell/stiffness/2/2"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": 10, "damping": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}})"),
       "/bodies/1/shell/damping"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": 10, "damping": [[-1, 0, 0], [0, 0, 0], [0, 0, 0]]}})"),
       "/bodies/1/shell/damping"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "shell": {"stiffness": [[10, 0, 0], [0, 5, 0], [0, 0, 3]]}})"),
       "/bodies/1/shell"},
      {R"({"dimension": 2, "bodies": [{"name": "b", "shape": {"type": "circle", "radius": 1},
          "shell": {"stiffness": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}]})",
       "/bodies/0/shell/stiffness"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "torsion_radius": -0.1})"),
       "/bodies/1/torsion_radius"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "friction_ellipse": {"e_t": 1}})"),
       "/bodies/1/friction_ellipse/axis"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "friction_ellipse": {"axis": [0, 0, 0], "e_o": 0.5}})"),
       "/bodies/1/friction_ellipse/axis"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "friction_ellipse": {"axis": [1, 0, 0], "e_o": 0}})"),
       "/bodies/1/friction_ellipse/e_o"},
      {with_body(R"({"name": "b", )" + kCube +
                 R"(, "friction_ellipse": {"axis": [1, 0, 0], "e_r": 1}})"),
       "/bodies/1/friction_ellipse/e_r"},
      {R"({"dimension": 2, "bodies": [{"name": "b", "shape": {"type": "circle", "radius": 1},
          "friction_ellipse": {"axis": [1, 0, 0]}}]})",
       "/bodies/0/friction_ellipse"},
      {with_body(R"({"name": "b", )" + kCube + R"(, "support_friction": {"mu": 0.2}})"),
       "/bodies/1/support_friction"},
      {R"({"dimension": 2, "bodies": [{"name": "b", "shape": {"type": "circle", "radius": 1},
          "support_friction": {"torsion_radius": 0.1}}]})",
       "/bodies/0/support_friction/mu"},
      {R"({"dimension": 2, "bodies": [{"name": "b", "shape": {"type": "circle", "radius": 1},
          "support_friction": {"mu": 0.2, "gravity": 0}}]})",
       "/bodies/0/support_friction/gravity"},
      {R"({"bodies": [{"name": "b", "shape": {"type": "cube", "edge": 1}, "appear_time": 1}],
          "joints": [{"type": "revolute", "body_b": "b", "anchor": [0, 0, 0]}]})",
       "/joints/0/body_b"},
  };
  for (const auto& [text, pointer] : cases) {
    const std::string e = error_of(text);
    SCOPED_TRACE(text);
    EXPECT_EQ(e.rfind("bad.json: " + pointer + ": expected ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(SceneErrors, UnknownFieldsAreNamed) {
  const std::string body = error_of(with_body(R"({"name": "b", )" + kCube + R"(, "masss": 1})"));
  EXPECT_EQ(body.rfind("bad.json: /bodies/1/masss: expected no field \"masss\" here", 0), 0u)
      << body;
  const std::string shape =
      error_of(with_body(R"({"name": "b", "shape": {"type": "cube", "edge": 1, "size": 2}})"));
  EXPECT_EQ(shape.rfind("bad.json: /bodies/1/shape/size: expected no field", 0), 0u) << shape;
  const std::string top = error_of(R"({"bodys": []})");
  EXPECT_EQ(top.rfind("bad.json: /bodys: expected no field", 0), 0u) << top;
  const std::string settings = error_of(
      R"({"settings": {"dt": 0.1}, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})");
  EXPECT_EQ(settings.rfind("bad.json: /settings/dt: expected no field", 0), 0u) << settings;
}

TEST(SceneErrors, SyntaxErrorsGiveLineAndColumn) {
  const std::string e = error_of("{\n  \"bodies\": [\n    {\"name\": \"a\",, }\n  ]\n}");
  EXPECT_EQ(e.rfind("bad.json: line 3, column 18: expected valid JSON", 0), 0u) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

// JSON has no NaN or infinity; a literal beyond the double range is the only non-finite input.
// It is named at its pointer, in an object or an array, in pegsim's words.
TEST(SceneErrors, NumbersBeyondTheDoubleRangeAreRejectedAtTheirField) {
  std::string e =
      error_of(R"({"duration": 1e400, "bodies": [{"name": "a", "shape": {"type": "plane"}}]})");
  EXPECT_EQ(e.rfind("bad.json: /duration: expected a finite number", 0), 0u) << e;
  EXPECT_NE(e.find("1e400"), std::string::npos) << e;
  EXPECT_EQ(e.find("json.exception"), std::string::npos) << e;
  e = error_of(with_body(
      R"({"name": "b", "shape": {"type": "sphere", "radius": 1}, "position": [0, -1e999, 0]})"));
  EXPECT_EQ(e.rfind("bad.json: /bodies/1/position/1: expected a finite number", 0), 0u) << e;
  e = error_of(
      R"({"bodies": [{"name": "a", "shape": {"type": "plane"}}], "settings": {"a/b~": {"x": 1e999}}})");
  EXPECT_EQ(e.rfind("bad.json: /settings/a~1b~0/x: expected a finite number", 0), 0u) << e;
}

TEST(SceneErrors, RepeatedFieldsAreRejected) {
  const std::string e =
      error_of(with_body(R"({"name": "b", )" + kCube + R"(, "mass": 1, "mass": 2})"));
  EXPECT_EQ(e,
            "bad.json: /bodies/1/mass: expected each field once per object (\"mass\" is repeated)");
  EXPECT_NO_THROW(parse_scene(
      with_body(R"({"name": "b", "shape": {"type": "sphere", "radius": 1}})"), "ok.json", ""));
}

TEST(SceneErrors, MissingMeshFileIsNamed) {
  const std::string e =
      error_of(with_body(R"({"name": "b", "shape": {"type": "mesh", "file": "missing.poly"}})"));
  EXPECT_EQ(e.rfind("bad.json: /bodies/1/shape/file: expected ", 0), 0u) << e;
  EXPECT_NE(e.find("missing.poly"), std::string::npos) << e;
}

TEST(SceneErrors, BadMeshNamesTheMeshFileAndLine) {
  const std::string e =
      error_of(with_body(R"({"name": "b", "shape": {"type": "mesh", "file": "open_cube.poly"}})"));
  EXPECT_NE(e.find("open_cube.poly: line "), std::string::npos) << e;
}

TEST(SceneErrors, MissingSceneFileIsNamed) {
  try {
    load_scene(kRoot / "scenes/no_such_scene.json");
    FAIL() << "no error";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_scene.json: expected"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pegsim
