#include "engine/collision/narrow_phase_2d.hpp"

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

// A planar shape (a body's, or one part of a compound body) placed in the world.
struct Posed {
  const Shape& shape;
  const BodyState& pose;
  int body;
};

void circle_circle(const Posed& a, const Posed& b, const Settings& settings,
                   std::vector<Contact>& out) {
  const double ra = a.shape.radius, rb = b.shape.radius;
  const Vec2 pa = in_plane(a.pose.position);
  const Vec2 d = in_plane(b.pose.position) - pa;
  const double dist = d.norm();
  const double gap = dist - ra - rb;
  if (gap > settings.epsilon) return;
  const Vec2 n = dist > 0.0 ? Vec2(d / dist) : Vec2::UnitX();  // concentric: any direction
  out.push_back(smooth_contact(a.body, b.body, kCircle, kCircle, pa + ra * n, n, gap));
}

void circle_half_plane(const Posed& half_plane, const Posed& circle, const Settings& settings,
                       std::vector<Contact>& out) {
  const Vec2 n = half_plane_normal(half_plane.pose);
  const Vec2 c = in_plane(circle.pose.position);
  const double height = n.dot(c - in_plane(half_plane.pose.position));
  const double gap = height - circle.shape.radius;
  if (gap > settings.epsilon) return;
  out.push_back(
      smooth_contact(half_plane.body, circle.body, kHalfPlane, kCircle, c - height * n, n, gap));
}

// The nearest point of the polygon's boundary to the circle's centre c. Outside, the normal
// runs from that point to c; inside, it is the normal of the least penetrated edge.
void circle_polygon(const Posed& poly, const Posed& circle, const Settings& settings,
                    std::vector<Contact>& out) {
  const PosedPolygon P(*poly.shape.polygon, poly.pose);
  const Vec2 c = in_plane(circle.pose.position);
  const double r = circle.shape.radius;
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
    out.push_back(smooth_contact(poly.body, circle.body, {FeatureKind::Edge, top}, kCircle,
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
  out.push_back(smooth_contact(poly.body, circle.body, feature, kCircle, nearest,
                               (c - nearest) / dist, dist - r));
}

}  // namespace

void collide_2d(const Model& model, const State& state, const Settings& settings, int a, int b,
                std::vector<Contact>& out) {
  collide_shapes_2d(model.bodies[a].shape, state.bodies[a], a, model.bodies[b].shape,
                    state.bodies[b], b, settings, out);
}

void collide_shapes_2d(const Shape& shape_a, const BodyState& pose_a, int a, const Shape& shape_b,
                       const BodyState& pose_b, int b, const Settings& settings,
                       std::vector<Contact>& out) {
  using K = ShapeKind;
  const auto convex = [](K k) { return k == K::Polygon || k == K::Circle || k == K::HalfPlane; };
  if (!convex(shape_a.kind) || !convex(shape_b.kind)) return;
  const Posed A{shape_a, pose_a, a}, B{shape_b, pose_b, b};
  // Order the pair so that `first` has the lower kind (Polygon < Circle < HalfPlane).
  const bool swap = static_cast<int>(shape_a.kind) > static_cast<int>(shape_b.kind);
  const Posed& first = swap ? B : A;
  const Posed& second = swap ? A : B;
  const K k1 = first.shape.kind, k2 = second.shape.kind;
  if (k1 == K::Polygon && k2 == K::Polygon) {
    const PosedPolygon PA(*shape_a.polygon, pose_a);
    const PosedPolygon PB(*shape_b.polygon, pose_b);
    vertex_edge_contacts(PA, a, PB, b, settings, out);  // vertices of a on edges of b
    vertex_edge_contacts(PB, b, PA, a, settings, out);  // vertices of b on edges of a
  } else if (k1 == K::Polygon && k2 == K::Circle) {
    circle_polygon(first, second, settings, out);
  } else if (k1 == K::Polygon && k2 == K::HalfPlane) {
    polygon_half_plane_contacts(PosedPolygon(*first.shape.polygon, first.pose), first.body,
                                second.pose, second.body, settings, out);
  } else if (k1 == K::Circle && k2 == K::Circle) {
    circle_circle(A, B, settings, out);
  } else if (k1 == K::Circle && k2 == K::HalfPlane) {
    circle_half_plane(second, first, settings, out);
  }
  // half-plane - half-plane: never a contact
}

}  // namespace pegsim
