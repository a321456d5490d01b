#include "io/urdf_file.hpp"

#include <cmath>
#include <cstdio>
#include <mutex>
#include <numbers>
#include <optional>
#include <utility>

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/geometry/triangle_mesh.hpp"
#include "io/mesh_file.hpp"
#include "io/package_uri.hpp"
#include "io/rigid_placement.hpp"
#include "io/scene.hpp"
#include "io/text_file.hpp"

namespace pegsim {
namespace {

// Sides of the prisms that stand for URDF cylinders: collided with (inside the cylinder, at
// most r (1 - cos(pi / 24)) = 0.0086 r from it) and drawn.
constexpr int kCylinderSides = 24;
constexpr int kDrawnSides = 48;

std::string number(double x) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", x);
  return s;
}

RigidPlacement placement_of(const urdf::Pose& p) {
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  return {Quat(w, x, y, z).normalized(), Vec3(p.position.x, p.position.y, p.position.z)};
}

// urdfdom reports through console_bridge; the last error it logs becomes the message. The
// handler is process-wide, so reads are serialised.
class UrdfLog : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR) last_error = text;
  }
  std::string last_error;
};

urdf::ModelInterfaceSharedPtr parse(const std::string& text, std::string& error) {
  static std::mutex one_at_a_time;
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  UrdfLog log;
  console_bridge::useOutputHandler(&log);
  urdf::ModelInterfaceSharedPtr model;
  try {
    model = urdf::parseURDF(text);
  } catch (const std::exception& e) {
    log.last_error = e.what();
  }
  console_bridge::restorePreviousOutputHandler();
  error = log.last_error;
  return model;
}

class Reader {
 public:
  Reader(const std::filesystem::path& file, const std::vector<std::filesystem::path>& package_path)
      : file_(file), search_(package_search_path(package_path, file)) {}

  UrdfRobot read() {
    const std::string text = read_text_file(file_, "a readable URDF file");
    if (file_.extension() == ".xacro" || text.find("<xacro:") != std::string::npos)
      fail(
          "a xacro file (macros, not URDF): expand it first with ROS's xacro tool, "
          "`xacro FILE.urdf.xacro > robot.urdf`, and open robot.urdf");
    std::string error;
    const urdf::ModelInterfaceSharedPtr model = parse(text, error);
    // urdfdom may log an error (a malformed <inertial>) and still return what it read.
    if (!model || !error.empty())
      fail("a URDF <robot> (" + (error.empty() ? "urdfdom could not read it" : error) + ")");
    model_ = model;
    robot_.name = model->getName();
    const urdf::LinkConstSharedPtr root = model->getRoot();
    if (!root) fail("a URDF <robot> with a root link");
    visit(*root, new_body(root->name), RigidPlacement{});
    for (std::size_t b = 0; b < robot_.bodies.size(); ++b) finish_mass(b);
    return std::move(robot_);
  }

 private:
  // The first and second moments of a body's links' masses about its frame's origin.
  struct Moments {
    double mass = 0.0;
    Vec3 first = Vec3::Zero();
    Mat3 inertia = Mat3::Zero();  // about the origin
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw SceneError(file_.string() + ": expected " + what);
  }

  // A body for the link `name` and the links to be welded to it; its index.
  int new_body(const std::string& name) {
    robot_.bodies.emplace_back();
    robot_.bodies.back().name = name;
    moments_.emplace_back();
    return static_cast<int>(robot_.bodies.size()) - 1;
  }

  // Adds `link`, placed by `in_body` in body `b`'s frame, then its children: a fixed child
  // into the same body, a moving one as a new body behind a joint.
  void visit(const urdf::Link& link, int b, const RigidPlacement& in_body) {
    robot_.bodies[b].links.push_back(link.name);
    add_inertial(link, b, in_body);
    add_geometry(link, b, in_body);
    for (const urdf::JointSharedPtr& j : link.child_joints) {
      urdf::LinkConstSharedPtr child = model_->getLink(j->child_link_name);
      const RigidPlacement origin = in_body * placement_of(j->parent_to_joint_origin_transform);
      if (j->type == urdf::Joint::FIXED) {
        visit(*child, b, origin);
        continue;
      }
      robot_.joints.push_back(joint(*j, b, origin));
      robot_.joints.back().child = new_body(child->name);
      visit(*child, robot_.joints.back().child, RigidPlacement{});
    }
  }

