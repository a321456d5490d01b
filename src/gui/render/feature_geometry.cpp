#include "gui/render/feature_geometry.hpp"

namespace pegsim::gui {

std::vector<Vec3> feature_points(const Body& body, const BodyState& state, const Feature& feature) {
  std::vector<Vec3> out;
  const int i = feature.index;
  if (body.shape.kind == ShapeKind::Polytope) {
    const Polytope& p = *body.shape.polytope;
    auto vertex = [&](int v) { out.push_back(to_world(state, p.vertices[std::size_t(v)])); };
    if (feature.kind == FeatureKind::Vertex && i >= 0 && i < int(p.vertices.size())) vertex(i);
    if (feature.kind == FeatureKind::Edge && i >= 0 && i < int(p.edges.size())) {
      vertex(p.edges[std::size_t(i)].tail);
      vertex(p.edges[std::size_t(i)].head);
    }
    if (feature.kind == FeatureKind::Face && i >= 0 && i < int(p.faces.size()))
      for (int v : p.faces[std::size_t(i)].vertices) vertex(v);
  } else if (body.shape.kind == ShapeKind::Polygon) {
    const Polygon& p = *body.shape.polygon;
    auto vertex = [&](int v) {
      const Vec2& x = p.vertices[std::size_t(v)];
      out.push_back(to_world(state, Vec3(x.x(), x.y(), 0.0)));
    };
    if (i < 0 || i >= p.size()) return out;
    if (feature.kind == FeatureKind::Vertex) vertex(i);
    if (feature.kind == FeatureKind::Edge) {
      vertex(p.edge_vertices(i)[0]);
      vertex(p.edge_vertices(i)[1]);
    }
  }
  return out;
}

}  // namespace pegsim::gui
