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

  // Each world vertex once per pass: an edge's head is the next edge's tail.
  const Vec3 first = body.vertex(loop[0]);
  bool inside = true;
  Vec3 vi = first;
  for (int i = 0; i < m && inside; ++i) {
    const Vec3 vj = i + 1 < m ? body.vertex(loop[i + 1]) : first;
    inside = (vj - vi).cross(projection - vi).dot(n) >= 0.0;  // left of every CCW edge
    vi = vj;
  }
  if (inside) return {projection, {FeatureKind::Face, f}, true};

  FacePoint best{x, {}, false};
  double best_d2 = std::numeric_limits<double>::infinity();
  Vec3 tail = first;
  for (int i = 0; i < m; ++i) {
    const int u = loop[i], w = loop[(i + 1) % m];
    const Vec3 head = i + 1 < m ? body.vertex(w) : first;
    const SegmentPoint sp = point_segment(tail, head, x);
    tail = head;
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