  UrdfJoint joint(const urdf::Joint& j, int parent, const RigidPlacement& origin) {
    const std::string where = "joint '" + j.name + "'";
    UrdfJoint out;
    out.name = j.name;
    out.parent = parent;
    out.rotation = origin.rotation;
    out.position = origin.position;
    switch (j.type) {
      case urdf::Joint::REVOLUTE:
        out.type = JointType::Revolute;
        break;
      case urdf::Joint::CONTINUOUS:
        out.type = JointType::Revolute;
        out.continuous = true;
        break;
      case urdf::Joint::PRISMATIC:
        out.type = JointType::Prismatic;
        break;
      case urdf::Joint::PLANAR:
        fail("no planar joint (" + where +
             "): pegsim's joints are revolute, continuous, prismatic and fixed; model it as two "
             "prismatic joints and a revolute one through two massless links");
      case urdf::Joint::FLOATING:
        fail("no floating joint (" + where +
             "): a free body needs no joint; for a free robot base give the robot \"base\": "
             "\"floating\" in a scene");
      default:
        fail("a known joint type (" + where + ")");
    }
    const Vec3 axis(j.axis.x, j.axis.y, j.axis.z);
    if (!(axis.norm() > 0.0) || !axis.allFinite()) fail("a non-zero <axis> (" + where + ")");
    out.axis = axis.normalized();
    if (j.limits && !out.continuous) {
      if (!(j.limits->lower <= j.limits->upper)) fail("<limit> lower <= upper (" + where + ")");
      out.limit = {j.limits->lower, j.limits->upper};
      // urdfdom reads a revolute joint without bounds as [0, 0]: a joint that cannot move is
      // meant as fixed, not as a stop pinning it.
      if (j.limits->lower == j.limits->upper)
        robot_.warnings.push_back(where + ": <limit> lower = upper = " + number(j.limits->lower) +
                                  ": the joint is held there (type=\"continuous\" turns freely)");
    }
    if (j.dynamics) {
      out.damping = j.dynamics->damping;
      if (!(out.damping >= 0.0)) fail("<dynamics damping> >= 0 (" + where + ")");
      if (j.dynamics->friction > 0.0)
        robot_.warnings.push_back(where +
                                  ": <dynamics friction> (dry joint friction) is not modelled");
    }
    if (j.mimic)
      robot_.warnings.push_back(where + " mimics joint '" + j.mimic->joint_name +
                                "': pegsim moves it on its own (a mimic coupling is not modelled)");
    return out;
  }

  void add_inertial(const urdf::Link& link, int b, const RigidPlacement& in_body) {
    if (!link.inertial) return;
    const urdf::Inertial& i = *link.inertial;
    const std::string where = "link '" + link.name + "' <inertial>";
    if (!(i.mass >= 0.0) || !std::isfinite(i.mass)) fail("a mass >= 0 (" + where + ")");
    if (i.mass == 0.0) return;
    Mat3 inertia;
    inertia << i.ixx, i.ixy, i.ixz, i.ixy, i.iyy, i.iyz, i.ixz, i.iyz, i.izz;
    if (!inertia.allFinite()) fail("a finite inertia (" + where + ")");
    const RigidPlacement frame = in_body * placement_of(i.origin);
    const Mat3 R = frame.rotation.toRotationMatrix();
    const Vec3 c = frame.position;
    Moments& m = moments_[b];
    m.mass += i.mass;
    m.first += i.mass * c;
    m.inertia += R * inertia * R.transpose() +
                 i.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  }

  void finish_mass(std::size_t b) {
    const Moments& m = moments_[b];
    UrdfBody& body = robot_.bodies[b];
    body.mass = m.mass;
    if (m.mass == 0.0) return;
    body.com = m.first / m.mass;
    const Vec3 c = body.com;
    body.inertia = m.inertia - m.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
    body.inertia = 0.5 * (body.inertia + body.inertia.transpose());
  }

