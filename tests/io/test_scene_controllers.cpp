// Scene files with controllers, joint limits and damping and the joint_correction settings:
// every field reaches the model, and each bad one names its JSON pointer.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <tuple>

#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kRoot(PEGSIM_SOURCE_DIR);

std::string scene_text(const std::string& joint_extra, const std::string& controllers,
                       const std::string& settings = "{}") {
  return R"({"settings": )" + settings + R"(,
     "bodies": [{"name": "a", "shape": {"type": "cube", "edge": 1}},
                {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 2]},
                {"name": "floor", "shape": {"type": "plane"}, "static": true}],
     "joints": [{"name": "hinge", "type": "revolute", "body_b": "a", "anchor": [0, 0, 0.5],
                 "axis": [1, 0, 0])" +
         joint_extra + R"(},
                {"name": "rail", "type": "prismatic", "body_a": "a", "body_b": "b",
                 "anchor": [0, 0, 1.5]},
                {"name": "ball", "type": "spherical", "body_a": "b", "body_b": "a",
                 "anchor": [0, 0, 1]}],
     "controllers": )" +
         controllers + "}";
}

std::string error_of(const std::string& joint_extra, const std::string& controllers,
                     const std::string& settings = "{}") {
  try {
    parse_scene(scene_text(joint_extra, controllers, settings), "bad.json", kRoot);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SceneControllers, EveryFieldReachesTheModel) {
  const Scene s = parse_scene(
      scene_text(R"(, "limits": {"angle": [-0.5, null]}, "damping": {"angular": 0.2})",
                 R"([{"type": "pd", "joint": "hinge", "kp": 50, "kd": 5, "max_effort": 20,
                      "target": {"type": "sinusoid", "amplitude": 1, "angular_frequency": 1}},
                     {"type": "pd", "joint": "rail", "kp": 10, "kd": 1,
                      "target": {"type": "waypoints", "points": [[0, 0], [1, 0.2]]}},
                     {"type": "pd", "joint": "hinge", "kp": 1, "kd": 0, "target": 0.3,
                      "implicit": true},
                     {"type": "wrench", "body": "b", "force": [1, 2, 3], "point": [0, 0.5, 0],
                      "start": 0.1, "end": 0.2},
                     {"type": "wrench", "body": "a", "torque": [0, 0, 1]}])",
                 R"({"joint_correction": true, "joint_position_tolerance": 1e-6,
                     "joint_velocity_tolerance": 2e-6})"),
      "ok.json", kRoot);
  const Joint& hinge = s.model.joints[0];
  EXPECT_EQ(hinge.angle_limit.lower, -0.5);
  EXPECT_FALSE(std::isfinite(hinge.angle_limit.upper));
  EXPECT_FALSE(hinge.displacement_limit.any());
  EXPECT_EQ(hinge.angular_damping, 0.2);
  const ControllerSpecs& c = s.model.controllers;
  ASSERT_EQ(c.pd_joints.size(), 3u);
  EXPECT_EQ(c.pd_joints[0].joint, 0);
  EXPECT_FALSE(c.pd_joints[0].displacement);
  EXPECT_EQ(c.pd_joints[0].max_effort, 20.0);
  EXPECT_EQ(c.pd_joints[0].target.kind, Trajectory::Kind::Sinusoid);
  EXPECT_EQ(c.pd_joints[1].joint, 1);
  EXPECT_TRUE(c.pd_joints[1].displacement);
  ASSERT_EQ(c.pd_joints[1].target.waypoints.size(), 2u);
  EXPECT_EQ(c.pd_joints[2].target.kind, Trajectory::Kind::Constant);
  EXPECT_EQ(c.pd_joints[2].target.value, 0.3);
  EXPECT_FALSE(c.pd_joints[0].implicit);
  EXPECT_TRUE(c.pd_joints[2].implicit);
  ASSERT_EQ(c.wrenches.size(), 2u);
  EXPECT_EQ(c.wrenches[0].body, 1);
  EXPECT_EQ(c.wrenches[0].force, Vec3(1, 2, 3));
  EXPECT_EQ(c.wrenches[0].point, Vec3(0, 0.5, 0));
  EXPECT_EQ(c.wrenches[0].start, 0.1);
  EXPECT_EQ(c.wrenches[1].torque, Vec3(0, 0, 1));
  EXPECT_FALSE(std::isfinite(c.wrenches[1].end));
  EXPECT_TRUE(s.settings.joint_correction);
  EXPECT_EQ(s.settings.joint_position_tolerance, 1e-6);
  EXPECT_EQ(s.settings.joint_velocity_tolerance, 2e-6);
}

