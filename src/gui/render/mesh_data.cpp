#include "gui/render/mesh_data.hpp"

#include <cmath>
#include <numbers>

namespace pegsim::gui {

FlatMesh flat_mesh(const Polytope& polytope) {
  FlatMesh m;
  auto push = [](std::vector<float>& v, const Vec3& p) {
    v.push_back(float(p.x()));
    v.push_back(float(p.y()));
    v.push_back(float(p.z()));
  };
  for (const Polytope::Face& f : polytope.faces) {
    // Faces are convex and CCW from outside: a fan keeps the winding outward.
    for (std::size_t k = 1; k + 1 < f.vertices.size(); ++k) {
      for (int idx : {f.vertices[0], f.vertices[k], f.vertices[k + 1]}) {
        push(m.positions, polytope.vertices[std::size_t(idx)]);
        push(m.normals, f.normal);
      }
    }
  }
  return m;
}

void ColoredVertices::add(const Vec3& p, const Rgb& c) {
  positions.insert(positions.end(), {float(p.x()), float(p.y()), float(p.z())});
  colors.insert(colors.end(), c.begin(), c.end());
}

ColoredVertices sketch_lines(const Sketch& sketch) {
  ColoredVertices out;
  for (const auto& s : sketch.segments) {
    out.add(s.a, s.color);
    out.add(s.b, s.color);
  }
  for (const auto& a : sketch.arrows) {
    const Vec3 d = a.to - a.from;
    const double len = d.norm();
    if (len <= 0.0) continue;
    out.add(a.from, a.color);
    out.add(a.to - std::min(a.head, len) * d / len, a.color);  // shaft stops at the head
  }
  return out;
}

ColoredVertices sketch_solids(const Sketch& sketch) {
  ColoredVertices out;
  constexpr int kSides = 10;
  for (const auto& a : sketch.arrows) {
    const Vec3 d = a.to - a.from;
    const double len = d.norm();
    if (len <= 0.0) continue;
    const Vec3 axis = d / len;
    const double head = std::min(a.head, len);
    const Vec3 base = a.to - head * axis;
    const double r = 0.35 * head;
    const Vec3 u = any_perpendicular(axis), v = axis.cross(u);
    for (int k = 0; k < kSides; ++k) {
      const double t0 = 2.0 * std::numbers::pi * k / kSides;
      const double t1 = 2.0 * std::numbers::pi * (k + 1) / kSides;
      const Vec3 p0 = base + r * (std::cos(t0) * u + std::sin(t0) * v);
      const Vec3 p1 = base + r * (std::cos(t1) * u + std::sin(t1) * v);
      out.add(p0, a.color);
      out.add(p1, a.color);
      out.add(a.to, a.color);  // side
      out.add(p1, a.color);
      out.add(p0, a.color);
      out.add(base, a.color);  // cap
    }
  }
  for (const auto& m : sketch.markers) {
    const Vec3 axes[3] = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()};
    for (int sx : {-1, 1})
      for (int sy : {-1, 1})
        for (int sz : {-1, 1}) {
          const Vec3 a = m.at + sx * m.size * axes[0], b = m.at + sy * m.size * axes[1],
                     c = m.at + sz * m.size * axes[2];
          // Outward winding: flip when the octant has an odd number of negative signs.
          if (sx * sy * sz > 0) {
            out.add(a, m.color);
            out.add(b, m.color);
            out.add(c, m.color);
          } else {
            out.add(a, m.color);
            out.add(c, m.color);
            out.add(b, m.color);
          }
        }
  }
  return out;
}

}  // namespace pegsim::gui
