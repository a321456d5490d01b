#include "gui/render/mesh_2d.hpp"

#include <cmath>
#include <numbers>

namespace pegsim::gui {

std::vector<Vec2> planar_outline(const Shape& shape, double half_width, double depth, int sides) {
  switch (shape.kind) {
    case ShapeKind::Polygon:
      return shape.polygon->vertices;
    case ShapeKind::Circle: {
      std::vector<Vec2> out;
      out.reserve(std::size_t(sides));
      for (int k = 0; k < sides; ++k) {
        const double t = 2.0 * std::numbers::pi * k / sides;
        out.emplace_back(shape.radius * std::cos(t), shape.radius * std::sin(t));
      }
      return out;
    }
    case ShapeKind::HalfPlane:
      return {Vec2(-half_width, -depth), Vec2(half_width, -depth), Vec2(half_width, 0.0),
              Vec2(-half_width, 0.0)};
    default:
      return {};
  }
}

FlatMesh flat_face(const std::vector<Vec2>& outline, double z) {
  FlatMesh m;
  for (std::size_t k = 1; k + 1 < outline.size(); ++k)
    for (const Vec2& p : {outline[0], outline[k], outline[k + 1]}) {
      m.positions.insert(m.positions.end(), {float(p.x()), float(p.y()), float(z)});
      m.normals.insert(m.normals.end(), {0.0f, 0.0f, 1.0f});
    }
  return m;
}

Sketch planar_edges(const Shape& shape, const std::vector<Vec2>& outline, double z,
                    const Rgb& color) {
  Sketch s;
  auto at = [z](const Vec2& p) { return Vec3(p.x(), p.y(), z); };
  for (std::size_t k = 0; k < outline.size(); ++k)
    s.segments.push_back({at(outline[k]), at(outline[(k + 1) % outline.size()]), color});
  if (shape.kind == ShapeKind::Circle)
    s.segments.push_back({at(Vec2::Zero()), at(Vec2(shape.radius, 0.0)), color});
  return s;
}

}  // namespace pegsim::gui
