#include "engine/collision/closest_points.hpp"

#include <limits>

namespace pegsim {

SegmentPoint point_segment(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0.0 ? clamp01((c - a).dot(ab) / len2) : 0.0;
  return {t, a + t * ab};
}

SegmentSegment segment_segment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a <= 0.0 && e <= 0.0) {
    // both segments are points
  } else if (a <= 0.0) {
    t = clamp01(f / e);
  } else {
    const double c = d1.dot(r);
    if (e <= 0.0) {
      s = clamp01(-c / a);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;
      s = denom != 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = clamp01(-c / a);
      } else if (t > 1.0) {
        t = 1.0;
        s = clamp01((b - c) / a);
      }
    }
  }
  return {s, t, p1 + s * d1, p2 + t * d2};
}

FacePoint closest_on_face(const PosedPolytope& body, int f, const Vec3& x) {
  const std::vector<int>& loop = body.shape.faces[f].vertices;
  const Vec3 n = body.normal(f);
  const Vec3 projection = x - body.plane_distance(f, x) * n;
  const int m = static_cast<int>(loop.size());

  bool inside = true;
  for (int i = 0; i < m && inside; ++i) {
    const Vec3 vi = body.vertex(loop[i]), vj = body.vertex(loop[(i + 1) % m]);
    inside = (vj - vi).cross(projection - vi).dot(n) >= 0.0;  // left of every CCW edge
  }
  if (inside) return {projection, {FeatureKind::Face, f}, true};

  FacePoint best{x, {}, false};
  double best_d2 = std::numeric_limits<double>::infinity();
  for (int i = 0; i < m; ++i) {
    const int u = loop[i], w = loop[(i + 1) % m];
    const SegmentPoint sp = point_segment(body.vertex(u), body.vertex(w), x);
    const double d2 = (x - sp.point).squaredNorm();
    if (d2 >= best_d2) continue;
    best_d2 = d2;
    best.point = sp.point;
    if (sp.t <= 0.0)
      best.feature = {FeatureKind::Vertex, u};
    else if (sp.t >= 1.0)
      best.feature = {FeatureKind::Vertex, w};
    else
      best.feature = {FeatureKind::Edge, body.edge_between(u, w)};
  }
  return best;
}

}  // namespace pegsim