TEST(SceneControllers, EachBadFieldNamesItsPointer) {
  const std::string ok = R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1, "target": 0}])";
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {R"(, "limits": [0, 1])", ok, "/joints/0/limits"},
      {R"(, "limits": {"angle": [0.2, 1]})", ok, "/joints/0/limits/angle"},
      {R"(, "limits": {"angle": [-4, 1]})", ok, "/joints/0/limits/angle/0"},
      {R"(, "limits": {"angle": [-1]})", ok, "/joints/0/limits/angle"},
      {R"(, "limits": {"displacement": [-1, 1]})", ok, "/joints/0/limits/displacement"},
      {R"(, "damping": {"linear": 1})", ok, "/joints/0/damping/linear"},
      {R"(, "damping": {"angular": -1})", ok, "/joints/0/damping/angular"},
      {R"(, "damping": 3)", ok, "/joints/0/damping"},
      {"", R"({"type": "pd"})", "/controllers"},
      {"", R"([{"type": "spring"}])", "/controllers/0/type"},
      {"", R"([{"type": "pd", "joint": "knee", "kp": 1, "kd": 1, "target": 0}])",
       "/controllers/0/joint"},
      {"", R"([{"type": "pd", "joint": "ball", "kp": 1, "kd": 1, "target": 0}])",
       "/controllers/0/joint"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": -1, "kd": 1, "target": 0}])",
       "/controllers/0/kp"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1}])", "/controllers/0/target"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1, "target": 0,
                "implicit": "yes"}])",
       "/controllers/0/implicit"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1, "target": 0,
                "implicit": true, "max_effort": 3}])",
       "/controllers/0/max_effort"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1, "target": 0,
                "coordinate": "displacement"}])",
       "/controllers/0/coordinate"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1,
                "target": {"type": "ramp"}}])",
       "/controllers/0/target/type"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1,
                "target": {"type": "waypoints", "points": [[1, 0], [1, 2]]}}])",
       "/controllers/0/target/points/1/0"},
      {"", R"([{"type": "pd", "joint": "hinge", "kp": 1, "kd": 1,
                "target": {"type": "sinusoid", "amplitude": 1}}])",
       "/controllers/0/target/angular_frequency"},
      {"", R"([{"type": "wrench", "body": "floor", "force": [1, 0, 0]}])", "/controllers/0/body"},
      {"", R"([{"type": "wrench", "body": "c", "force": [1, 0, 0]}])", "/controllers/0/body"},
      {"", R"([{"type": "wrench", "body": "a"}])", "/controllers/0"},
      {"", R"([{"type": "wrench", "body": "a", "force": [1, 0]}])", "/controllers/0/force"},
      {"", R"([{"type": "wrench", "body": "a", "force": [1, 0, 0], "start": 2, "end": 1}])",
       "/controllers/0/end"},
      {"", R"([{"type": "wrench", "body": "a", "force": [1, 0, 0], "when": 2}])",
       "/controllers/0/when"},
  };
  for (const auto& [joint_extra, controllers, pointer] : cases) {
    const std::string message = error_of(joint_extra, controllers);
    EXPECT_NE(message.find("bad.json: " + pointer + ":"), std::string::npos)
        << joint_extra << controllers << "\n  gave: " << message;
  }
  EXPECT_NE(error_of("", ok, R"({"joint_correction": 1})").find("/settings/joint_correction"),
            std::string::npos);
  EXPECT_NE(error_of("", ok, R"({"joint_position_tolerance": 0})")
                .find("/settings/joint_position_tolerance"),
            std::string::npos);
}

}  // namespace
}  // namespace pegsim
