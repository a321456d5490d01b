#include "io/scene_controllers.hpp"

#include <cmath>
#include <string>

namespace pegsim {
namespace {

int joint_named(const JsonNode& node, const Model& model) {
  const std::string name = node.string("the name of a joint");
  for (std::size_t k = 0; k < model.joints.size(); ++k)
    if (model.joints[k].name == name) return static_cast<int>(k);
  node.fail("the name of a joint (there is no joint \"" + name + "\")");
}

int dynamic_body_named(const JsonNode& node, const Model& model) {
  const std::string name = node.string("the name of a body");
  const int index = model.body_index(name);
  if (index < 0) node.fail("the name of a body (there is no body \"" + name + "\")");
  if (model.bodies[index].is_static)
    node.fail("the name of a dynamic body (\"" + name + "\" is static: a wrench cannot move it)");
  return index;
}

Trajectory read_target(const JsonNode& node) {
  Trajectory t;
  if (node.value().is_number()) {
    t.value = node.number("a target value");
    return t;
  }
  const char* what =
      "a target: a number, or an object with \"type\" constant, sinusoid or waypoints";
  node.require_object(what);
  const std::string type = node.at("type", what).string(what);
  if (type == "constant") {
    node.allow_only({"type", "value"});
    t.value = node.at("value", "a target value").number("a target value");
  } else if (type == "sinusoid") {
    node.allow_only({"type", "offset", "amplitude", "angular_frequency", "phase"});
    t.kind = Trajectory::Kind::Sinusoid;
    if (auto n = node.find("offset")) t.offset = n->number("an offset");
    t.amplitude = node.at("amplitude", "an amplitude").number("an amplitude");
    t.angular_frequency = node.at("angular_frequency", "an angular frequency in rad/s")
                              .number("an angular frequency in rad/s");
    if (auto n = node.find("phase")) t.phase = n->number("a phase in rad");
  } else if (type == "waypoints") {
    node.allow_only({"type", "points"});
    t.kind = Trajectory::Kind::Waypoints;
    const char* pts = "an array of [t, value] pairs with t strictly ascending";
    const JsonNode list = node.at("points", pts);
    list.require_array(pts);
    if (list.size() == 0) list.fail(pts);
    for (std::size_t i = 0; i < list.size(); ++i) {
      const JsonNode p = list[i];
      p.require_array("a [t, value] pair");
      if (p.size() != 2) p.fail("a [t, value] pair");
      const double time = p[0].number("a time in s");
      if (!t.waypoints.empty() && !(time > t.waypoints.back().first))
        p[0].fail("a time after the previous waypoint's");
      t.waypoints.emplace_back(time, p[1].number("a target value"));
    }
  } else {
    node.at("type", what).fail("a target type: constant, sinusoid or waypoints");
  }
  return t;
}

PdJointSpec read_pd(const JsonNode& node, const Model& model) {
  node.allow_only({"type", "joint", "coordinate", "kp", "kd", "max_effort", "implicit", "target"});
  PdJointSpec pd;
  const JsonNode joint_node = node.at("joint", "the name of a joint");
  pd.joint = joint_named(joint_node, model);
  const JointType type = model.joints[pd.joint].type;
  if (!has_free_angle(type) && !has_free_translation(type))
    joint_node.fail(std::string("a revolute, prismatic or cylindrical joint (a ") +
                    to_string(type) + " joint has no single coordinate to control)");
  pd.displacement = !has_free_angle(type);
  if (auto n = node.find("coordinate")) {
    const char* what = "\"angle\" or \"displacement\" (a coordinate the joint has)";
    const std::string c = n->string(what);
    if (c == "angle" && has_free_angle(type))
      pd.displacement = false;
    else if (c == "displacement" && has_free_translation(type))
      pd.displacement = true;
    else
      n->fail(what);
  }
  pd.kp = node.at("kp", "a gain >= 0").non_negative("a gain >= 0 (N m/rad or N/m)");
  pd.kd = node.at("kd", "a gain >= 0").non_negative("a gain >= 0 (N m s/rad or N s/m)");
  if (auto n = node.find("implicit")) pd.implicit = n->boolean();
  if (auto n = node.find("max_effort")) {
    if (pd.implicit)
      n->fail(
          "no max_effort on an implicit drive (its effort, taken at the end of the step, is "
          "not bounded); leave it out or set \"implicit\": false");
    pd.max_effort = n->positive("a positive effort (N m or N)");
  }
  pd.target = read_target(node.at("target", "a target"));
  return pd;
}

WrenchSpec read_wrench(const JsonNode& node, const Model& model) {
  node.allow_only({"type", "body", "force", "torque", "point", "start", "end"});
  WrenchSpec w;
  w.body = dynamic_body_named(node.at("body", "the name of a body"), model);
  if (!node.has("force") && !node.has("torque"))
    node.fail("a wrench with \"force\" and/or \"torque\"");
  if (auto n = node.find("force")) w.force = n->vec3("a force [x, y, z] in N (world frame)");
  if (auto n = node.find("torque")) w.torque = n->vec3("a torque [x, y, z] in N m (world frame)");
  if (auto n = node.find("point")) w.point = n->vec3("a point [x, y, z] in m (body frame)");
  if (auto n = node.find("start")) w.start = n->number("a start time in s");
  if (auto n = node.find("end")) {
    w.end = n->number("an end time in s");
    if (!(w.end > w.start)) n->fail("an end time after the start time");
  }
  return w;
}

}  // namespace

void read_controllers(const JsonNode& list, Scene& scene) {
  list.require_array("an array of controllers");
  ControllerSpecs& out = scene.model.controllers;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonNode node = list[i];
    const char* what = "a controller object with \"type\": \"pd\" or \"wrench\"";
    node.require_object(what);
    const JsonNode type_node = node.at("type", what);
    const std::string type = type_node.string(what);
    if (type == "pd")
      out.pd_joints.push_back(read_pd(node, scene.model));
    else if (type == "wrench")
      out.wrenches.push_back(read_wrench(node, scene.model));
    else
      type_node.fail("a controller type: \"pd\" or \"wrench\"");
  }
}

}  // namespace pegsim
