#include "io/run_header.hpp"

#include <chrono>
#include <ctime>

#include "engine/dynamics/implicit_stage.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/solvers/solver.hpp"
#include "io/run_file_error.hpp"

namespace pegsim {
namespace {

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

RunHeader make_run_header(const Scene& scene, const Model& model, const Settings& settings,
                          const std::string& program) {
  RunHeader h;
  h.program = program;
  h.created = utc_now();
  h.scene_name = scene.name;
  h.dimension = scene.dimension;
  h.scene_json = scene.source;
  h.scene_directory = scene.file.empty() ? std::string() : scene.file.parent_path().string();
  h.settings = settings;
  h.solver_names = solver_names();
  h.solver_names.emplace_back(kImplicitSolver);  // the geometrically implicit formulation's
  for (const Body& b : model.bodies) {
    RunBody rb;
    rb.name = b.name;
    rb.kind = b.shape.kind;
    rb.radius = b.shape.radius;
    if (b.shape.kind == ShapeKind::Polytope && b.shape.polytope) {
      rb.vertices = b.shape.polytope->vertices;
      for (const Polytope::Face& f : b.shape.polytope->faces) rb.faces.push_back(f.vertices);
    }
    if (b.shape.kind == ShapeKind::Polygon && b.shape.polygon) {
      rb.faces.emplace_back();
      for (const Vec2& v : b.shape.polygon->vertices) {
        rb.faces.back().push_back(static_cast<int>(rb.vertices.size()));
        rb.vertices.emplace_back(v.x(), v.y(), 0.0);
      }
    }
    if (b.shape.kind == ShapeKind::Compound && b.shape.compound) {
      for (const CompoundPart& p : b.shape.compound->parts) {
        RunPart rp;
        rp.kind = p.shape.kind;
        rp.radius = p.shape.radius;
        rp.position = p.position;
        rp.orientation = p.orientation;
        if (p.shape.polytope) {
          rp.vertices = p.shape.polytope->vertices;
          for (const Polytope::Face& f : p.shape.polytope->faces) rp.faces.push_back(f.vertices);
        }
        if (p.shape.polygon) {  // as a polygon body: vertices (x, y, 0), one face 0..n-1
          rp.faces.emplace_back();
          for (const Vec2& v : p.shape.polygon->vertices) {
            rp.faces.back().push_back(static_cast<int>(rp.vertices.size()));
            rp.vertices.emplace_back(v.x(), v.y(), 0.0);
          }
        }
        rb.parts.push_back(std::move(rp));
      }
    }
    rb.color = b.color;
    rb.visible = b.visible;
    rb.is_static = b.is_static;
    rb.mass = b.mass;
    rb.inertia = b.inertia;
    rb.mu = b.mu;
    rb.no_collide = b.no_collide;
    rb.appear_time = b.appear_time;
    rb.shell = b.shell;
    rb.torsion_radius = b.torsion_radius;
    rb.friction_ellipse = b.friction_ellipse;
    rb.support = b.support;
    rb.layer = b.layer;
    rb.visual = b.visual;
    h.bodies.push_back(std::move(rb));
  }
  h.joints = model.joints;
  for (const PdJointSpec& pd : model.controllers.pd_joints)
    if (pd.implicit) h.drives.push_back(pd);
  return h;
}

Model build_model(const RunHeader& header, const std::string& origin) {
  Model m;
  for (std::size_t i = 0; i < header.bodies.size(); ++i) {
    const RunBody& rb = header.bodies[i];
    Body b;
    b.name = rb.name;
    switch (rb.kind) {
      case ShapeKind::Sphere:
        b.shape = Shape::sphere(rb.radius);
        break;
      case ShapeKind::Plane:
        b.shape = Shape::plane();
        break;
      case ShapeKind::Polytope:
        try {
          b.shape =
              Shape::convex(std::make_shared<const Polytope>(make_polytope(rb.vertices, rb.faces)));
        } catch (const GeometryError& e) {
          throw RunFileError(origin + ": /bodies: body " + std::to_string(i) + " (" + rb.name +
                             "): stored polytope is invalid: " + e.what());
        }
        break;
      case ShapeKind::Polygon: {
        std::vector<Vec2> loop;
        for (const Vec3& v : rb.vertices) loop.push_back(v.head<2>());
        try {
          b.shape = Shape::convex_polygon(std::make_shared<const Polygon>(make_polygon(loop)));
        } catch (const GeometryError& e) {
          throw RunFileError(origin + ": /bodies: body " + std::to_string(i) + " (" + rb.name +
                             "): stored polygon is invalid: " + e.what());
        }
        break;
      }
      case ShapeKind::Circle:
        b.shape = Shape::circle(rb.radius);
        break;
      case ShapeKind::HalfPlane:
        b.shape = Shape::half_plane();
        break;
      case ShapeKind::Compound:
        try {
          std::vector<CompoundPart> parts;
          for (const RunPart& rp : rb.parts) {
            CompoundPart p{Shape::sphere(rp.radius), rp.position, rp.orientation};
            if (rp.kind == ShapeKind::Polytope) {
              p.shape = Shape::convex(
                  std::make_shared<const Polytope>(make_polytope(rp.vertices, rp.faces)));
            } else if (rp.kind == ShapeKind::Polygon) {
              std::vector<Vec2> loop;
              for (const Vec3& v : rp.vertices) loop.push_back(v.head<2>());
              p.shape = Shape::convex_polygon(std::make_shared<const Polygon>(make_polygon(loop)));
            } else if (rp.kind == ShapeKind::Circle) {
              p.shape = Shape::circle(rp.radius);
            } else if (rp.kind != ShapeKind::Sphere)
              throw GeometryError(std::string("a part of kind ") + to_string(rp.kind));
            parts.push_back(std::move(p));
          }
          // Stored already centred: rebuilt as it was, not re-centred.
          b.shape =
              Shape::compound_of(std::make_shared<const Compound>(make_compound(parts, false)));
        } catch (const GeometryError& e) {
          throw RunFileError(origin + ": /bodies: body " + std::to_string(i) + " (" + rb.name +
                             "): stored compound is invalid: " + e.what());
        }
        break;
    }
    b.color = rb.color;
    b.visible = rb.visible;
    b.is_static = rb.is_static;
    b.mass = rb.mass;
    b.inertia = rb.inertia;
    b.mu = rb.mu;
    b.no_collide = rb.no_collide;
    b.appear_time = rb.appear_time;
    b.shell = rb.shell;
    b.torsion_radius = rb.torsion_radius;
    b.friction_ellipse = rb.friction_ellipse;
    b.support = rb.support;
    b.layer = rb.layer;
    b.visual = rb.visual;
    m.bodies.push_back(std::move(b));
  }
  for (const Joint& j : header.joints)
    if (j.body_a >= static_cast<int>(m.bodies.size()) ||
        j.body_b >= static_cast<int>(m.bodies.size()) || j.body_b < 0)
      throw RunFileError(origin + ": /joints: joint \"" + j.name + "\" names a body out of range");
  m.joints = header.joints;
  for (const PdJointSpec& d : header.drives)
    if (d.joint < 0 || d.joint >= static_cast<int>(m.joints.size()))
      throw RunFileError(origin + ": /joint_drives/joint: joint " + std::to_string(d.joint) +
                         " out of range (" + std::to_string(m.joints.size()) + " joints)");
  m.controllers.pd_joints = header.drives;
  return m;
}

}  // namespace pegsim