  void add_geometry(const urdf::Link& link, int b, const RigidPlacement& in_body) {
    UrdfBody& body = robot_.bodies[b];
    for (const urdf::CollisionSharedPtr& c : link.collision_array)
      if (c && c->geometry)
        body.parts.push_back(
            part(*c->geometry, in_body * placement_of(c->origin), "link '" + link.name + "'"));
    const bool stand_in = link.collision_array.empty();
    for (const urdf::VisualSharedPtr& v : link.visual_array) {
      if (!v || !v->geometry) continue;
      const RigidPlacement where = in_body * placement_of(v->origin);
      const std::string element = "link '" + link.name + "' <visual>";
      if (stand_in) {
        body.parts.push_back(part(*v->geometry, where, element));
        body.parts_from_visual = true;
      }
      std::array<float, 4> color{0.0f, 0.0f, 0.0f, 0.0f};
      if (v->material && v->material->texture_filename.empty()) {
        const urdf::Color& k = v->material->color;
        color = {k.r, k.g, k.b, k.a};
      }
      for (VisualMesh::Part& p : look(*v->geometry, where, element)) {
        if (color[3] > 0.0f) p.color = color;
        body.visual.push_back(std::move(p));
      }
    }
  }

  std::filesystem::path mesh_path(const urdf::Mesh& m, const std::string& element) const {
    if (auto found = resolve_package_uri(m.filename, file_, search_)) return *found;
    std::string searched;
    for (const auto& dir : search_) searched += (searched.empty() ? "" : ", ") + dir.string();
    fail("an existing mesh file (" + element + ": \"" + m.filename + "\" was not found; searched " +
         searched +
         "; give the folder holding the package with --package-path DIR or a scene's "
         "\"package_path\")");
  }

  // The mesh file, read once per file and scale however many elements name it (a link's
  // <visual> and <collision> often do).
  MeshFile mesh(const urdf::Mesh& m, const std::string& element) {
    const std::filesystem::path path = mesh_path(m, element);
    const Vec3 scale(m.scale.x, m.scale.y, m.scale.z);
    for (const auto& [key, file] : meshes_)
      if (key.first == path && key.second == scale) return file;
    try {
      MeshFile file = read_mesh_file(path, scale);
      for (const std::string& w : file.warnings)
        robot_.warnings.push_back(element + " \"" + m.filename + "\": " + w);
      meshes_.emplace_back(std::make_pair(path, scale), file);
      return file;
    } catch (const SceneError& e) {
      fail("a readable mesh (" + element + ": " + e.what() + ")");
    }
  }

  // A collision element as a convex part of the body, placed by `where`.
  CompoundPart part(const urdf::Geometry& g, const RigidPlacement& where,
                    const std::string& element) {
    CompoundPart out{Shape{}, where.position, where.rotation};
    try {
      switch (g.type) {
        case urdf::Geometry::SPHERE:
          out.shape = Shape::sphere(static_cast<const urdf::Sphere&>(g).radius);
          if (!(out.shape.radius > 0.0)) fail("a sphere radius > 0 (" + element + ")");
          return out;
        case urdf::Geometry::BOX: {
          const urdf::Vector3& d = static_cast<const urdf::Box&>(g).dim;
          out.shape = Shape::convex(std::make_shared<const Polytope>(make_box(d.x, d.y, d.z)));
          return out;
        }
        case urdf::Geometry::CYLINDER: {
          const auto& c = static_cast<const urdf::Cylinder&>(g);
          out.shape = Shape::convex(
              std::make_shared<const Polytope>(make_cylinder(kCylinderSides, c.radius, c.length)));
          return out;
        }
        case urdf::Geometry::MESH:
          return mesh_hull(static_cast<const urdf::Mesh&>(g), where, element);
      }
    } catch (const GeometryError& e) {
      fail("a solid shape (" + element + ": " + e.what() + ")");
    }
    fail("a box, cylinder, sphere or mesh (" + element + ")");
  }

  // A mesh collides as its convex hull, re-centred on the hull's centroid.
  CompoundPart mesh_hull(const urdf::Mesh& m, const RigidPlacement& where,
                         const std::string& element) {
    MeshFile file = mesh(m, element);
    std::vector<Vec3> points;
    for (const TriangleMesh& p : file.parts)
      points.insert(points.end(), p.vertices.begin(), p.vertices.end());
    Polytope hull = make_convex_hull(points);
    const MassProperties h = polytope_mass_properties(hull);
    if (close_solid(file).empty()) {
      const double solid = mesh_mass_properties(file.parts).volume;
      if (solid > 0.0 && h.volume > (1.0 + kHullExcess) * solid)
        robot_.warnings.push_back(element + " \"" + m.filename + "\": its convex hull holds " +
                                  std::to_string(int(std::round(100.0 * (h.volume / solid - 1)))) +
                                  " % more than the mesh (it collides as convex); split it into "
                                  "convex parts, one <collision> each");
    }
    translate(hull, h.centroid);
    return {Shape::convex(std::make_shared<const Polytope>(std::move(hull))), where * h.centroid,
            where.rotation};
  }

