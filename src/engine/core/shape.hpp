// Collision shapes, expressed in the body frame (origin at the centre of mass).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// A closed convex polyhedron with full topology (thesis §3.1).
// Faces are convex polygons listed counter-clockwise when seen from outside, so their
// normals (3.1) point outward. Every edge knows its two faces: `face_left` is the face in
// which the edge runs tail -> head counter-clockwise, `face_right` the other one.
struct Polytope {
  struct Edge {
    int tail = 0, head = 0;
    int face_left = 0, face_right = 0;
  };
  struct Face {
    std::vector<int> vertices;  // CCW seen from outside
    Vec3 normal;                // outward unit normal
    double offset = 0.0;        // normal . x = offset on the face plane
  };

  std::vector<Vec3> vertices;
  std::vector<Edge> edges;
  std::vector<Face> faces;
  std::vector<std::vector<int>> vertex_neighbours;  // omega(v): vertices joined to v by an edge
  std::vector<std::vector<int>> vertex_faces;       // faces incident to each vertex
  std::vector<std::vector<int>> vertex_edges;       // edges incident to each vertex
  double bounding_radius = 0.0;                     // max |v| over the vertices
};

enum class ShapeKind { Sphere, Plane, Polytope };

// Plane: the half-space {x : normal . x <= 0} in the body frame, normal = +z of the body.
// Its body is static; it is oriented by the body's pose.
struct Shape {
  ShapeKind kind = ShapeKind::Sphere;
  double radius = 0.0;                         // Sphere
  std::shared_ptr<const Polytope> polytope;    // Polytope (shared: immutable)

  static Shape sphere(double r) { return Shape{ShapeKind::Sphere, r, nullptr}; }
  static Shape plane() { return Shape{ShapeKind::Plane, 0.0, nullptr}; }
  static Shape convex(std::shared_ptr<const Polytope> p) {
    return Shape{ShapeKind::Polytope, 0.0, std::move(p)};
  }
};

const char* to_string(ShapeKind kind);

}  // namespace pegsim
