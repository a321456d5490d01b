#include "engine/collision/planar_narrow_phase.hpp"

#include <cmath>
#include <limits>

#include "engine/collision/closest_points.hpp"
#include "engine/collision/polygon_contacts.hpp"

namespace pegsim {
namespace {

constexpr Feature kCircle{FeatureKind::Circle, -1};
constexpr Feature kHalfPlane{FeatureKind::HalfPlane, -1};

// Smooth features: APPL = 1, applicable and feasible.
Contact smooth_contact(int a, int b, Feature fa, Feature fb, const Vec2& point_a,
                       const Vec2& normal, double gap) {
  Contact c;
  c.body_a = a;
  c.body_b = b;
  c.feature_a = fa;
  c.feature_b = fb;
  c.point_a = to_world3(point_a);
  c.normal = to_world3(normal);
  c.gap = gap;
  return c;
}

void circle_circle(const Model& model, const State& state, const Settings& settings, int a,
                   int b, std::vector<Contact>& out) {
  const double ra = model.bodies[a].shape.radius, rb = model.bodies[b].shape.radius;
  const Vec2 pa = in_plane(state.bodies[a].position);
  const Vec2 d = in_plane(state.bodies[b].position) - pa;
  const double dist = d.norm();
  const double gap = dist - ra - rb;
  if (gap > settings.epsilon) return;
  const Vec2 n = dist > 0.0 ? Vec2(d / dist) : Vec2::UnitX();  // concentric: any direction
  out.push_back(smooth_contact(a, b, kCircle, kCircle, pa + ra * n, n, gap));
}

void circle_half_plane(const Model& model, const State& state, const Settings& settings,
                       int half_plane, int circle, std::vector<Contact>& out) {
  const Vec2 n = half_plane_normal(state.bodies[half_plane]);
  const Vec2 c = in_plane(state.bodies[circle].position);
  const double height = n.dot(c - in_plane(state.bodies[half_plane].position));
  const double gap = height - model.bodies[circle].shape.radius;
  if (gap > settings.epsilon) return;
  out.push_back(smooth_contact(half_plane, circle, kHalfPlane, kCircle, c - height * n, n, gap));
}

// The nearest point of the polygon's boundary to the circle's centre c. Outside, the normal
// runs from that point to c; inside, it is the normal of the least penetrated edge.
void circle_polygon(const Model& model, const State& state, const Settings& settings, int poly,
                    int circle, std::vector<Contact>& out) {
  const PosedPolygon P(*model.bodies[poly].shape.polygon, state.bodies[poly]);
  const Vec2 c = in_plane(state.bodies[circle].position);
  const double r = model.bodies[circle].shape.radius;
  int top = 0;
  double top_psi = -std::numeric_limits<double>::infinity();
  for (int e = 0; e < P.shape.size(); ++e) {
    const double psi = (c - P.vertex(e)).dot(P.normal(e));  // (3.7)
    if (psi > top_psi) {
      top_psi = psi;
      top = e;
    }
  }
  if (top_psi - r > settings.epsilon) return;
  if (top_psi <= 0.0) {
    const Vec2 n = P.normal(top);
    out.push_back(smooth_contact(poly, circle, {FeatureKind::Edge, top}, kCircle,
                                 c - top_psi * n, n, top_psi - r));
    return;
  }
  Feature feature;
  Vec2 nearest = Vec2::Zero();
  double best_d2 = std::numeric_limits<double>::infinity();
  for (int e = 0; e < P.shape.size(); ++e) {
    const auto [tail, head] = P.shape.edge_vertices(e);
    const Vec2 b1 = P.vertex(tail), d = P.vertex(head) - b1;
    if ((c - b1).dot(P.normal(e)) <= 0.0) continue;  // an edge seen from behind is never nearest
    const double t = clamp01((c - b1).dot(d) / d.squaredNorm());  // Alg. 3
    const Vec2 q = b1 + t * d;
    const double d2 = (c - q).squaredNorm();
    if (d2 >= best_d2) continue;
    best_d2 = d2;
    nearest = q;
    feature = t <= 0.0   ? Feature{FeatureKind::Vertex, tail}
              : t >= 1.0 ? Feature{FeatureKind::Vertex, head}
                         : Feature{FeatureKind::Edge, e};
  }
  const double dist = std::sqrt(best_d2);
  if (dist - r > settings.epsilon) return;
  out.push_back(
      smooth_contact(poly, circle, feature, kCircle, nearest, (c - nearest) / dist, dist - r));
}

}  // namespace

void collide_planar(const Model& model, const State& state, const Settings& settings, int a,
                    int b, std::vector<Contact>& out) {
  const Shape& sa = model.bodies[a].shape;
  const Shape& sb = model.bodies[b].shape;
  if (!sa.planar() || !sb.planar()) return;
  // Order the pair so that `first` has the lower kind (Polygon < Circle < HalfPlane).
  const bool swap = static_cast<int>(sa.kind) > static_cast<int>(sb.kind);
  const int first = swap ? b : a, second = swap ? a : b;
  const ShapeKind k1 = model.bodies[first].shape.kind, k2 = model.bodies[second].shape.kind;
  using K = ShapeKind;
  if (k1 == K::Polygon && k2 == K::Polygon) {
    const PosedPolygon A(*sa.polygon, state.bodies[a]);
    const PosedPolygon B(*sb.polygon, state.bodies[b]);
    vertex_edge_contacts(A, a, B, b, settings, out);  // vertices of a on edges of b
    vertex_edge_contacts(B, b, A, a, settings, out);  // vertices of b on edges of a
  } else if (k1 == K::Polygon && k2 == K::Circle) {
    circle_polygon(model, state, settings, first, second, out);
  } else if (k1 == K::Polygon && k2 == K::HalfPlane) {
    polygon_half_plane_contacts(PosedPolygon(*model.bodies[first].shape.polygon,
                                             state.bodies[first]),
                                first, state.bodies[second], second, settings, out);
  } else if (k1 == K::Circle && k2 == K::Circle) {
    circle_circle(model, state, settings, a, b, out);
  } else if (k1 == K::Circle && k2 == K::HalfPlane) {
    circle_half_plane(model, state, settings, second, first, out);
  }
  // half-plane - half-plane: never a contact
}

}  // namespace pegsim
