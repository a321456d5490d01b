#include "gui/render/mesh_data.hpp"

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
  return out;
}

}  // namespace pegsim::gui
