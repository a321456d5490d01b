#include "engine/collision/polytope_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/collision/applicability.hpp"
#include "engine/collision/closest_points.hpp"
#include "engine/collision/feasibility.hpp"

namespace pegsim {
namespace {

// Nearest points closer than this (as a fraction of the edge) to an end of an edge belong to
// a vertex, which the vertex-face test already covers.
constexpr double kEdgeEnd = 1e-6;
// Relative size below which two directions count as parallel.
constexpr double kParallel = 1e-9;

bool strictly_inside(double t) {
  return t > kEdgeEnd && t < 1.0 - kEdgeEnd;
}

}  // namespace

bool is_flat_edge(const PosedPolytope& body, int e) {
  const Polytope::Edge& E = body.shape.edges[e];
  return body.shape.faces[E.face_left].normal.dot(body.shape.faces[E.face_right].normal) >
         1.0 - kParallel;
}

void polytope_plane_contacts(const PosedPolytope& poly, int poly_body, const BodyState& plane,
                             int plane_body, const Settings& settings, std::vector<Contact>& out) {
  const Vec3 eta = plane.orientation * Vec3::UnitZ();
  const int nv = static_cast<int>(poly.shape.vertices.size());
  for (int v = 0; v < nv; ++v) {
    const Vec3 x = poly.vertex(v);
    const double psi = eta.dot(x - plane.position);
    if (psi > settings.epsilon) continue;
    Contact c;
    c.body_a = plane_body;
    c.body_b = poly_body;
    c.feature_a = {FeatureKind::Plane, -1};
    c.feature_b = {FeatureKind::Vertex, v};
    c.point_a = x - psi * eta;
    c.normal = eta;
    c.gap = psi;
    c.applicability = vertex_face_applicability(poly, v, eta);  // (3.4)
    c.applicable = c.applicability >= settings.eps_theta;
    c.feasible = true;
    out.push_back(c);
  }
}

namespace {

// C(v, f) with the vertex's plane distance psi and the point of face f nearest it already found.
Contact vertex_face_contact(const PosedPolytope& V, int v_body, int v, const Vec3& x, double psi,
                            const PosedPolytope& F, int f_body, int f, const FacePoint& nearest,
                            const Settings& settings) {
  const Vec3 eta = F.normal(f);
  Contact c;
  c.body_a = f_body;
  c.body_b = v_body;
  c.feature_a = {FeatureKind::Face, f};
  c.feature_b = {FeatureKind::Vertex, v};
  c.point_a = x - psi * eta;
  c.normal = eta;
  c.gap = psi;
  c.applicability = vertex_face_applicability(V, v, eta);  // (3.4)
  c.applicable = c.applicability >= settings.eps_theta;
  // The vertex's speed into the face, relative to the face's body.
  const double approach = std::max(0.0, -(V.point_velocity(x) - F.point_velocity(x)).dot(eta));
  c.feasible = vertex_face_feasible(x, psi, nearest, eta, settings, approach);
  return c;
}

}  // namespace

Contact vertex_face_contact(const PosedPolytope& V, int v_body, int v, const PosedPolytope& F,
                            int f_body, int f, const Settings& settings) {
  const Vec3 x = V.vertex(v);
  return vertex_face_contact(V, v_body, v, x, F.plane_distance(f, x), F, f_body, f,
                             closest_on_face(F, f, x), settings);
}

void vertex_face_contacts(const PosedPolytope& V, int v_body, const PosedPolytope& F, int f_body,
                          const Settings& settings, std::vector<Contact>& out) {
  const double eps = settings.epsilon;
  const double reach = F.shape.bounding_radius + eps;
  const int nv = static_cast<int>(V.shape.vertices.size());
  const int nf = static_cast<int>(F.shape.faces.size());
  for (int v = 0; v < nv; ++v) {
    const Vec3 x = V.vertex(v);
    if ((x - F.position).squaredNorm() > reach * reach) continue;
    const Vec3 y = F.local(x);
    for (int f = 0; f < nf; ++f) {
      const double psi = F.local_plane_distance(f, y);  // psi_n of Alg. 6
      if (std::abs(psi) > eps) continue;                // |x - p_b| >= |psi|
      const FacePoint nearest = closest_on_face(F, f, x);
      if ((x - nearest.point).norm() > eps) continue;
      out.push_back(vertex_face_contact(V, v_body, v, x, psi, F, f_body, f, nearest, settings));
    }
  }
}

bool edge_edge_contact(const PosedPolytope& A, int a_body, int ea, const PosedPolytope& B,
                       int b_body, int eb, const Settings& settings, Contact& out) {
  const Polytope::Edge& EA = A.shape.edges[ea];
  const Polytope::Edge& EB = B.shape.edges[eb];
  const Vec3 pa = A.vertex(EA.tail), qa = A.vertex(EA.head);
  const Vec3 pb = B.vertex(EB.tail), qb = B.vertex(EB.head);
  const Vec3 da = qa - pa, db = qb - pb;
  const Vec3 m = da.cross(db);
  if (m.norm() <= kParallel * da.norm() * db.norm()) return false;
  // (3.6): O_eb = e_b x -(eta_1 + eta_2); the sign of e_a . O_eb picks n, which then
  // points against B's outward normals, i.e. from A onto B.
  const Vec3 o = db.cross(-(B.normal(EB.face_left) + B.normal(EB.face_right)));
  const Vec3 n = (da.dot(o) >= 0.0 ? m : Vec3(-m)).normalized();
  const SegmentSegment near = segment_segment(pa, qa, pb, qb);  // Alg. 7
  out = Contact{};
  out.body_a = a_body;
  out.body_b = b_body;
  out.feature_a = {FeatureKind::Edge, ea};
  out.feature_b = {FeatureKind::Edge, eb};
  out.point_a = near.c1;
  out.normal = n;
  out.gap = n.dot(near.c2 - near.c1);  // the lines' signed distance: n is normal to both
  out.applicability = edge_edge_applicability(edge_tangents(A, ea), edge_tangents(B, eb), n);
  out.applicable = out.applicability >= settings.eps_theta;                // (3.5)
  out.feasible = edge_edge_feasible(A, near.c1, B, near.c2, n, settings);  // §3.3, (4.20)
  return true;
}

void edge_edge_contacts(const PosedPolytope& A, int a_body, const PosedPolytope& B, int b_body,
                        const Settings& settings, std::vector<Contact>& out) {
  const double eps = settings.epsilon;
  const int na = static_cast<int>(A.shape.edges.size());
  const int nb = static_cast<int>(B.shape.edges.size());
  // B's edges as balls (midpoint, half length): two segments are at least |m_a - m_b| - l_a -
  // l_b apart, so a pair farther than that plus eps is skipped before Alg. 7 (with a margin
  // for rounding: whatever Alg. 7 would keep is kept).
  thread_local std::vector<Vec3> middle;
  thread_local std::vector<double> half;
  middle.resize(static_cast<std::size_t>(nb));
  half.resize(static_cast<std::size_t>(nb));
  for (int eb = 0; eb < nb; ++eb) {
    const Vec3 pb = B.vertex(B.shape.edges[eb].tail), qb = B.vertex(B.shape.edges[eb].head);
    middle[std::size_t(eb)] = 0.5 * (pb + qb);
    half[std::size_t(eb)] = 0.5 * (qb - pb).norm();
  }
  const double margin = eps * (1.0 + 1e-9) + 1e-12;
  for (int ea = 0; ea < na; ++ea) {
    if (is_flat_edge(A, ea)) continue;
    const Polytope::Edge& EA = A.shape.edges[ea];
    const Vec3 pa = A.vertex(EA.tail), qa = A.vertex(EA.head);
    const Vec3 da = qa - pa;
    const Vec3 middle_a = 0.5 * (pa + qa);
    const double half_a = 0.5 * da.norm();
    for (int eb = 0; eb < nb; ++eb) {
      const double reach = half_a + half[std::size_t(eb)] + margin;
      if ((middle_a - middle[std::size_t(eb)]).squaredNorm() > reach * reach) continue;
      const Polytope::Edge& EB = B.shape.edges[eb];
      const Vec3 pb = B.vertex(EB.tail), qb = B.vertex(EB.head);
      const SegmentSegment near = segment_segment(pa, qa, pb, qb);  // Alg. 7
      if ((near.c2 - near.c1).norm() > eps) continue;
      if (!strictly_inside(near.s) || !strictly_inside(near.t) || is_flat_edge(B, eb)) continue;
      // An edge pair whose orientation (3.6) is undecided has no signed normal.
      const Vec3 o = (qb - pb).cross(-(B.normal(EB.face_left) + B.normal(EB.face_right)));
      if (std::abs(da.dot(o)) <= kParallel * da.norm() * o.norm()) continue;
      Contact c;
      if (edge_edge_contact(A, a_body, ea, B, b_body, eb, settings, c)) out.push_back(c);
    }
  }
}

}  // namespace pegsim
