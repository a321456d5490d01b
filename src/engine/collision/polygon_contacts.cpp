#include "engine/collision/polygon_contacts.hpp"

#include <algorithm>
#include <cmath>

#include "engine/collision/applicability.hpp"
#include "engine/collision/closest_points.hpp"
#include "engine/collision/feasibility.hpp"

namespace pegsim {

Contact vertex_edge_contact(const PosedPolygon& V, int v_body, int v, const PosedPolygon& E,
                            int e_body, int e, const Settings& settings) {
  const Vec2 x = V.vertex(v);
  const auto [tail, head] = E.shape.edge_vertices(e);
  const Vec2 b1 = E.vertex(tail), b2 = E.vertex(head);
  const Vec2 eta = E.normal(e);
  const double psi = (x - b1).dot(eta);  // psi_n of Alg. 5, (3.7)
  // Alg. 3 on the edge: t unclamped tells whether x lies in the edge's Voronoi strip.
  const Vec2 d = b2 - b1;
  const double t = (x - b1).dot(d) / d.squaredNorm();
  const bool inside = t >= 0.0 && t <= 1.0;
  const double lateral = inside ? 0.0 : (t < 0.0 ? -t : t - 1.0) * d.norm();

  Contact c;
  c.body_a = e_body;
  c.body_b = v_body;
  c.feature_a = {FeatureKind::Edge, e};
  c.feature_b = {FeatureKind::Vertex, v};
  c.point_a = to_world3(x - psi * eta);  // (3.8)
  c.normal = to_world3(eta);
  c.gap = psi;
  c.applicability = vertex_edge_applicability(V, v, eta);  // (3.3)
  c.applicable = c.applicability >= settings.eps_theta;
  const double approach = std::max(0.0, -(V.point_velocity(x) - E.point_velocity(x)).dot(eta));
  c.feasible = vertex_edge_feasible(psi, inside, lateral, settings, approach);  // §3.3
  return c;
}

void vertex_edge_contacts(const PosedPolygon& V, int v_body, const PosedPolygon& E, int e_body,
                          const Settings& settings, std::vector<Contact>& out) {
  const double eps = settings.epsilon;
  const double reach = E.shape.bounding_radius + eps;
  for (int v = 0; v < V.shape.size(); ++v) {
    const Vec2 x = V.vertex(v);
    if ((x - E.position).squaredNorm() > reach * reach) continue;
    for (int e = 0; e < E.shape.size(); ++e) {
      const auto [tail, head] = E.shape.edge_vertices(e);
      const Vec2 b1 = E.vertex(tail), b2 = E.vertex(head);
      if (std::abs((x - b1).dot(E.normal(e))) > eps) continue;  // |x - p_b| >= |psi|
      const Vec2 d = b2 - b1;
      const Vec2 nearest = b1 + clamp01((x - b1).dot(d) / d.squaredNorm()) * d;  // Alg. 3
      if ((x - nearest).norm() > eps) continue;
      out.push_back(vertex_edge_contact(V, v_body, v, E, e_body, e, settings));
    }
  }
}

void polygon_half_plane_contacts(const PosedPolygon& poly, int poly_body,
                                 const BodyState& half_plane, int half_plane_body,
                                 const Settings& settings, std::vector<Contact>& out) {
  const Vec2 eta = half_plane_normal(half_plane);
  const Vec2 origin = in_plane(half_plane.position);
  for (int v = 0; v < poly.shape.size(); ++v) {
    const Vec2 x = poly.vertex(v);
    const double psi = eta.dot(x - origin);  // (3.7)
    if (psi > settings.epsilon) continue;
    Contact c;
    c.body_a = half_plane_body;
    c.body_b = poly_body;
    c.feature_a = {FeatureKind::HalfPlane, -1};
    c.feature_b = {FeatureKind::Vertex, v};
    c.point_a = to_world3(x - psi * eta);
    c.normal = to_world3(eta);
    c.gap = psi;
    c.applicability = vertex_edge_applicability(poly, v, eta);  // (3.3)
    c.applicable = c.applicability >= settings.eps_theta;
    c.feasible = true;  // a half-plane's Voronoi region is all of it
    out.push_back(c);
  }
}

void vertex_vertex_pairs(const PosedPolygon& A, const PosedPolygon& B, double epsilon,
                         std::vector<VertexPair>& out) {
  for (int va = 0; va < A.shape.size(); ++va) {
    const Vec2 xa = A.vertex(va);
    for (int vb = 0; vb < B.shape.size(); ++vb) {
      const double d = (B.vertex(vb) - xa).norm();
      if (d <= epsilon) out.push_back({va, vb, d});
    }
  }
}

}  // namespace pegsim
