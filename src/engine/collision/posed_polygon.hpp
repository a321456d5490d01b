// A polygon placed in the world x-y plane by its body's pose (a rotation about z): world
// vertices and edge normals computed on demand, so that the narrow phase needs no buffers.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// The in-plane part of a world vector, and a plane vector as a world vector (z = 0).
inline Vec2 in_plane(const Vec3& x) {
  return x.head<2>();
}
inline Vec3 to_world3(const Vec2& x) {
  return Vec3(x.x(), x.y(), 0.0);
}

struct PosedPolygon {
  const Polygon& shape;
  Mat2 rotation;
  Vec2 position;
  Vec2 velocity;
  double angular_velocity;  // about z

  PosedPolygon(const Polygon& p, const BodyState& s)
      : shape(p),
        rotation(s.orientation.toRotationMatrix().topLeftCorner<2, 2>()),
        position(in_plane(s.position)),
        velocity(in_plane(s.velocity)),
        angular_velocity(s.angular_velocity.z()) {}

  // Velocity of the body's material point at plane point x.
  Vec2 point_velocity(const Vec2& x) const {
    const Vec2 r = x - position;
    return velocity + angular_velocity * Vec2(-r.y(), r.x());
  }

  Vec2 vertex(int v) const { return position + rotation * shape.vertices[v]; }
  // Outward unit normal of edge e (§3.5).
  Vec2 normal(int e) const { return rotation * shape.normals[e]; }
};

// The polygon's vertices in the plane, counter-clockwise, into `out` (its buffer reused).
inline void world_outline(const Polygon& p, const BodyState& s, std::vector<Vec2>& out) {
  const PosedPolygon posed(p, s);
  out.clear();
  for (int v = 0; v < p.size(); ++v) out.push_back(posed.vertex(v));
}

}  // namespace pegsim
