// Narrow phase dispatch and the contacts of the smooth shapes (spheres, planes).
// Who is body_a (the normal always points from body_a onto body_b):
//   sphere-sphere       the pair as given;
//   sphere/polytope - plane, polytope vertex - face: the plane or the face owner;
//   sphere - polytope   the polytope (normal out of its nearest feature);
//   edge - edge         the pair as given.
// A compound body (3D or planar) collides part by part (thesis §4.5); its contacts name the
// part.
#include "engine/collision/narrow_phase.hpp"

#include <cmath>
#include <limits>

#include "engine/collision/closest_points.hpp"
#include "engine/collision/narrow_phase_2d.hpp"
#include "engine/collision/polytope_contacts.hpp"
#include "engine/core/part_state.hpp"
#include "engine/geometry/compound.hpp"

namespace pegsim {
namespace {

Contact smooth_contact(int a, int b, Feature fa, Feature fb, const Vec3& point_a,
                       const Vec3& normal, double gap) {
  Contact c;
  c.body_a = a;
  c.body_b = b;
  c.feature_a = fa;
  c.feature_b = fb;
  c.point_a = point_a;
  c.normal = normal;
  c.gap = gap;
  return c;  // smooth shapes: APPL = 1, applicable and feasible
}

constexpr Feature kSphere{FeatureKind::Sphere, -1};
constexpr Feature kPlane{FeatureKind::Plane, -1};

// A convex shape (a body's, or one part of a compound body) placed in the world.
struct Posed {
  const Shape& shape;
  const BodyState& pose;
  int body;
};

void sphere_sphere(const Posed& a, const Posed& b, const Settings& settings,
                   std::vector<Contact>& out) {
  const double ra = a.shape.radius, rb = b.shape.radius;
  const Vec3 d = b.pose.position - a.pose.position;
  const double dist = d.norm();
  const double gap = dist - ra - rb;
  if (gap > settings.epsilon) return;
  const Vec3 n = dist > 0.0 ? Vec3(d / dist) : Vec3::UnitZ();  // concentric: any direction
  out.push_back(smooth_contact(a.body, b.body, kSphere, kSphere, a.pose.position + ra * n, n, gap));
}

void sphere_plane(const Posed& plane, const Posed& sphere, const Settings& settings,
                  std::vector<Contact>& out) {
  const Vec3 n = plane.pose.orientation * Vec3::UnitZ();
  const Vec3 c = sphere.pose.position;
  const double height = n.dot(c - plane.pose.position);
  const double gap = height - sphere.shape.radius;
  if (gap > settings.epsilon) return;
  out.push_back(smooth_contact(plane.body, sphere.body, kPlane, kSphere, c - height * n, n, gap));
}

// The nearest point of the polytope's surface to the sphere's centre c. Outside, the normal
// runs from that point to c; inside, it is the normal of the least penetrated face.
void sphere_polytope(const Posed& poly, const Posed& sphere, const Settings& settings,
                     std::vector<Contact>& out) {
  const PosedPolytope P(*poly.shape.polytope, poly.pose);
  const Vec3 c = sphere.pose.position;
  const double r = sphere.shape.radius;
  const int nf = static_cast<int>(P.shape.faces.size());

  int top = 0;
  double top_psi = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < nf; ++f) {
    const double psi = P.plane_distance(f, c);
    if (psi > top_psi) {
      top_psi = psi;
      top = f;
    }
  }
  if (top_psi - r > settings.epsilon) return;

  if (top_psi <= 0.0) {
    const Vec3 n = P.normal(top);
    out.push_back(smooth_contact(poly.body, sphere.body, {FeatureKind::Face, top}, kSphere,
                                 c - top_psi * n, n, top_psi - r));
    return;
  }
  FacePoint best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (int f = 0; f < nf; ++f) {
    if (P.plane_distance(f, c) <= 0.0) continue;  // a face seen from behind is never nearest
    const FacePoint q = closest_on_face(P, f, c);
    const double d2 = (c - q.point).squaredNorm();
    if (d2 < best_d2) {
      best_d2 = d2;
      best = q;
    }
  }
  const double dist = std::sqrt(best_d2);
  if (dist - r > settings.epsilon) return;
  out.push_back(smooth_contact(poly.body, sphere.body, best.feature, kSphere, best.point,
                               (c - best.point) / dist, dist - r));
}

void polytope_polytope(const Posed& a, const Posed& b, const Settings& settings,
                       std::vector<Contact>& out) {
  const PosedPolytope A(*a.shape.polytope, a.pose);
  const PosedPolytope B(*b.shape.polytope, b.pose);
  vertex_face_contacts(A, a.body, B, b.body, settings, out);  // vertices of a on faces of b
  vertex_face_contacts(B, b.body, A, a.body, settings, out);  // vertices of b on faces of a
  edge_edge_contacts(A, a.body, B, b.body, settings, out);
}

// Two convex 3D shapes (sphere, plane, polytope).
void collide_convex(const Posed& a, const Posed& b, const Settings& settings,
                    std::vector<Contact>& out) {
  // Order the pair so that `first` has the lower kind (Sphere < Plane < Polytope).
  const bool swap = static_cast<int>(a.shape.kind) > static_cast<int>(b.shape.kind);
  const Posed& first = swap ? b : a;
  const Posed& second = swap ? a : b;
  const ShapeKind k1 = first.shape.kind, k2 = second.shape.kind;

  if (k1 == ShapeKind::Sphere && k2 == ShapeKind::Sphere) {
    sphere_sphere(a, b, settings, out);
  } else if (k1 == ShapeKind::Sphere && k2 == ShapeKind::Plane) {
    sphere_plane(second, first, settings, out);
  } else if (k1 == ShapeKind::Sphere && k2 == ShapeKind::Polytope) {
    sphere_polytope(second, first, settings, out);
  } else if (k1 == ShapeKind::Plane && k2 == ShapeKind::Polytope) {
    polytope_plane_contacts(PosedPolytope(*second.shape.polytope, second.pose), second.body,
                            first.pose, first.body, settings, out);
  } else if (k1 == ShapeKind::Polytope && k2 == ShapeKind::Polytope) {
    polytope_polytope(a, b, settings, out);
  }
  // plane-plane: two half-spaces, never a contact
}

// The parts of a body: a compound's, or the body's own shape as its one part (index -1).
struct Parts {
  const Body& body;
  const BodyState& pose;
  int index;

