#include "io/scene_joint.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/kinematics/joint_rows.hpp"

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

// A bound pair [lower, upper]; null leaves that side open. The joint starts at coordinate 0
// (its frames coincide), so 0 must lie within.
JointLimit read_limit(const JsonNode& node, const char* unit, double magnitude_cap) {
  const std::string what = std::string("[lower, upper] in ") + unit +
                           " with lower <= 0 <= upper (null for an open side)";
  node.require_array(what.c_str());
  if (node.size() != 2) node.fail(what);
  JointLimit limit;
  for (std::size_t i = 0; i < 2; ++i) {
    const JsonNode bound = node[i];
    if (bound.value().is_null()) continue;
    const double v = bound.number(what.c_str());
    if (std::abs(v) > magnitude_cap) bound.fail(what + ", within [-pi, pi]");
    (i == 0 ? limit.lower : limit.upper) = v;
  }
  if (!(limit.lower <= 0.0 && 0.0 <= limit.upper)) node.fail(what);
  return limit;
}

void read_limits(const JsonNode& node, Joint& joint) {
  node.require_object("a limits object with \"angle\" and/or \"displacement\"");
  node.allow_only({"angle", "displacement"});
  if (auto n = node.find("angle")) {
    if (!has_free_angle(joint.type))
      n->fail(std::string("no angle limit: a ") + to_string(joint.type) +
              " joint has no joint angle (revolute and cylindrical joints do)");
    joint.angle_limit = read_limit(*n, "rad", M_PI);
  }
  if (auto n = node.find("displacement")) {
    if (!has_free_translation(joint.type))
      n->fail(std::string("no displacement limit: a ") + to_string(joint.type) +
              " joint does not slide (prismatic and cylindrical joints do)");
    joint.displacement_limit = read_limit(*n, "m", INFINITY);
  }
}

void read_damping(const JsonNode& node, Joint& joint) {
  node.require_object("a damping object with \"angular\" and/or \"linear\"");
  node.allow_only({"angular", "linear"});
  if (auto n = node.find("angular")) {
    if (!has_free_rotation(joint.type))
      n->fail(std::string("no angular damping: a ") + to_string(joint.type) +
              " joint does not turn (revolute, cylindrical and spherical joints do)");
    joint.angular_damping = n->non_negative("a damping coefficient >= 0 in N m s/rad");
  }
  if (auto n = node.find("linear")) {
    if (!has_free_translation(joint.type))
      n->fail(std::string("no linear damping: a ") + to_string(joint.type) +
              " joint does not slide (prismatic and cylindrical joints do)");
    joint.linear_damping = n->non_negative("a damping coefficient >= 0 in N s/m");
  }
}

// A 2D scene's joints keep its bodies in the plane: revolute about z, prismatic along an
// in-plane axis [x, y] (default [1, 0]), fixed; anchors [x, y].
void planar_anchor_axis(const JsonNode& node, JointType type, const JsonNode& type_node,
                        Vec3& anchor, Vec3& axis) {
  if (type != JointType::Fixed && type != JointType::Revolute && type != JointType::Prismatic)
    type_node.fail("a 2D joint type: fixed, revolute or prismatic");
  const Vec2 a =
      node.at("anchor", "an anchor [x, y] in m").vec2("an anchor [x, y] in m (2D scene)");
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

void add_no_collide(Body& body, int other) {
  if (std::find(body.no_collide.begin(), body.no_collide.end(), other) == body.no_collide.end())
    body.no_collide.push_back(other);
}

void read_joints(const JsonNode& list, Scene& scene) {
  list.require_array("an array of joints");
  Model& model = scene.model;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonNode node = list[i];
    node.require_object("a joint object with \"type\", \"body_b\" and \"anchor\"");
    node.allow_only(
        {"name", "type", "body_a", "body_b", "anchor", "axis", "collide", "limits", "damping"});
    const JsonNode type_node = node.at("type", "a joint type");
    JointType type;
    if (!parse_joint_type(type_node.string("a joint type"), type))
      type_node.fail("one of fixed, revolute, prismatic, cylindrical, spherical");
    const int a = node.has("body_a") ? body_named(node.at("body_a", ""), model) : -1;
    const JsonNode b_node = node.at("body_b", "the name of a body");
    const int b = body_named(b_node, model);
    if (b < 0) b_node.fail("the name of a body (body_a may be the world, body_b may not)");
    if (a == b) b_node.fail("a body other than body_a");
    // A joint holds from t = 0; a body that appears later (appear_time) cannot be jointed.
    for (int body : {a, b})
      if (body >= 0 && model.bodies[body].appear_time > 0.0)
        (body == b ? b_node : node.at("body_a", ""))
            .fail("a body present from t = 0 (\"" + model.bodies[body].name +
                  "\" has an appear_time)");
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
    if (auto n = node.find("limits")) read_limits(*n, joint);
    if (auto n = node.find("damping")) read_damping(*n, joint);
    const bool collide = node.has("collide") && node.at("collide", "").boolean();
    if (!collide && a >= 0) {
      add_no_collide(model.bodies[a], b);
      add_no_collide(model.bodies[b], a);
    }
    model.joints.push_back(joint);
  }
}

}  // namespace pegsim
