#include "engine/geometry/minimum_translation.hpp"

#include <cmath>
#include <limits>

namespace pegsim {
namespace {

// The largest and smallest of x . d over a shape's vertices, with the vertices that give them.
struct Extent {
  double max = -std::numeric_limits<double>::infinity();
  double min = std::numeric_limits<double>::infinity();
  int arg_max = -1, arg_min = -1;

  void add(double x, int v) {
    if (x > max) {
      max = x;
      arg_max = v;
    }
    if (x < min) {
      min = x;
      arg_min = v;
    }
  }
};

Extent extent_2d(const std::vector<Vec2>& p, const Vec2& d) {
  Extent e;
  for (int v = 0; v < static_cast<int>(p.size()); ++v) e.add(p[v].dot(d), v);
  return e;
}

// x . d over the posed vertices p + R v, as d . p + (R^T d) . v: no world copy of the vertices.
Extent extent_3d(const Polytope& p, const BodyState& pose, const Vec3& d) {
  const Vec3 local = pose.orientation.conjugate() * d;
  const double shift = d.dot(pose.position);
  Extent e;
  for (int v = 0; v < static_cast<int>(p.vertices.size()); ++v)
    e.add(shift + local.dot(p.vertices[v]), v);
  return e;
}

// Keeps the shallowest candidate. Every unit d gives a separating translation of B,
// depth(d) = max_A(x . d) - min_B(x . d) along d; the least over all d is reached on a face
// normal of the Minkowski difference B - A: an outward face normal of A, the opposite of one
// of B, or in 3D a cross product of an edge of each (either sign). The shapes overlap when
// every one of these depths is positive (separating-axis theorem).
struct Best {
  MinimumTranslation& out;
  bool separated = false;

  void consider(const Vec3& d, const Extent& ea, const Extent& eb, Feature fa, Feature fb) {
    const double depth = ea.max - eb.min;
    if (depth <= 0.0) separated = true;
    if (separated || depth >= out.depth) return;
    out.depth = depth;
    out.normal = d;
    out.feature_a = fa.index >= 0 ? fa : Feature{FeatureKind::Vertex, ea.arg_max};
    out.feature_b = fb.index >= 0 ? fb : Feature{FeatureKind::Vertex, eb.arg_min};
    out.deepest_a = ea.arg_max;
    out.deepest_b = eb.arg_min;
  }
};

constexpr Feature kDeepestVertex{FeatureKind::Vertex, -1};

}  // namespace

bool polygon_minimum_translation(const std::vector<Vec2>& a, const std::vector<Vec2>& b,
                                 MinimumTranslation& out) {
  out.depth = std::numeric_limits<double>::infinity();
  Best best{out};
  for (int owner = 0; owner < 2 && !best.separated; ++owner) {
    const std::vector<Vec2>& p = owner == 0 ? a : b;
    const int n = static_cast<int>(p.size());
    for (int e = 0; e < n && !best.separated; ++e) {
      const Vec2 along = p[(e + 1) % n] - p[e];
      const Vec2 m = Vec2(along.y(), -along.x()).normalized();  // outward: CCW turned by -pi/2
      // B pushed out along A's outward normal, or against its own.
      const Vec2 d = owner == 0 ? m : Vec2(-m);
      const Feature edge{FeatureKind::Edge, e};
      best.consider(Vec3(d.x(), d.y(), 0.0), extent_2d(a, d), extent_2d(b, d),
                    owner == 0 ? edge : kDeepestVertex, owner == 1 ? edge : kDeepestVertex);
    }
  }
  return !best.separated;
}

bool polytope_minimum_translation(const Polytope& a, const BodyState& a_pose, const Polytope& b,
                                  const BodyState& b_pose, MinimumTranslation& out) {
  out.depth = std::numeric_limits<double>::infinity();
  Best best{out};
  auto axis = [&](const Vec3& d, Feature a_feature, Feature b_feature) {
    if (!best.separated)
      best.consider(d, extent_3d(a, a_pose, d), extent_3d(b, b_pose, d), a_feature, b_feature);
  };
  // B pushed out along A's outward face normals, or against its own.
  for (int f = 0; f < static_cast<int>(a.faces.size()); ++f)
    axis(a_pose.orientation * a.faces[f].normal, {FeatureKind::Face, f}, kDeepestVertex);
  for (int f = 0; f < static_cast<int>(b.faces.size()); ++f)
    axis(-(b_pose.orientation * b.faces[f].normal), kDeepestVertex, {FeatureKind::Face, f});
  for (int i = 0; i < static_cast<int>(a.edges.size()) && !best.separated; ++i) {
    const Vec3 u = a_pose.orientation * (a.vertices[a.edges[i].head] - a.vertices[a.edges[i].tail]);
    for (int j = 0; j < static_cast<int>(b.edges.size()) && !best.separated; ++j) {
      const Vec3 w =
          b_pose.orientation * (b.vertices[b.edges[j].head] - b.vertices[b.edges[j].tail]);
      const Vec3 m = u.cross(w);
      // Parallel edges span no new axis (their plane's normals are face normals already).
      if (m.norm() <= 1e-9 * u.norm() * w.norm()) continue;
      const Feature ea{FeatureKind::Edge, i}, eb{FeatureKind::Edge, j};
      axis(m.normalized(), ea, eb);
      axis(-m.normalized(), ea, eb);
    }
  }
  return !best.separated;
}

}  // namespace pegsim
