#include "engine/metrics/overlap.hpp"

#include <algorithm>
#include <cmath>

#include "engine/collision/aabb.hpp"
#include "engine/core/part_state.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/geometry/intersection_properties.hpp"
#include "engine/geometry/polytope_overlap.hpp"
#include "engine/geometry/sphere_overlap.hpp"
#include "engine/metrics/overlap_2d.hpp"

namespace pegsim {
namespace {

// The world solids of a polytope body or of a compound's parts; false when a part is a sphere.
bool world_solids(const Body& body, const BodyState& pose, std::vector<ConvexSolid>& out) {
  out.clear();
  if (body.shape.kind == ShapeKind::Polytope) {
    out.push_back(posed_solid(*body.shape.polytope, pose));
    return true;
  }
  for (const CompoundPart& part : body.shape.compound->parts) {
    if (part.shape.kind != ShapeKind::Polytope) return false;
    out.push_back(posed_solid(*part.shape.polytope, part_state(pose, part)));
  }
  return true;
}

// A compound against a plane, a polytope or a compound: the volume of the union of the
// pairwise intersections of their convex parts (inclusion-exclusion, exact). Spheres (as a
// body or a part) are not measured.
bool compound_overlap_volume(const Model& model, const State& state, int a, int b, double& volume) {
  const Body& ba = model.bodies[a];
  const Body& bb = model.bodies[b];
  if (ba.shape.kind == ShapeKind::Plane || bb.shape.kind == ShapeKind::Plane) {
    const bool plane_a = ba.shape.kind == ShapeKind::Plane;
    const BodyState& plane = state.bodies[plane_a ? a : b];
    std::vector<ConvexSolid> parts, cut;
    std::vector<Vec3> cap;
    if (!world_solids(plane_a ? bb : ba, state.bodies[plane_a ? b : a], parts)) return false;
    const Vec3 n = plane.orientation * Vec3::UnitZ();
    for (const ConvexSolid& p : parts) {
      ConvexSolid c;
      clip_solid(p, n, n.dot(plane.position), 0.0, c, cap);
      cut.push_back(std::move(c));
    }
    volume = union_volume(cut);
    return true;
  }
  std::vector<ConvexSolid> sa, sb, common;
  if (ba.shape.kind == ShapeKind::Sphere || bb.shape.kind == ShapeKind::Sphere) return false;
  if (!world_solids(ba, state.bodies[a], sa) || !world_solids(bb, state.bodies[b], sb))
    return false;
  for (const ConvexSolid& x : sa)
    for (const ConvexSolid& y : sb) common.push_back(intersect_solids(x, y));
  volume = union_volume(common);
  return true;
}

}  // namespace

bool pair_overlap_volume(const Model& model, const State& state, int a, int b, double& volume) {
  volume = 0.0;
  const Shape* sa = &model.bodies[a].shape;
  const Shape* sb = &model.bodies[b].shape;
  if (sa->planar() && sb->planar()) return pair_overlap_area_2d(model, state, a, b, volume);
  if (sa->kind == ShapeKind::Compound || sb->kind == ShapeKind::Compound)
    return compound_overlap_volume(model, state, a, b, volume);
  // Order the pair so that sa has the lower kind (Sphere < Plane < Polytope).
  if (static_cast<int>(sa->kind) > static_cast<int>(sb->kind)) {
    std::swap(sa, sb);
    std::swap(a, b);
  }
  const BodyState& pa = state.bodies[a];
  const BodyState& pb = state.bodies[b];
  const ShapeKind ka = sa->kind, kb = sb->kind;
  if (ka == ShapeKind::Sphere && kb == ShapeKind::Sphere) {
    volume =
        sphere_sphere_overlap_volume(sa->radius, sb->radius, (pb.position - pa.position).norm());
  } else if (ka == ShapeKind::Sphere && kb == ShapeKind::Plane) {
    const Vec3 n = pb.orientation * Vec3::UnitZ();
    volume = sphere_halfspace_overlap_volume(sa->radius, n.dot(pa.position - pb.position));
  } else if (ka == ShapeKind::Sphere && kb == ShapeKind::Polytope) {
    IntersectionWorkspace w;
    volume = polytope_sphere_intersection_properties(*sb->polytope, pb, pa.position, sa->radius, w)
                 .volume;
  } else if (ka == ShapeKind::Plane && kb == ShapeKind::Polytope) {
    volume = polytope_halfspace_overlap_volume(*sb->polytope, pb, pa.position,
                                               pa.orientation * Vec3::UnitZ());
  } else if (ka == ShapeKind::Polytope && kb == ShapeKind::Polytope) {
    volume = polytope_overlap_volume(*sa->polytope, pa, *sb->polytope, pb);
  } else if (!(ka == ShapeKind::Plane && kb == ShapeKind::Plane)) {
    return false;  // a pair of shapes this function does not know: not measured
  }
  return true;  // plane-plane: two static half-spaces, never any volume
}

OverlapTotals total_overlap(const Model& model, const State& state) {
  OverlapTotals t;
  const int n = static_cast<int>(model.bodies.size());
  std::vector<Aabb> boxes;
  boxes.reserve(n);
  for (int i = 0; i < n; ++i) boxes.push_back(compute_aabb(model.bodies[i], state.bodies[i], 0.0));
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (!model.may_collide(a, b) || !boxes[a].overlaps(boxes[b])) continue;
      if (!model.bodies[a].present_at(state.time) || !model.bodies[b].present_at(state.time))
        continue;
      double v = 0.0;
      if (!pair_overlap_volume(model, state, a, b, v)) {
        ++t.unmeasured_pairs;
        continue;
      }
      if (v <= 0.0) continue;
      t.volume += v;
      t.max_pair_volume = std::max(t.max_pair_volume, v);
      ++t.overlapping_pairs;
    }
  return t;
}

}  // namespace pegsim
