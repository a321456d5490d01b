#include "engine/collision/overlap_contacts.hpp"

#include "engine/collision/narrow_phase.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/geometry/minimum_translation.hpp"
#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/polytope_overlap.hpp"

namespace pegsim {
namespace {

void world_outline(const Polygon& p, const BodyState& s, std::vector<Vec2>& out) {
  const PosedPolygon posed(p, s);
  out.clear();
  for (int v = 0; v < p.size(); ++v) out.push_back(posed.vertex(v));
}

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

void polygon_pair(const Model& model, const State& state, int a, int b,
                  OverlapContactWorkspace& w, std::vector<Contact>& out) {
  world_outline(*model.bodies[a].shape.polygon, state.bodies[a], w.outline_a);
  world_outline(*model.bodies[b].shape.polygon, state.bodies[b], w.outline_b);
  MinimumTranslation t;
  if (!polygon_minimum_translation(w.outline_a, w.outline_b, t)) return;
  polygon_intersection(w.outline_a, w.outline_b, w.common, w.scratch);
  // An overlap too thin for its clipped area to be positive in double: between the two
  // deepest vertices instead.
  const Vec2 centroid = w.common.size() >= 3 && polygon_area(w.common) > 0.0
                            ? polygon_centroid(w.common)
                            : 0.5 * (w.outline_a[t.deepest_a] + w.outline_b[t.deepest_b]);
  out.push_back(overlap_contact(a, b, t, to_world3(centroid)));
}

void polytope_pair(const Model& model, const State& state, int a, int b,
                   std::vector<Contact>& out) {
  const Polytope& pa = *model.bodies[a].shape.polytope;
  const Polytope& pb = *model.bodies[b].shape.polytope;
  const BodyState& sa = state.bodies[a];
  const BodyState& sb = state.bodies[b];
  MinimumTranslation t;
  if (!polytope_minimum_translation(pa, sa, pb, sb, t)) return;
  const ConvexSolid common = polytope_intersection(pa, sa, pb, sb);
  const Vec3 centroid =
      !common.faces.empty() && solid_volume(common) > 0.0
          ? solid_centroid(common)
          : 0.5 * (sa.position + sa.orientation * pa.vertices[t.deepest_a] + sb.position +
                   sb.orientation * pb.vertices[t.deepest_b]);
  out.push_back(overlap_contact(a, b, t, centroid));
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
    const ShapeKind ka = model.bodies[p.a].shape.kind, kb = model.bodies[p.b].shape.kind;
    if (ka == ShapeKind::Polygon && kb == ShapeKind::Polygon) {
      polygon_pair(model, state, p.a, p.b, work, contacts);
    } else if (ka == ShapeKind::Polytope && kb == ShapeKind::Polytope) {
      polytope_pair(model, state, p.a, p.b, contacts);
    } else {
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
