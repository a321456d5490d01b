#include "engine/collision/applicability.hpp"

#include <algorithm>
#include <limits>

namespace pegsim {

double vertex_face_applicability(const PosedPolytope& body, int v, const Vec3& eta) {
  const Vec3 x = body.vertex(v);
  double appl = std::numeric_limits<double>::infinity();
  for (int k : body.shape.vertex_neighbours[v])
    appl = std::min(appl, eta.dot((body.vertex(k) - x).normalized()));
  return appl;
}

double vertex_edge_applicability(const PosedPolygon& body, int v, const Vec2& eta) {
  const Vec2 x = body.vertex(v);
  const Vec2 before = body.vertex(body.shape.previous(v)) - x;
  const Vec2 after = body.vertex(body.shape.next(v)) - x;
  return std::min(eta.dot(before.normalized()), eta.dot(after.normalized()));
}

EdgeTangents edge_tangents(const PosedPolytope& body, int e) {
  const Polytope::Edge& E = body.shape.edges[e];
  const Vec3 d = body.edge_vector(e);
  return {body.normal(E.face_left).cross(d).normalized(),
          d.cross(body.normal(E.face_right)).normalized()};
}

double edge_edge_applicability(const EdgeTangents& a, const EdgeTangents& b, const Vec3& n) {
  const double d[4] = {n.dot(a.t1), n.dot(a.t2), -n.dot(b.t1), -n.dot(b.t2)};
  const double lo = std::min({d[0], d[1], d[2], d[3]});
  const double hi = std::max({d[0], d[1], d[2], d[3]});
  return std::max(lo, -hi);  // min(-d) == -max(d)
}

}  // namespace pegsim
