#include "io/scene_joint.hpp"

#include <algorithm>
#include <string>

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

// A 2D scene's joints keep its bodies in the plane: revolute about z, prismatic along an
// in-plane axis [x, y] (default [1, 0]), fixed; anchors [x, y].
void planar_anchor_axis(const JsonNode& node, JointType type, const JsonNode& type_node,
                        Vec3& anchor, Vec3& axis) {
  if (type != JointType::Fixed && type != JointType::Revolute && type != JointType::Prismatic)
    type_node.fail("a 2D joint type: fixed, revolute or prismatic");
  const Vec2 a = node.at("anchor", "an anchor [x, y] in m").vec2("an anchor [x, y] in m (2D scene)");
  anchor = Vec3(a.x(), a.y(), 0.0);
  axis = Vec3::UnitZ();
  const auto n = node.find("axis");
  if (type != JointType::Prismatic) {
    if (n) n->fail("no axis: a 2D " + std::string(to_string(type)) + " joint turns about z");
    return;
  }
  axis = Vec3::UnitX();
  if (n) {
    const Vec2 d = n->vec2("an in-plane axis [x, y] (2D scene)");
    if (!(d.norm() > 1e-12)) n->fail("a non-zero axis [x, y]");
    axis = Vec3(d.x(), d.y(), 0.0);
  }
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
    Vec3 anchor, axis = Vec3::UnitZ();
    if (scene.dimension == 2) {
      planar_anchor_axis(node, type, type_node, anchor, axis);
    } else {
      anchor = node.at("anchor", "an anchor [x, y, z] in m").vec3("an anchor [x, y, z] in m");
      if (auto n = node.find("axis")) {
        axis = n->vec3("an axis [x, y, z]");
        if (!(axis.norm() > 1e-12)) n->fail("a non-zero axis [x, y, z]");
      }
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
