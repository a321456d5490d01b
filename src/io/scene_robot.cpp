#include "io/scene_robot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <string>

#include <Eigen/Cholesky>
#include <nlohmann/json.hpp>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polytope.hpp"
#include "io/rigid_placement.hpp"
#include "io/scene_body.hpp"
#include "io/scene_joint.hpp"
#include "io/scene_limits.hpp"
#include "io/urdf_file.hpp"

namespace pegsim {
namespace {

// A link without an <inertial> that moves takes the mass of its geometry at this density
// (kg/m^3, water's; scene bodies' default).
constexpr double kDefaultDensity = 1000.0;
// Links drawn in their files' colours; where a file gives none, this light grey.
constexpr std::array<float, 4> kLinkColor{0.82f, 0.82f, 0.84f, 1.0f};
constexpr int kSphereRings = 12;

struct RobotPlacement {
  std::string prefix;
  RigidPlacement base;
  bool fixed = true;
  bool self_collision = false;
  bool gravity_compensation = false;
};

// The joint's motion at position q: a turn about its axis or a slide along it.
RigidPlacement motion(const UrdfJoint& j, double q) {
  if (j.type == JointType::Prismatic) return {Quat::Identity(), q * j.axis};
  return {Quat(Eigen::AngleAxisd(q, j.axis)), Vec3::Zero()};
}

// The robot's moving joint named by a key of `map` (an object keyed by joint names).
std::size_t joint_named(const JsonNode& map, const std::string& name, const UrdfRobot& robot) {
  for (std::size_t k = 0; k < robot.joints.size(); ++k)
    if (robot.joints[k].name == name) return k;
  std::string names;
  for (const UrdfJoint& x : robot.joints) names += (names.empty() ? "" : ", ") + x.name;
  map.at(name, "").fail("the name of a moving joint of robot '" + robot.name + "' (" + names + ")");
}

// Joint positions: the scene's, each within its joint's limits, else 0 or the nearer limit.
std::vector<double> joint_positions(const std::optional<JsonNode>& given, const UrdfRobot& robot) {
  std::vector<double> q(robot.joints.size(), 0.0);
  for (std::size_t k = 0; k < robot.joints.size(); ++k)
    q[k] = std::clamp(0.0, robot.joints[k].limit.lower, robot.joints[k].limit.upper);
  if (!given) return q;
  given->require_object("an object of joint positions {\"joint name\": rad or m}");
  for (const auto& item : given->value().items()) {
    const std::size_t k = joint_named(*given, item.key(), robot);
    const JsonNode n = given->at(item.key(), "");
    const JointLimit& limit = robot.joints[k].limit;
    const double v = n.number("a joint position in rad or m");
    if (!(v >= limit.lower && v <= limit.upper))
      n.fail("a position within the joint's limits [" + std::to_string(limit.lower) + ", " +
             std::to_string(limit.upper) + "]");
    q[k] = v;
  }
  return q;
}

// "joint_damping": {"joint name": c} in place of the file's <dynamics damping>.
void override_damping(const JsonNode& given, UrdfRobot& robot) {
  given.require_object("an object of joint dampings {\"joint name\": N m s/rad or N s/m}");
  for (const auto& item : given.value().items()) {
    const std::size_t k = joint_named(given, item.key(), robot);
    robot.joints[k].damping =
        given.at(item.key(), "").non_negative("a damping >= 0 in N m s/rad or N s/m");
  }
}

// A convex polytope placed by (rotation, offset): the same faces, moved vertices.
Polytope placed(const Polytope& p, const Quat& rotation, const Vec3& offset) {
  std::vector<Vec3> vertices;
  for (const Vec3& v : p.vertices) vertices.push_back(rotation * v + offset);
  std::vector<std::vector<int>> faces;
  for (const Polytope::Face& f : p.faces) faces.push_back(f.vertices);
  return make_polytope(std::move(vertices), std::move(faces));
}

// Spheres among other parts: a compound's spheres may not overlap its other parts (no volume
// formula for a ball cut by them), and a robot's often do (a head on a body), so there a sphere
// collides as a polytope of 12 rings inside it, within 2 % of its radius.
std::vector<CompoundPart> spheres_as_polytopes(std::vector<CompoundPart> parts) {
  if (parts.size() < 2) return parts;
  for (CompoundPart& p : parts)
    if (p.shape.kind == ShapeKind::Sphere)
      p.shape = Shape::convex(
          std::make_shared<const Polytope>(make_sphere_polytope(kSphereRings, p.shape.radius)));
  return parts;
}

// The body's collision shape about its centre of mass `com` (link frame).
Shape collision_shape(std::vector<CompoundPart> parts, const Vec3& com) {
  parts = spheres_as_polytopes(std::move(parts));
  for (CompoundPart& p : parts) p.position -= com;
  if (parts.size() == 1 && parts[0].shape.kind == ShapeKind::Polytope)
    return Shape::convex(std::make_shared<const Polytope>(
        placed(*parts[0].shape.polytope, parts[0].orientation, parts[0].position)));
  if (parts.size() == 1 && parts[0].position.isZero(0.0)) return parts[0].shape;
  return Shape::compound_of(
      std::make_shared<const Compound>(make_compound(std::move(parts), false)));
}

MassProperties geometry_mass(const std::vector<CompoundPart>& parts) {
  if (parts.size() == 1 && parts[0].shape.kind == ShapeKind::Sphere) {
    MassProperties m = sphere_mass_properties(parts[0].shape.radius);
    m.centroid = parts[0].position;
    return m;
  }
  return compound_mass_properties(make_compound(spheres_as_polytopes(parts), false));
}

void place_robot(const UrdfRobot& robot, const std::vector<double>& q, const RobotPlacement& at,
                 const JsonNode& node, Scene& scene) {
  Model& model = scene.model;
  const std::size_t n = robot.bodies.size();
  // Link frames in the world.
  std::vector<RigidPlacement> pose(n);
  pose[0] = at.base;
  for (std::size_t k = 0; k < robot.joints.size(); ++k) {
    const UrdfJoint& j = robot.joints[k];
    pose[j.child] = pose[j.parent] * RigidPlacement{j.rotation, j.position} * motion(j, q[k]);
  }
  const JsonNode file = node.at("file", "");
  auto fail_link = [&](const std::string& link, const std::string& what) {
    file.fail(what + " (link '" + link + "' of " + file.value().get<std::string>() + ")");
  };

  // Bodies: each at its centre of mass, turned as its link frame. A fixed root without
  // geometry is the world itself.
  std::vector<int> index(n, -1);
  std::vector<Vec3> com(n, Vec3::Zero());
  for (std::size_t b = 0; b < n; ++b) {
    const UrdfBody& u = robot.bodies[b];
    const bool is_static = b == 0 && at.fixed;
    if (is_static && u.parts.empty()) continue;
    if (u.parts.empty()) fail_link(u.name, "collision or visual geometry on every moving link");
    Body body;
    body.name = at.prefix + u.name;
    if (model.body_index(body.name) >= 0)
      node.fail("robots whose links' names differ from every other body's (\"" + body.name +
                "\" is taken; give the robot a \"name_prefix\")");
    body.is_static = is_static;
    body.color = kLinkColor;
    if (u.mass > 0.0) {
      body.mass = u.mass;
      body.inertia = u.inertia;
      com[b] = u.com;
      if (!is_static && Eigen::LLT<Mat3>(u.inertia).info() != Eigen::Success)
        fail_link(u.name, "a positive definite inertia");
    } else if (!is_static) {
      MassProperties g;
      try {
        g = geometry_mass(u.parts);
      } catch (const GeometryError& e) {
        fail_link(u.name,
                  std::string("an <inertial>, or geometry with a volume (") + e.what() + ")");
      }
      body.mass = kDefaultDensity * g.volume;
      body.inertia = kDefaultDensity * g.inertia;
      com[b] = g.centroid;
      scene.warnings.push_back("robot '" + robot.name + "': link '" + u.name +
                               "' has no <inertial>: its mass is its geometry's at 1000 kg/m^3 (" +
                               std::to_string(body.mass) + " kg)");
    }
    try {
      body.shape = collision_shape(u.parts, com[b]);
    } catch (const GeometryError& e) {
      fail_link(u.name, std::string("collision parts that make a compound (") + e.what() + ")");
    }
    if (u.parts_from_visual)
      scene.warnings.push_back("robot '" + robot.name + "': link '" + u.name +
                               "' has no <collision>: it collides as its <visual> geometry");
    if (!u.visual.empty()) {
      auto visual = std::make_shared<VisualMesh>();
      visual->parts = u.visual;
      for (VisualMesh::Part& p : visual->parts)
        for (Vec3& c : p.corners) c -= com[b];
      body.visual = std::move(visual);
    }
    BodyState state;
    state.position = pose[b] * com[b];
    state.orientation = pose[b].rotation;
    // As for scene bodies (docs/scene-format.md, "Limits").
    if (!(state.position.cwiseAbs().maxCoeff() <= kMaxStateMagnitude))
      fail_link(u.name, "a link placed within +-1e9 m of the origin");
    index[b] = static_cast<int>(model.bodies.size());
    model.bodies.push_back(std::move(body));
    scene.initial.bodies.push_back(state);
  }
  for (const std::string& w : robot.warnings)
    scene.warnings.push_back("robot '" + robot.name + "': " + w);

  // Joints: frames that coincide at the angle_offset, the middle of a revolute joint's range,
  // so that the whole range lies within the measured angle's (offset - pi, offset + pi].
  for (std::size_t k = 0; k < robot.joints.size(); ++k) {
    const UrdfJoint& u = robot.joints[k];
    Joint j;
    j.name = at.prefix + u.name;
    for (const Joint& other : model.joints)
      if (other.name == j.name)
        node.fail("robots whose joints' names differ from every other joint's (\"" + j.name +
                  "\" is taken; give the robot a \"name_prefix\")");
    j.type = u.type;
    j.body_a = index[u.parent];
    j.body_b = index[u.child];
    const Quat align = Quat::FromTwoVectors(Vec3::UnitZ(), u.axis);
    if (j.body_a < 0) {
      j.anchor_a = pose[u.parent] * u.position;
      j.frame_a = pose[u.parent].rotation * u.rotation * align;
    } else {
      j.anchor_a = u.position - com[u.parent];
      j.frame_a = u.rotation * align;
    }
    JointLimit limit = u.limit;
    if (u.type == JointType::Revolute && limit.any()) {
      if (limit.upper - limit.lower >= 2.0 * std::numbers::pi) {
        scene.warnings.push_back(
            "robot '" + robot.name + "': joint '" + u.name +
            "': a range of a full turn or more is not a stop; it turns freely");
        limit = {};
      } else {
        j.angle_offset = 0.5 * (limit.lower + limit.upper);
      }
    }
    j.anchor_b = -com[u.child];
    j.frame_b = Quat(Eigen::AngleAxisd(-j.angle_offset, u.axis)) * align;
    (u.type == JointType::Prismatic ? j.displacement_limit : j.angle_limit) = limit;
    (u.type == JointType::Prismatic ? j.linear_damping : j.angular_damping) = u.damping;
    model.joints.push_back(j);
    if (j.body_a >= 0) {
      add_no_collide(model.bodies[j.body_a], j.body_b);
      add_no_collide(model.bodies[j.body_b], j.body_a);
    }
  }
  if (!at.self_collision)
    for (int a : index)
      for (int b : index)
        if (a >= 0 && b >= 0 && a != b) add_no_collide(model.bodies[a], b);

  // Gravity compensation on a fixed base: each link's weight cancelled at its centre of mass,
  // whose generalized force is exactly the joint torques tau = g(q) of the gravity it cancels.
  if (at.gravity_compensation)
    for (int b : index)
      if (b >= 0 && !model.bodies[b].is_static) {
        WrenchSpec w;
        w.body = b;
        w.force = -model.bodies[b].mass * scene.settings.gravity;
        model.controllers.wrenches.push_back(w);
      }
}

}  // namespace

void read_robots(const JsonNode& list, const std::filesystem::path& base_dir,
                 const std::vector<std::filesystem::path>& package_path, Scene& scene) {
  list.require_array("an array of robots");
  if (scene.dimension != 3) list.fail("no robots in a 2D scene");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const JsonNode node = list[i];
    node.require_object("a robot object with \"file\"");
    node.allow_only({"file", "name_prefix", "position", "orientation", "base", "joint_positions",
                     "joint_damping", "self_collision", "gravity_compensation", "package_path"});
    const char* what = "a path to a URDF file";
    const JsonNode file_node = node.at("file", what);
    std::filesystem::path file = file_node.string(what);
    if (file.is_relative()) file = base_dir / file;
    std::vector<std::filesystem::path> search = package_path;
    if (auto n = node.find("package_path")) {
      const char* dirs = "an array of folders holding the robot's packages";
      n->require_array(dirs);
      for (std::size_t k = 0; k < n->size(); ++k) {
        std::filesystem::path dir = (*n)[k].string(dirs);
        search.push_back(dir.is_relative() ? base_dir / dir : dir);
      }
    }
    // Its errors name the robot file and the element, which is what the user must fix.
    UrdfRobot robot = read_urdf(file, search);
    RobotPlacement at;
    if (auto n = node.find("name_prefix")) at.prefix = n->string("a name prefix");
    if (auto n = node.find("position"))
      at.base.position = n->vec3("a position [x, y, z] in m of the root link's frame");
    if (auto n = node.find("orientation")) at.base.rotation = parse_orientation(*n);
    if (auto n = node.find("base")) {
      const char* base = "\"fixed\" (the root link is static) or \"floating\" (it moves freely)";
      const std::string b = n->string(base);
      if (b != "fixed" && b != "floating") n->fail(base);
      at.fixed = b == "fixed";
    }
    if (auto n = node.find("self_collision")) at.self_collision = n->boolean();
    if (auto n = node.find("gravity_compensation")) {
      at.gravity_compensation = n->boolean();
      if (at.gravity_compensation && !at.fixed)
        n->fail("false on a floating base (cancelling its links' weight would lift it)");
    }
    if (auto n = node.find("joint_damping")) override_damping(*n, robot);
    const std::vector<double> q = joint_positions(node.find("joint_positions"), robot);
    place_robot(robot, q, at, node, scene);
  }
}

std::string robot_scene_text(const std::filesystem::path& robot_file) {
  nlohmann::json scene = {
      {"name", robot_file.stem().string()},
      {"description", "The robot " + robot_file.filename().string() +
                          " on a fixed base, every joint at 0 (or its nearest limit), under "
                          "gravity, without drives."},
      {"duration", 5.0},
      {"robots", nlohmann::json::array({{{"file", robot_file.filename().string()}}})}};
  return scene.dump(2) + "\n";
}

}  // namespace pegsim
