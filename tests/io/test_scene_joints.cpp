// Scene files with joints: the shipped jointed scenes load with satisfied joints, jointed bodies
// stop colliding unless asked, and each bad joint names its JSON pointer.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/kinematics/joint_rows.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

const std::filesystem::path kRoot(PEGSIM_SOURCE_DIR);

std::string error_of(const std::string& joints) {
  const std::string text =
      R"({"bodies": [{"name": "a", "shape": {"type": "cube", "edge": 1}},
                      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 2]}],
          "joints": )" +
      joints + "}";
  try {
    parse_scene(text, "bad.json", kRoot);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SceneJoints, ShippedJointedScenesLoadWithSatisfiedJoints) {
  for (const char* name :
       {"pendulum", "double_pendulum", "hanging_rod", "rolling_cart", "joint_tree", "powerball_arm",
        "prismatic_limits", "cylindrical_screw"}) {
    const Scene s = load_scene(kRoot / "scenes" / (std::string(name) + ".json"));
    ASSERT_FALSE(s.model.joints.empty()) << name;
    for (const Joint& j : s.model.joints) {
      const JointError e = joint_error(s.initial, j);
      EXPECT_LE(e.position, 1e-12) << name << " " << j.name;
      EXPECT_LE(e.angle, 1e-12) << name << " " << j.name;
    }
  }
  const Scene p = load_scene(kRoot / "scenes/pendulum.json");
  ASSERT_EQ(p.model.joints.size(), 1u);
  EXPECT_EQ(p.model.joints[0].name, "hinge");
  EXPECT_EQ(p.model.joints[0].type, JointType::Revolute);
  EXPECT_EQ(p.model.joints[0].body_a, -1);
  EXPECT_EQ(p.model.joints[0].body_b, 0);
  // The joint frames are set where the scene defines the joint, so its angle starts at 0.
  EXPECT_NEAR(joint_coordinates(p.initial, p.model.joints[0]).angle, 0.0, 1e-12);
}

TEST(SceneJoints, JointedBodiesDoNotCollideUnlessTheSceneSaysSo) {
  const Scene d = load_scene(kRoot / "scenes/double_pendulum.json");
  const int upper = d.model.body_index("upper"), lower = d.model.body_index("lower");
  EXPECT_FALSE(d.model.may_collide(upper, lower));
  const std::string text =
      R"({"bodies": [{"name": "a", "shape": {"type": "cube", "edge": 1}},
                      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 2]}],
          "joints": [{"type": "fixed", "body_a": "a", "body_b": "b", "anchor": [0, 0, 1],
                      "collide": true}]})";
  const Scene s = parse_scene(text, "t.json", kRoot);
  EXPECT_TRUE(s.model.may_collide(0, 1));
}

TEST(SceneJoints, EachBadJointNamesItsPointer) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"type": "revolute"})", "/joints"},
      {R"([{"type": "hinge", "body_b": "b", "anchor": [0, 0, 1]}])", "/joints/0/type"},
      {R"([{"type": "revolute", "body_b": "c", "anchor": [0, 0, 1]}])", "/joints/0/body_b"},
      {R"([{"type": "revolute", "body_b": "world", "anchor": [0, 0, 1]}])", "/joints/0/body_b"},
      {R"([{"type": "revolute", "body_a": "b", "body_b": "b", "anchor": [0, 0, 1]}])",
       "/joints/0/body_b"},
      {R"([{"type": "revolute", "body_b": "b"}])", "/joints/0/anchor"},
      {R"([{"type": "revolute", "body_b": "b", "anchor": [0, 0, 1], "axis": [0, 0, 0]}])",
       "/joints/0/axis"},
      {R"([{"type": "revolute", "body_b": "b", "anchor": [0, 0, 1], "spring": 3}])",
       "/joints/0/spring"},
      {R"([{"name": "j", "type": "fixed", "body_b": "a", "anchor": [0, 0, 0]},
           {"name": "j", "type": "fixed", "body_b": "b", "anchor": [0, 0, 1]}])",
       "/joints/1/name"},
  };
  for (const auto& [joints, pointer] : cases) {
    const std::string message = error_of(joints);
    EXPECT_NE(message.find("bad.json: " + pointer + ":"), std::string::npos)
        << joints << "\n  gave: " << message;
  }
}

}  // namespace
}  // namespace pegsim
