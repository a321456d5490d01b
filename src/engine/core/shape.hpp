// Collision shapes, expressed in the body frame (origin at the centre of mass).
#pragma once

#include <array>
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

// A convex polygon in the body's x-y plane (thesis §3.5), for planar (2D) bodies. Vertices
// run counter-clockwise seen from +z; edge e runs from vertex e to vertex e + 1 (mod n), so
// vertex v joins edge v - 1 (ending at v) and edge v (leaving v), the e_a1 = (v_{a-1}, v_a),
// e_a2 = (v_a, v_{a+1}) of Alg. 10. Outward edge normals rotate the edge by -pi/2 (§3.5).
struct Polygon {
  std::vector<Vec2> vertices;    // CCW, strictly convex
  std::vector<Vec2> normals;     // outward unit normal of each edge
  double bounding_radius = 0.0;  // max |v| over the vertices

  int size() const { return static_cast<int>(vertices.size()); }
  int next(int v) const { return v + 1 == size() ? 0 : v + 1; }
  int previous(int v) const { return v == 0 ? size() - 1 : v - 1; }
  // The two vertices of edge e, tail then head.
  std::array<int, 2> edge_vertices(int e) const { return {e, next(e)}; }
  // The two edges of vertex v: the one ending at v, then the one leaving it.
  std::array<int, 2> vertex_edges(int v) const { return {previous(v), v}; }
};

// Kinds below Polygon are 3D shapes; Polygon, Circle and HalfPlane are planar (2D) shapes,
// in the body's x-y plane, whose bodies move in the world x-y plane (3 DOF). Compound is a
// non-convex body made of convex parts, 3D or planar (last, so that stored kind numbers never
// change).
enum class ShapeKind { Sphere, Plane, Polytope, Polygon, Circle, HalfPlane, Compound };

struct Compound;

// The smooth convex body {x : sum_i |x_i / a_i|^p <= 1} (a superquadric: p = 2 the ellipsoid,
// large p a rounded box; in the plane the superellipse over x and y) that a Polytope or
// Polygon shape tessellates. The geometrically implicit formulation (seed 001) uses this
// surface itself; every other formulation collides the tessellation, which lies inside the
// surface and at most `sagitta` from it.
struct SmoothShape {
  Vec3 semi_axes = Vec3::Ones();  // a_i, m (planar: the z entry is unused)
  double exponent = 2.0;          // p >= 2
  double sagitta = 0.0;           // max distance of the surface outside the tessellation, m
};

// Plane: the half-space {x : normal . x <= 0} in the body frame, normal = +z of the body.
// HalfPlane: the 2D half-plane {x : normal . x <= 0}, normal = +y of the body.
// Their bodies are static; they are oriented by the body's pose.
struct Shape {
  ShapeKind kind = ShapeKind::Sphere;
  double radius = 0.0;                       // Sphere, Circle
  std::shared_ptr<const Polytope> polytope;  // Polytope (shared: immutable)
  std::shared_ptr<const Polygon> polygon;    // Polygon (shared: immutable)
  std::shared_ptr<const Compound> compound;  // Compound (shared: immutable)
  // Polytope, Polygon: the smooth surface they tessellate, if any (shared: immutable).
  std::shared_ptr<const SmoothShape> smooth = nullptr;

  static Shape sphere(double r) { return Shape{ShapeKind::Sphere, r, nullptr, nullptr, nullptr}; }
  static Shape plane() { return Shape{ShapeKind::Plane, 0.0, nullptr, nullptr, nullptr}; }
  static Shape convex(std::shared_ptr<const Polytope> p) {
    return Shape{ShapeKind::Polytope, 0.0, std::move(p), nullptr, nullptr};
  }
  static Shape convex_polygon(std::shared_ptr<const Polygon> p) {
    return Shape{ShapeKind::Polygon, 0.0, nullptr, std::move(p), nullptr};
  }
  static Shape circle(double r) { return Shape{ShapeKind::Circle, r, nullptr, nullptr, nullptr}; }
  static Shape half_plane() { return Shape{ShapeKind::HalfPlane, 0.0, nullptr, nullptr, nullptr}; }
  static Shape compound_of(std::shared_ptr<const Compound> c) {
    return Shape{ShapeKind::Compound, 0.0, nullptr, nullptr, std::move(c)};
  }

  // True for polygons, circles, half-planes and compounds of polygons and circles.
  bool planar() const;
};

// A non-convex body as a union of overlapping convex parts (thesis §4.5, Fig. 4.11): every
// part is a Sphere or a Polytope (3D), or every part a Polygon or a Circle (planar: placed at
// z = 0, turned about z only), placed by its pose in the body frame. Contact is found and
// modelled per part (PEG on each convex part independently); a contact whose point on this
// body lies inside another part is not on the union's surface and is dropped.
struct CompoundPart {
  Shape shape;                          // Sphere, Polytope, Polygon or Circle, in the part's frame
  Vec3 position = Vec3::Zero();         // part frame origin in the body frame
  Quat orientation = Quat::Identity();  // part frame -> body frame
};

struct Compound {
  std::vector<CompoundPart> parts;
  double bounding_radius = 0.0;  // max distance of the union from the body origin
  bool planar = false;           // parts are polygons and circles
};

inline bool Shape::planar() const {
  return kind == ShapeKind::Polygon || kind == ShapeKind::Circle || kind == ShapeKind::HalfPlane ||
         (kind == ShapeKind::Compound && compound && compound->planar);
}

const char* to_string(ShapeKind kind);

}  // namespace pegsim
