#include "gui/render/mesh_data.hpp"

#include <cmath>

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

FlatMesh flat_mesh(const VisualMesh::Part& part) {
  FlatMesh m;
  m.positions.reserve(3 * part.corners.size());
  m.normals.reserve(3 * part.normals.size());
  for (std::size_t i = 0; i < part.corners.size(); ++i) {
    for (int k = 0; k < 3; ++k) m.positions.push_back(float(part.corners[i][k]));
    for (int k = 0; k < 3; ++k) m.normals.push_back(float(part.normals[i][k]));
  }
  if (part.texture && part.uv.size() == part.corners.size())
    for (const Vec2& t : part.uv) m.uv.insert(m.uv.end(), {float(t.x()), float(t.y())});
  return m;
}

void ColoredVertices::add(const Vec3& p, const Rgb& c) {
  positions.insert(positions.end(), {float(p.x()), float(p.y()), float(p.z())});
  colors.insert(colors.end(), c.begin(), c.end());
}

Sketch feature_edges(const Polytope& polytope, const Rgb& color, double min_angle) {
  Sketch out;
  const double lift = 1e-2 * polytope.bounding_radius;
  for (const Polytope::Edge& e : polytope.edges) {
    const Vec3& left = polytope.faces[std::size_t(e.face_left)].normal;
    const Vec3& right = polytope.faces[std::size_t(e.face_right)].normal;
    if (left.dot(right) > std::cos(min_angle)) continue;
    const Vec3 out_of = (left + right).normalized() * lift;
    out.segments.push_back({polytope.vertices[std::size_t(e.tail)] + out_of,
                            polytope.vertices[std::size_t(e.head)] + out_of, color});
  }
  return out;
}

ColoredVertices sketch_lines(const Sketch& sketch) {
  ColoredVertices out;
  for (const auto& s : sketch.segments) {
    out.add(s.a, s.color);
    out.add(s.b, s.color);
  }
  return out;
}

}  // namespace pegsim::gui
