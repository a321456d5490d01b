// Interpenetration measured independently of any contact model: the penetration depth of
// every pair of bodies that may collide, the shortest translation that separates them.
// For two convex polytopes it is the smallest overlap of their projections on the axes of the
// separating-axis theorem (both bodies' face normals and the cross products of their edges),
// which is exact: the Minkowski difference's faces have those normals. It sees an edge
// pushed through another body's edge, which the depth of the vertices alone does not.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/collision/closest_points.hpp"
#include "engine/collision/posed_polytope.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim::test {

inline void project(const PosedPolytope& P, const Vec3& axis, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (int v = 0; v < static_cast<int>(P.shape.vertices.size()); ++v) {
    const double s = axis.dot(P.vertex(v));
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
}

// Separating-axis depth of two convex polytopes, m (0 when they do not overlap).
inline double polytope_depth(const PosedPolytope& P, const PosedPolytope& Q) {
  double depth = std::numeric_limits<double>::infinity();
  const auto axis = [&](Vec3 a) {
    const double norm = a.norm();
    if (norm < 1e-9) return;  // parallel edges: no axis
    a /= norm;
    double p0, p1, q0, q1;
    project(P, a, p0, p1);
    project(Q, a, q0, q1);
    depth = std::min(depth, std::max(0.0, std::min(p1 - q0, q1 - p0)));
  };
  for (int f = 0; f < static_cast<int>(P.shape.faces.size()); ++f) axis(P.normal(f));
  for (int f = 0; f < static_cast<int>(Q.shape.faces.size()); ++f) axis(Q.normal(f));
  for (int e = 0; e < static_cast<int>(P.shape.edges.size()); ++e)
    for (int g = 0; g < static_cast<int>(Q.shape.edges.size()); ++g)
      axis(P.edge_vector(e).cross(Q.edge_vector(g)));
  return depth;
}

// Distance of x outside the polytope (negative inside: minus the depth below the nearest face).
inline double signed_distance(const PosedPolytope& P, const Vec3& x) {
  double outside = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(P.shape.faces.size()); ++f)
    outside = std::max(outside, P.plane_distance(f, x));
  if (outside <= 0.0) return outside;
  double nearest = std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(P.shape.faces.size()); ++f)
    if (P.plane_distance(f, x) > 0.0)
      nearest = std::min(nearest, (x - closest_on_face(P, f, x).point).norm());
  return nearest;
}

// Penetration depth of bodies a and b, m, for spheres, planes and polytopes.
inline double pair_depth(const Model& model, const State& state, int a, int b) {
  const Shape* sa = &model.bodies[a].shape;
  const Shape* sb = &model.bodies[b].shape;
  if (static_cast<int>(sa->kind) > static_cast<int>(sb->kind)) {
    std::swap(sa, sb);
    std::swap(a, b);
  }  // now Sphere < Plane < Polytope
  const BodyState& A = state.bodies[a];
  const BodyState& B = state.bodies[b];
  const auto height = [](const BodyState& plane, const Vec3& x) {
    return (plane.orientation * Vec3::UnitZ()).dot(x - plane.position);
  };
  if (sa->kind == ShapeKind::Sphere && sb->kind == ShapeKind::Sphere)
    return std::max(0.0, sa->radius + sb->radius - (A.position - B.position).norm());
  if (sa->kind == ShapeKind::Sphere && sb->kind == ShapeKind::Plane)
    return std::max(0.0, sa->radius - height(B, A.position));
  if (sa->kind == ShapeKind::Sphere && sb->kind == ShapeKind::Polytope)
    return std::max(0.0, sa->radius - signed_distance(PosedPolytope(*sb->polytope, B), A.position));
  if (sa->kind == ShapeKind::Plane && sb->kind == ShapeKind::Polytope) {
    const PosedPolytope P(*sb->polytope, B);
    double deepest = 0.0;
    for (int v = 0; v < static_cast<int>(P.shape.vertices.size()); ++v)
      deepest = std::max(deepest, -height(A, P.vertex(v)));
    return deepest;
  }
  if (sa->kind == ShapeKind::Polytope && sb->kind == ShapeKind::Polytope)
    return polytope_depth(PosedPolytope(*sa->polytope, A), PosedPolytope(*sb->polytope, B));
  return 0.0;  // plane-plane, and the planar shapes this helper does not measure
}

struct DeepestPair {
  double depth = 0.0;
  int a = -1, b = -1;
};

// The deepest pair of the configuration among those Model::may_collide allows.
inline DeepestPair deepest_pair(const Model& model, const State& state) {
  DeepestPair out;
  const int n = static_cast<int>(model.bodies.size());
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (!model.may_collide(a, b)) continue;
      const double d = pair_depth(model, state, a, b);
      if (d > out.depth) out = {d, a, b};
    }
  return out;
}

}  // namespace pegsim::test