  int count() const {
    return body.shape.kind == ShapeKind::Compound
               ? static_cast<int>(body.shape.compound->parts.size())
               : 1;
  }
  const CompoundPart* part(int k) const {
    return body.shape.kind == ShapeKind::Compound ? &body.shape.compound->parts[k] : nullptr;
  }
  // World state of part k (feasibility reads contact points' velocities).
  BodyState part_pose(int k) const {
    const CompoundPart* p = part(k);
    return p ? part_state(pose, *p) : pose;
  }
  // A sphere around part k (infinite for a plane or half-plane), to skip part pairs far apart.
  double part_radius(int k) const {
    const Shape& s = part(k) ? part(k)->shape : body.shape;
    if (s.kind == ShapeKind::Plane || s.kind == ShapeKind::HalfPlane)
      return std::numeric_limits<double>::infinity();
    if (s.kind == ShapeKind::Polygon) return s.polygon->bounding_radius;
    return s.kind == ShapeKind::Polytope ? s.polytope->bounding_radius : s.radius;
  }
};

// True when the contact's point on body `p` lies inside another part of p deeper than the
// feasibility depth: it is on an interior face of the decomposition (§4.5), not on the
// union's surface, so it is no contact (e.g. a wall's vertex buried in the floor part).
bool buried(const Parts& p, const Contact& c, const Settings& settings) {
  const bool is_a = c.body_a == p.index;
  const Vec3 world = is_a ? c.point_a : c.point_b();
  const Vec3 local = p.pose.orientation.conjugate() * (world - p.pose.position);
  return buried_in_other_part(*p.body.shape.compound, is_a ? c.part_a : c.part_b, local,
                              settings.feasibility_depth);
}

// Every pair of parts (thesis §4.5: contact with a compound is contact with its convex
// parts), each contact labelled with its parts; contacts buried in another part dropped.
void collide_compound(const Parts& a, const Parts& b, const Settings& settings,
                      std::vector<Contact>& out) {
  for (int i = 0; i < a.count(); ++i) {
    const BodyState pa = a.part_pose(i);
    const Shape& sa = a.part(i) ? a.part(i)->shape : a.body.shape;
    for (int j = 0; j < b.count(); ++j) {
      const BodyState pb = b.part_pose(j);
      if ((pa.position - pb.position).norm() >
          a.part_radius(i) + b.part_radius(j) + settings.epsilon)
        continue;
      const Shape& sb = b.part(j) ? b.part(j)->shape : b.body.shape;
      const std::size_t first = out.size();
      if (sa.planar() && sb.planar())
        collide_shapes_2d(sa, pa, a.index, sb, pb, b.index, settings, out);
      else
        collide_convex({sa, pa, a.index}, {sb, pb, b.index}, settings, out);
      std::size_t kept = first;
      for (std::size_t k = first; k < out.size(); ++k) {
        Contact& c = out[k];
        const bool a_first = c.body_a == a.index;
        c.part_a = a_first ? (a.part(i) ? i : -1) : (b.part(j) ? j : -1);
        c.part_b = a_first ? (b.part(j) ? j : -1) : (a.part(i) ? i : -1);
        if ((a.part(i) && buried(a, c, settings)) || (b.part(j) && buried(b, c, settings)))
          continue;
        out[kept++] = c;
      }
      out.resize(kept);
    }
  }
}

}  // namespace

void collide_shapes(const Shape& shape_a, const BodyState& pose_a, int a, const Shape& shape_b,
                    const BodyState& pose_b, int b, const Settings& settings,
                    std::vector<Contact>& out) {
  collide_convex({shape_a, pose_a, a}, {shape_b, pose_b, b}, settings, out);
}

void collide(const Model& model, const State& state, const Settings& settings, int a, int b,
             std::vector<Contact>& out) {
  const Body& ba = model.bodies[a];
  const Body& bb = model.bodies[b];
  if (ba.shape.planar() != bb.shape.planar()) return;  // a planar and a 3D body never meet
  if (ba.shape.kind == ShapeKind::Compound || bb.shape.kind == ShapeKind::Compound) {
    collide_compound({ba, state.bodies[a], a}, {bb, state.bodies[b], b}, settings, out);
    return;
  }
  if (ba.shape.planar()) {
    collide_2d(model, state, settings, a, b, out);
    return;
  }
  collide_convex({ba.shape, state.bodies[a], a}, {bb.shape, state.bodies[b], b}, settings, out);
}

}  // namespace pegsim
