// A small world builder for the collision tests: bodies with poses, and the signed distance of
// a world point from a body's surface.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>

#include "../about_z.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/geometry/builders.hpp"

namespace pegsim::test {

struct CollisionWorld {
  Model model;
  State state;
  Settings settings;

  int add(Shape shape, const Vec3& position, const Quat& orientation = Quat::Identity(),
          bool is_static = false) {
    Body b;
    b.name = "body" + std::to_string(model.bodies.size());
    b.shape = std::move(shape);
    b.is_static = is_static;
    model.bodies.push_back(b);
    BodyState s;
    s.position = position;
    s.orientation = orientation;
    state.bodies.push_back(s);
    return static_cast<int>(model.bodies.size()) - 1;
  }
  int add_cube(double edge, const Vec3& position, const Quat& orientation = Quat::Identity(),
               bool is_static = false) {
    return add(Shape::convex(std::make_shared<const Polytope>(make_cube(edge))), position,
               orientation, is_static);
  }
  int add_plane(const Vec3& position = Vec3::Zero(), const Quat& orientation = Quat::Identity()) {
    return add(Shape::plane(), position, orientation, true);
  }
  int add_sphere(double r, const Vec3& position) { return add(Shape::sphere(r), position); }

  // Signed distance of x from the surface of body i (exact outside a sphere/plane; for a
  // polytope the largest face-plane distance, which is 0 exactly on the surface).
  double surface_distance(int i, const Vec3& x) const {
    const BodyState& s = state.bodies[i];
    const Vec3 local = s.orientation.conjugate() * (x - s.position);
    const Shape& shape = model.bodies[i].shape;
    switch (shape.kind) {
      case ShapeKind::Sphere:
        return local.norm() - shape.radius;
      case ShapeKind::Plane:
        return local.z();
      case ShapeKind::Polytope: {
        double d = -std::numeric_limits<double>::infinity();
        for (const Polytope::Face& f : shape.polytope->faces)
          d = std::max(d, f.normal.dot(local) - f.offset);
        return d;
      }
      case ShapeKind::Circle:
        return local.head<2>().norm() - shape.radius;
      case ShapeKind::HalfPlane:
        return local.y();
      case ShapeKind::Polygon: {
        double d = -std::numeric_limits<double>::infinity();
        for (int e = 0; e < shape.polygon->size(); ++e)
          d = std::max(d,
                       shape.polygon->normals[e].dot(local.head<2>() - shape.polygon->vertices[e]));
        return d;
      }
      case ShapeKind::Compound:
        break;  // not used by these tests
    }
    return 0.0;
  }
};

}  // namespace pegsim::test
