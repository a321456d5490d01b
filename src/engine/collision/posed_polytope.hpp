// A polytope placed in the world by its body's pose: world vertices, edges and face planes
// computed on demand, so that the narrow phase needs no scratch buffers.
#pragma once

#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct PosedPolytope {
  const Polytope& shape;
  Mat3 rotation;
  Vec3 position;
  Vec3 velocity, angular_velocity;  // of the body at the start of the step (world)

  PosedPolytope(const Polytope& p, const BodyState& s)
      : shape(p),
        rotation(s.orientation.toRotationMatrix()),
        position(s.position),
        velocity(s.velocity),
        angular_velocity(s.angular_velocity) {}

  // Velocity of the body's material point at world point x.
  Vec3 point_velocity(const Vec3& x) const {
    return velocity + angular_velocity.cross(x - position);
  }

  Vec3 vertex(int v) const { return position + rotation * shape.vertices[v]; }
  // Outward unit normal of face f, (3.1).
  Vec3 normal(int f) const { return rotation * shape.faces[f].normal; }
  // The world point x in the body's frame.
  Vec3 local(const Vec3& x) const { return rotation.transpose() * (x - position); }
  // Signed distance from the plane of face f (> 0 outside) of the point y in the body's frame.
  double local_plane_distance(int f, const Vec3& y) const {
    return shape.faces[f].normal.dot(y) - shape.faces[f].offset;
  }
  // Signed distance of the world point x from the plane of face f (> 0 outside).
  double plane_distance(int f, const Vec3& x) const { return local_plane_distance(f, local(x)); }
  // e = v_head - v_tail (§3.1).
  Vec3 edge_vector(int e) const {
    const Polytope::Edge& E = shape.edges[e];
    return rotation * (shape.vertices[E.head] - shape.vertices[E.tail]);
  }
  // Index of the edge joining vertices u and w, or -1.
  int edge_between(int u, int w) const {
    for (int e : shape.vertex_edges[u]) {
      const Polytope::Edge& E = shape.edges[e];
      if ((E.tail == u && E.head == w) || (E.tail == w && E.head == u)) return e;
    }
    return -1;
  }
};

}  // namespace pegsim
