#include "io/scene_joint.hpp"

#include <algorithm>

#include "engine/dynamics/joint_rows.hpp"

namespace pegsim {
namespace {

// A body by name, or -1 for "world".
int body_named(const JsonNode& node, const Model& model) {
  const std::string name = node.string("the name of a body, or \"world\"");
  if (name == "world") return -1;
  const int index = model.body_index(name);
  if (index < 0) node.fail("the name of a body, or \"world\" (there is no body \"" + name + "\")");
  return index;
}

void add_no_collide(Body& body, int other) {
  if (std::find(body.no_collide.begin(), body.no_collide.end(), other) == body.no_collide.end())
    body.no_collide.push_back(other);
}

}  // namespace

void read_joints(const JsonNode& list, Scene& scene) {
  list.require_array("an array of joints");
  Model& model = scene.model;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonNode node = list[i];
    node.require_object("a joint object with \"type\", \"body_b\" and \"anchor\"");
    node.allow_only({"name", "type", "body_a", "body_b", "anchor", "axis", "collide"});
    const JsonNode type_node = node.at("type", "a joint type");
    JointType type;
    if (!parse_joint_type(type_node.string("a joint type"), type))
      type_node.fail("one of fixed, revolute, prismatic, cylindrical, spherical");
    const int a = node.has("body_a") ? body_named(node.at("body_a", ""), model) : -1;
    const JsonNode b_node = node.at("body_b", "the name of a body");
    const int b = body_named(b_node, model);
    if (b < 0) b_node.fail("the name of a body (body_a may be the world, body_b may not)");
    if (a == b) b_node.fail("a body other than body_a");
    const Vec3 anchor = node.at("anchor", "an anchor [x, y, z] in m").vec3("an anchor [x, y, z] in m");
    Vec3 axis = Vec3::UnitZ();
    if (auto n = node.find("axis")) {
      axis = n->vec3("an axis [x, y, z]");
      if (!(axis.norm() > 1e-12)) n->fail("a non-zero axis [x, y, z]");
    }
    Joint joint = make_joint(scene.initial, type, a, b, anchor, axis);
    joint.name = "joint" + std::to_string(i);
    if (auto n = node.find("name")) joint.name = n->string("a non-empty joint name");
    for (const Joint& other : model.joints)
      if (other.name == joint.name)
        node.at("name", "").fail("a unique joint name (\"" + joint.name + "\" is used twice)");
    const bool collide = node.has("collide") && node.at("collide", "").boolean();
    if (!collide && a >= 0) {
      add_no_collide(model.bodies[a], b);
      add_no_collide(model.bodies[b], a);
    }
    model.joints.push_back(joint);
  }
}

}  // namespace pegsim