  // A visual element as drawn triangles, placed by `where`.
  std::vector<VisualMesh::Part> look(const urdf::Geometry& g, const RigidPlacement& where,
                                     const std::string& element) {
    std::vector<VisualMesh::Part> parts;
    if (g.type == urdf::Geometry::MESH) {
      parts = mesh(static_cast<const urdf::Mesh&>(g), element).visual;
    } else if (g.type == urdf::Geometry::SPHERE) {
      parts.push_back(sphere_surface(static_cast<const urdf::Sphere&>(g).radius));
    } else if (g.type == urdf::Geometry::BOX) {
      const urdf::Vector3& d = static_cast<const urdf::Box&>(g).dim;
      parts.push_back(flat_surface(make_box(d.x, d.y, d.z)));
    } else if (g.type == urdf::Geometry::CYLINDER) {
      const auto& c = static_cast<const urdf::Cylinder&>(g);
      parts.push_back(cylinder_surface(c.radius, c.length));
    }
    for (VisualMesh::Part& p : parts) {
      for (Vec3& x : p.corners) x = where * x;
      for (Vec3& n : p.normals) n = where.rotation * n;
    }
    return parts;
  }

  static VisualMesh::Part flat_surface(const Polytope& p) {
    VisualMesh::Part out;
    for (const Polytope::Face& f : p.faces)
      for (std::size_t k = 1; k + 1 < f.vertices.size(); ++k)
        for (int v : {f.vertices[0], f.vertices[k], f.vertices[k + 1]}) {
          out.corners.push_back(p.vertices[v]);
          out.normals.push_back(f.normal);
        }
    return out;
  }

  // Smooth sides (normals radial), flat caps.
  static VisualMesh::Part cylinder_surface(double r, double length) {
    VisualMesh::Part out;
    const double z = length / 2;
    auto corner = [&](const Vec3& x, const Vec3& n) {
      out.corners.push_back(x);
      out.normals.push_back(n);
    };
    for (int k = 0; k < kDrawnSides; ++k) {
      const double t0 = 2 * std::numbers::pi * k / kDrawnSides;
      const double t1 = 2 * std::numbers::pi * (k + 1) / kDrawnSides;
      const Vec3 n0(std::cos(t0), std::sin(t0), 0), n1(std::cos(t1), std::sin(t1), 0);
      const Vec3 a0 = r * n0, a1 = r * n1, up(0, 0, z);
      corner(a0 - up, n0), corner(a1 - up, n1), corner(a1 + up, n1);
      corner(a0 - up, n0), corner(a1 + up, n1), corner(a0 + up, n0);
      corner(up, Vec3::UnitZ()), corner(a0 + up, Vec3::UnitZ()), corner(a1 + up, Vec3::UnitZ());
      corner(-up, -Vec3::UnitZ()), corner(a1 - up, -Vec3::UnitZ()), corner(a0 - up, -Vec3::UnitZ());
    }
    return out;
  }

  static VisualMesh::Part sphere_surface(double r) {
    VisualMesh::Part out;
    const int rings = kDrawnSides / 2;
    auto at = [&](int i, int k) {
      const double polar = std::numbers::pi * i / rings;
      const double azimuth = 2 * std::numbers::pi * k / kDrawnSides;
      return Vec3(std::sin(polar) * std::cos(azimuth), std::sin(polar) * std::sin(azimuth),
                  std::cos(polar));
    };
    for (int i = 0; i < rings; ++i)
      for (int k = 0; k < kDrawnSides; ++k) {
        const Vec3 a = at(i, k), b = at(i + 1, k), c = at(i + 1, k + 1), d = at(i, k + 1);
        for (const Vec3& n : {a, b, c, a, c, d}) {
          out.corners.push_back(r * n);
          out.normals.push_back(n);
        }
      }
    return out;
  }

  std::filesystem::path file_;
  std::vector<std::filesystem::path> search_;
  urdf::ModelInterfaceSharedPtr model_;
  UrdfRobot robot_;
  std::vector<Moments> moments_;
  std::vector<std::pair<std::pair<std::filesystem::path, Vec3>, MeshFile>> meshes_;
};

}  // namespace

UrdfRobot read_urdf(const std::filesystem::path& file,
                    const std::vector<std::filesystem::path>& package_path) {
  return Reader(file, package_path).read();
}

}  // namespace pegsim
