#include "engine/collision/volume_contacts.hpp"

#include <algorithm>
#include <cmath>

#include "engine/collision/convex_parts.hpp"
#include "engine/collision/polygon_contacts.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/geometry/intersection_properties.hpp"
#include "engine/geometry/intersection_properties_2d.hpp"

namespace pegsim {
namespace {

bool flat(ShapeKind k) {
  return k == ShapeKind::Plane || k == ShapeKind::HalfPlane;
}
bool round(ShapeKind k) {
  return k == ShapeKind::Sphere || k == ShapeKind::Circle;
}

// The common volume of part a (body A of the contact) and part b (body B); a plane or
// half-plane is always a.
IntersectionProperties common_volume(const ConvexPart& a, const ConvexPart& b,
                                     VolumeContactWorkspace& w) {
  const ShapeKind ka = a.shape.kind, kb = b.shape.kind;
  if (ka == ShapeKind::Plane) {
    const Vec3 n = a.pose.orientation * Vec3::UnitZ();
    if (kb == ShapeKind::Sphere)
      return halfspace_sphere_intersection_properties(a.pose.position, n, b.pose.position,
                                                      b.shape.radius);
    return halfspace_polytope_intersection_properties(a.pose.position, n, *b.shape.polytope, b.pose,
                                                      w.common);
  }
  if (ka == ShapeKind::HalfPlane) {
    const Vec2 n = half_plane_normal(a.pose), point = in_plane(a.pose.position);
    if (kb == ShapeKind::Circle)
      return halfplane_disc_intersection_properties(point, n, in_plane(b.pose.position),
                                                    b.shape.radius);
    world_outline(*b.shape.polygon, b.pose, w.outline_b);
    return halfplane_polygon_intersection_properties(point, n, w.outline_b, w.common);
  }
  if (round(ka) && round(kb)) {
    if (ka == ShapeKind::Sphere)
      return sphere_intersection_properties(a.pose.position, a.shape.radius, b.pose.position,
                                            b.shape.radius);
    return disc_intersection_properties(in_plane(a.pose.position), a.shape.radius,
                                        in_plane(b.pose.position), b.shape.radius);
  }
  if (round(ka) || round(kb)) {  // computed with the faceted part first, then turned round
    const ConvexPart& facets = round(ka) ? b : a;
    const ConvexPart& ball = round(ka) ? a : b;
    IntersectionProperties v;
    if (ball.shape.kind == ShapeKind::Sphere) {
      v = polytope_sphere_intersection_properties(*facets.shape.polytope, facets.pose,
                                                  ball.pose.position, ball.shape.radius, w.common);
    } else {
      world_outline(*facets.shape.polygon, facets.pose, w.outline_a);
      v = polygon_disc_intersection_properties(w.outline_a, in_plane(ball.pose.position),
                                               ball.shape.radius, w.common);
    }
    if (round(ka)) {
      v.normal = -v.normal;
      std::swap(v.tilt_a, v.tilt_b);
    }
    return v;
  }
  if (ka == ShapeKind::Polytope)
    return polytope_intersection_properties(*a.shape.polytope, a.pose, *b.shape.polytope, b.pose,
                                            w.common);
  world_outline(*a.shape.polygon, a.pose, w.outline_a);
  world_outline(*b.shape.polygon, b.pose, w.outline_b);
  return polygon_intersection_properties(w.outline_a, w.outline_b, w.common);
}

// Contact::tilt from the layers under the bodies' faces (IntersectionProperties::tilt_a): a
// single row on their relative turn takes B's when only B moves, A's when only A does, else
// the mean (a flat patch's tr P - P for either).
Mat3 tilt(const IntersectionProperties& v, bool a_static, bool b_static) {
  if (a_static) return v.tilt_b;
  if (b_static) return v.tilt_a;
  return 0.5 * (v.tilt_a + v.tilt_b);
}

Contact volume_contact(int a, int b, const ConvexPart& pa, const ConvexPart& pb,
                       const IntersectionProperties& v, const Model& model, bool planar) {
  Contact c;
  c.body_a = a;
  c.body_b = b;
  c.part_a = pa.index;
  c.part_b = pb.index;
  c.normal = v.normal;
  c.volume = v.volume;
  c.volume_inertia = v.inertia;
  c.tilt = tilt(v, model.bodies[a].is_static, model.bodies[b].is_static);
  c.spin_radius = v.spin_radius;
  // A part wholly inside the other has no face to leave by (rate 0): its rate is taken as a
  // cube's (square's) of the same volume, so that the row stays finite.
  c.volume_rate = v.area > 0.0 ? v.area : std::pow(v.volume, planar ? 0.5 : 2.0 / 3.0);
  const double depth = c.volume / c.volume_rate;
  c.gap = -depth;
  c.point_a = v.centroid + 0.5 * depth * v.normal;
  const VolumetricLayer& la = model.bodies[a].layer;
  const VolumetricLayer& lb = model.bodies[b].layer;
  c.stiffness = 1.0 / (1.0 / la.stiffness + 1.0 / lb.stiffness);  // layers in series
  c.damping = c.stiffness * (la.damping / la.stiffness + lb.damping / lb.stiffness);
  c.spin_speed = std::max(la.spin_speed, lb.spin_speed);
  // Bristles in series; a rigid side (k_s 0) adds no compliance.
  double compliance = 0.0, damping = 0.0;
  for (const VolumetricLayer* l : {&la, &lb})
    if (l->stick_stiffness > 0.0) {
      compliance += 1.0 / l->stick_stiffness;
      damping += l->stick_damping / l->stick_stiffness;
    }
  if (compliance > 0.0) {
    c.stick_stiffness = 1.0 / compliance;
    c.stick_damping = c.stick_stiffness * damping;
  }
  return c;  // APPL 1, applicable and feasible
}

}  // namespace

void volume_contacts(const Model& model, const State& state, BroadPhase& broad,
                     VolumeContactWorkspace& work, std::vector<Contact>& contacts) {
  contacts.clear();
  broad.update(model, state, 0.0);  // overlaps only: no look-ahead
  for (const BodyPair& p : broad.pairs) {
    const Body& ba = model.bodies[p.a];
    const Body& bb = model.bodies[p.b];
    if (ba.shape.planar() != bb.shape.planar()) continue;  // a planar and a 3D body never meet
    for (int i = 0; i < convex_part_count(ba); ++i) {
      const ConvexPart pa = convex_part(ba, state.bodies[p.a], i);
      for (int j = 0; j < convex_part_count(bb); ++j) {
        const ConvexPart pb = convex_part(bb, state.bodies[p.b], j);
        if ((pa.pose.position - pb.pose.position).norm() > pa.radius() + pb.radius()) continue;
        const bool swap = flat(pb.shape.kind);
        const ConvexPart& first = swap ? pb : pa;
        const ConvexPart& second = swap ? pa : pb;
        const IntersectionProperties v = common_volume(first, second, work);
        if (v.empty()) continue;
        contacts.push_back(volume_contact(swap ? p.b : p.a, swap ? p.a : p.b, first, second, v,
                                          model, ba.shape.planar()));
      }
    }
  }
}

}  // namespace pegsim
