// Narrow phase dispatch and the contacts of the smooth shapes (spheres, planes).
// Who is body_a (the normal always points from body_a onto body_b):
//   sphere-sphere       the pair as given;
//   sphere/polytope - plane, polytope vertex - face: the plane or the face owner;
//   sphere - polytope   the polytope (normal out of its nearest feature);
//   edge - edge         the pair as given.
#include "engine/collision/narrow_phase.hpp"

#include <cmath>
#include <limits>

#include "engine/collision/closest_points.hpp"
#include "engine/collision/planar_narrow_phase.hpp"
#include "engine/collision/polytope_contacts.hpp"

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

void sphere_sphere(const Model& model, const State& state, const Settings& settings, int a,
                   int b, std::vector<Contact>& out) {
  const double ra = model.bodies[a].shape.radius, rb = model.bodies[b].shape.radius;
  const Vec3 d = state.bodies[b].position - state.bodies[a].position;
  const double dist = d.norm();
  const double gap = dist - ra - rb;
  if (gap > settings.epsilon) return;
  const Vec3 n = dist > 0.0 ? Vec3(d / dist) : Vec3::UnitZ();  // concentric: any direction
  out.push_back(
      smooth_contact(a, b, kSphere, kSphere, state.bodies[a].position + ra * n, n, gap));
}

void sphere_plane(const Model& model, const State& state, const Settings& settings, int plane,
                  int sphere, std::vector<Contact>& out) {
  const Vec3 n = state.bodies[plane].orientation * Vec3::UnitZ();
  const Vec3 c = state.bodies[sphere].position;
  const double height = n.dot(c - state.bodies[plane].position);
  const double gap = height - model.bodies[sphere].shape.radius;
  if (gap > settings.epsilon) return;
  out.push_back(smooth_contact(plane, sphere, kPlane, kSphere, c - height * n, n, gap));
}

// The nearest point of the polytope's surface to the sphere's centre c. Outside, the normal
// runs from that point to c; inside, it is the normal of the least penetrated face.
void sphere_polytope(const Model& model, const State& state, const Settings& settings, int poly,
                     int sphere, std::vector<Contact>& out) {
  const PosedPolytope P(*model.bodies[poly].shape.polytope, state.bodies[poly]);
  const Vec3 c = state.bodies[sphere].position;
  const double r = model.bodies[sphere].shape.radius;
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
    out.push_back(smooth_contact(poly, sphere, {FeatureKind::Face, top}, kSphere,
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
  out.push_back(smooth_contact(poly, sphere, best.feature, kSphere, best.point,
                               (c - best.point) / dist, dist - r));
}

void polytope_polytope(const Model& model, const State& state, const Settings& settings, int a,
                       int b, std::vector<Contact>& out) {
  const PosedPolytope A(*model.bodies[a].shape.polytope, state.bodies[a]);
  const PosedPolytope B(*model.bodies[b].shape.polytope, state.bodies[b]);
  vertex_face_contacts(A, a, B, b, settings, out);  // vertices of a on faces of b
  vertex_face_contacts(B, b, A, a, settings, out);  // vertices of b on faces of a
  edge_edge_contacts(A, a, B, b, settings, out);
}

}  // namespace

void collide(const Model& model, const State& state, const Settings& settings, int a, int b,
             std::vector<Contact>& out) {
  if (model.bodies[a].shape.planar() || model.bodies[b].shape.planar()) {
    collide_planar(model, state, settings, a, b, out);
    return;
  }
  const ShapeKind ka = model.bodies[a].shape.kind, kb = model.bodies[b].shape.kind;
  // Order the pair so that `first` has the lower kind (Sphere < Plane < Polytope).
  const bool swap = static_cast<int>(ka) > static_cast<int>(kb);
  const int first = swap ? b : a, second = swap ? a : b;
  const ShapeKind k1 = swap ? kb : ka, k2 = swap ? ka : kb;

  if (k1 == ShapeKind::Sphere && k2 == ShapeKind::Sphere) {
    sphere_sphere(model, state, settings, a, b, out);
  } else if (k1 == ShapeKind::Sphere && k2 == ShapeKind::Plane) {
    sphere_plane(model, state, settings, second, first, out);
  } else if (k1 == ShapeKind::Sphere && k2 == ShapeKind::Polytope) {
    sphere_polytope(model, state, settings, second, first, out);
  } else if (k1 == ShapeKind::Plane && k2 == ShapeKind::Polytope) {
    polytope_plane_contacts(PosedPolytope(*model.bodies[second].shape.polytope,
                                          state.bodies[second]),
                            second, state.bodies[first], first, settings, out);
  } else if (k1 == ShapeKind::Polytope && k2 == ShapeKind::Polytope) {
    polytope_polytope(model, state, settings, a, b, out);
  }
  // plane-plane: two half-spaces, never a contact
}

}  // namespace pegsim
