#include "engine/collision/overlap_contacts.hpp"

#include <algorithm>
#include <cmath>

#include "engine/collision/convex_parts.hpp"
#include "engine/collision/narrow_phase.hpp"
#include "engine/collision/narrow_phase_2d.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/core/part_state.hpp"
#include "engine/geometry/minimum_translation.hpp"
#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/polytope_overlap.hpp"

namespace pegsim {
namespace {

// The one contact of an overlapping pair: gap -depth along the minimum translation, p_A and
// p_B depth / 2 either side of the overlap's centroid.
Contact overlap_contact(int a, int b, const MinimumTranslation& t, const Vec3& centroid) {
  Contact c;
  c.body_a = a;
  c.body_b = b;
  c.feature_a = t.feature_a;
  c.feature_b = t.feature_b;
  c.normal = t.normal;
  c.gap = -t.depth;
  c.point_a = centroid + 0.5 * t.depth * t.normal;
  return c;  // APPL 1, applicable and feasible
}

// An overlap too thin for its clipped area or volume to be positive in double (bodies that
// have just met face to face): the contact sits between the features that meet, the mean of
// A's vertices within the depth of its deepest one along n and the same of B's along -n. A
// deepest vertex alone would be one corner of a touching face, and the corrective impulse
// there would spin bodies that meet squarely.
Vec3 in_space(const Vec2& x) {
  return to_world3(x);
}
const Vec3& in_space(const Vec3& x) {
  return x;
}

template <typename Point, typename Vertices>
Point touching_centroid(const Vertices& vertices, int count, const Vec3& direction, double depth) {
  auto along = [&](int v) { return in_space(vertices(v)).dot(direction); };
  double deepest = -INFINITY;
  for (int v = 0; v < count; ++v) deepest = std::max(deepest, along(v));
  const double within = 2.0 * depth + 1e-12 * (1.0 + std::abs(deepest));
  Point sum = Point::Zero();
  int n = 0;
  for (int v = 0; v < count; ++v)
    if (along(v) >= deepest - within) {
      sum += vertices(v);
      ++n;
    }
  return sum / n;
}

void polygon_pair(const Polygon& pa, const BodyState& sa, int a, const Polygon& pb,
                  const BodyState& sb, int b, OverlapContactWorkspace& w,
                  std::vector<Contact>& out) {
  world_outline(pa, sa, w.outline_a);
  world_outline(pb, sb, w.outline_b);
  MinimumTranslation t;
  if (!polygon_minimum_translation(w.outline_a, w.outline_b, t)) return;
  polygon_intersection(w.outline_a, w.outline_b, w.common, w.scratch);
  const Vec2 centroid =
      w.common.size() >= 3 && polygon_area(w.common) > 0.0
          ? polygon_centroid(w.common)
          : 0.5 *
                (touching_centroid<Vec2>([&](int v) { return w.outline_a[v]; },
                                         static_cast<int>(w.outline_a.size()), t.normal, t.depth) +
                 touching_centroid<Vec2>([&](int v) { return w.outline_b[v]; },
                                         static_cast<int>(w.outline_b.size()), -t.normal, t.depth));
  out.push_back(overlap_contact(a, b, t, to_world3(centroid)));
}

void polytope_pair(const Polytope& pa, const BodyState& sa, int a, const Polytope& pb,
                   const BodyState& sb, int b, SolidWorkspace& w, std::vector<Contact>& out) {
  MinimumTranslation t;
  if (!polytope_minimum_translation(pa, sa, pb, sb, t)) return;
  const ConvexSolid& common = polytope_intersection(pa, sa, pb, sb, w);
  auto world_a = [&](int v) { return Vec3(sa.position + sa.orientation * pa.vertices[v]); };
  auto world_b = [&](int v) { return Vec3(sb.position + sb.orientation * pb.vertices[v]); };
  const Vec3 centroid =
      !common.empty() && solid_volume(common) > 0.0
          ? solid_centroid(common)
          : 0.5 * (touching_centroid<Vec3>(world_a, static_cast<int>(pa.vertices.size()), t.normal,
                                           t.depth) +
                   touching_centroid<Vec3>(world_b, static_cast<int>(pb.vertices.size()), -t.normal,
                                           t.depth));
  out.push_back(overlap_contact(a, b, t, centroid));
}

// Pairs part by part (thesis §4.5: contact with a compound is contact with its convex
// parts): one contact per overlapping pair of polytope parts or of polygon parts, the narrow
// phase's negative gaps otherwise.
void part_pairs(const Model& model, const State& state, const Settings& touching, int a, int b,
                OverlapContactWorkspace& w, std::vector<Contact>& out) {
  const Body& ba = model.bodies[a];
  const Body& bb = model.bodies[b];
  for (int i = 0; i < convex_part_count(ba); ++i) {
    const ConvexPart pa = convex_part(ba, state.bodies[a], i);
    for (int j = 0; j < convex_part_count(bb); ++j) {
      const ConvexPart pb = convex_part(bb, state.bodies[b], j);
      if ((pa.pose.position - pb.pose.position).norm() > pa.radius() + pb.radius()) continue;
      const std::size_t first = out.size();
      if (pa.shape.kind == ShapeKind::Polytope && pb.shape.kind == ShapeKind::Polytope) {
        polytope_pair(*pa.shape.polytope, pa.pose, a, *pb.shape.polytope, pb.pose, b, w.solids,
                      out);
      } else if (pa.shape.kind == ShapeKind::Polygon && pb.shape.kind == ShapeKind::Polygon) {
        polygon_pair(*pa.shape.polygon, pa.pose, a, *pb.shape.polygon, pb.pose, b, w, out);
      } else {
        w.narrow.clear();
        if (pa.shape.planar())
          collide_shapes_2d(pa.shape, pa.pose, a, pb.shape, pb.pose, b, touching, w.narrow);
        else
          collide_shapes(pa.shape, pa.pose, a, pb.shape, pb.pose, b, touching, w.narrow);
        for (Contact c : w.narrow) {
          if (!(c.gap < 0.0)) continue;
          c.applicable = c.feasible = true;
          out.push_back(c);
        }
      }
      for (std::size_t k = first; k < out.size(); ++k) {
        const bool a_first = out[k].body_a == a;
        out[k].part_a = a_first ? pa.index : pb.index;
        out[k].part_b = a_first ? pb.index : pa.index;
      }
    }
  }
}

}  // namespace

void overlap_contacts(const Model& model, const State& state, const Settings& settings,
                      BroadPhase& broad, OverlapContactWorkspace& work,
                      std::vector<Contact>& contacts) {
  contacts.clear();
  broad.update(model, state, 0.0);  // no look-ahead
  Settings touching = settings;
  touching.epsilon = 0.0;
  for (const BodyPair& p : broad.pairs) {
    const Shape& sa = model.bodies[p.a].shape;
    const Shape& sb = model.bodies[p.b].shape;
    if (sa.kind == ShapeKind::Polygon && sb.kind == ShapeKind::Polygon) {
      polygon_pair(*sa.polygon, state.bodies[p.a], p.a, *sb.polygon, state.bodies[p.b], p.b, work,
                   contacts);
    } else if (sa.planar() != sb.planar()) {
      continue;  // a planar and a 3D body never meet
    } else if (sa.kind == ShapeKind::Compound || sb.kind == ShapeKind::Compound || !sa.planar()) {
      part_pairs(model, state, touching, p.a, p.b, work, contacts);
    } else {  // circles and half-planes
      work.narrow.clear();
      collide(model, state, touching, p.a, p.b, work.narrow);
      for (Contact c : work.narrow) {
        if (!(c.gap < 0.0)) continue;
        c.applicable = c.feasible = true;
        contacts.push_back(c);
      }
    }
  }
}

}  // namespace pegsim
