#include "engine/contact_models/peg_model.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/collision/closest_points.hpp"
#include "engine/collision/feasibility.hpp"
#include "engine/collision/polytope_contacts.hpp"
#include "engine/collision/posed_polytope.hpp"
#include "engine/contact_models/constraint_groups.hpp"
#include "engine/contact_models/peg_model_2d.hpp"
#include "engine/core/part_state.hpp"
#include "engine/geometry/compound.hpp"

namespace pegsim {
namespace {

// One body of the pair (or one convex part of a compound body, §4.5) with the collision
// vertex marks of Alg. 17.
struct Side {
  PosedPolytope poly;
  int body;
  int part;                       // the compound's part, -1 for a polytope body
  std::vector<char> vertex_done;  // the vertex took part in a vertex-vertex or vertex-edge case

  Side(const Polytope& p, const BodyState& s, int b, int k)
      : poly(p, s), body(b), part(k), vertex_done(p.vertices.size(), 0) {}
  int other_end(int e, int v) const {
    const Polytope::Edge& E = poly.shape.edges[e];
    return E.tail == v ? E.head : E.tail;
  }
};

bool is_vertex_face(const Contact& c) {
  return c.feature_a.kind == FeatureKind::Face && c.feature_b.kind == FeatureKind::Vertex;
}
bool is_edge_edge(const Contact& c) {
  return c.feature_a.kind == FeatureKind::Edge && c.feature_b.kind == FeatureKind::Edge;
}
bool same_features(const Contact& c, const Side& A, Feature fa, const Side& B, Feature fb) {
  return c.body_a == A.body && c.body_b == B.body && c.part_a == A.part && c.part_b == B.part &&
         c.feature_a.kind == fa.kind && c.feature_a.index == fa.index &&
         c.feature_b.kind == fb.kind && c.feature_b.index == fb.index;
}

// Alg. 17 for one pair of polytopes.
class PegPair {
 public:
  // `buried` tells whether a world point lies inside another part of a compound side, deeper
  // than the feasibility depth: the vertex or edge point there is not on the body's surface.
  PegPair(const Settings& settings, std::vector<Contact>& contacts, ConstraintSet& set, Side& a,
          Side& b, const std::function<bool(const Side&, const Vec3&)>& buried)
      : settings_(settings), contacts_(contacts), set_(set), a_(a), b_(b), buried_(buried) {}

  void run(const std::vector<int>& narrow) {
    const double eps = settings_.epsilon;
    // Vertex-vertex.
    for (int va = 0; va < static_cast<int>(a_.poly.shape.vertices.size()); ++va)
      for (int vb = 0; vb < static_cast<int>(b_.poly.shape.vertices.size()); ++vb)
        if ((a_.poly.vertex(va) - b_.poly.vertex(vb)).norm() <= eps &&
            !buried_(a_, a_.poly.vertex(va)) && !buried_(b_, b_.poly.vertex(vb)))
          vertex_vertex(va, vb);
    // Vertex-edge, both ways: a vertex takes its first edge within epsilon.
    for (auto [V, E] : {std::pair<Side*, Side*>{&a_, &b_}, {&b_, &a_}}) {
      for (int v = 0; v < static_cast<int>(V->poly.shape.vertices.size()); ++v) {
        if (V->vertex_done[v]) continue;
        const Vec3 x = V->poly.vertex(v);
        if (buried_(*V, x)) continue;
        for (int e = 0; e < static_cast<int>(E->poly.shape.edges.size()); ++e) {
          if (is_flat_edge(E->poly, e)) continue;
          const Polytope::Edge& edge = E->poly.shape.edges[e];
          const Vec3 p =
              point_segment(E->poly.vertex(edge.tail), E->poly.vertex(edge.head), x).point;
          if ((x - p).norm() > eps || buried_(*E, p)) continue;
          if (!has_primary_face(*V, v, *E, e)) continue;
          vertex_edge(*V, v, *E, e);
          break;
        }
      }
    }
    // Vertex-face (Alg. 12) for the vertices no case above took.
    for (int i : narrow) {
      const Contact& c = contacts_[i];
      if (!is_vertex_face(c)) continue;
      if (side(c.body_b, c.part_b).vertex_done[c.feature_b.index]) continue;
      add_inter_contact(contacts_, ConstraintKind::Unilateral, {i}, set_);
    }
    // Edge-edge (Alg. 13) unless both edges already take part in a constraint; applicable and,
    // like Alg. 12's vertex-face contact, feasible: a deep pair that is no crossing (an edge on
    // B's far side, see edge_edge_feasible) is no contact the step can keep.
    for (int i : narrow) {
      const Contact& c = contacts_[i];
      if (!is_edge_edge(c)) continue;
      const bool a_first = c.body_a == a_.body && c.part_a == a_.part;
      if (crossed(a_first ? c.feature_a.index : c.feature_b.index,
                  a_first ? c.feature_b.index : c.feature_a.index))
        continue;
      if (c.primary()) set_.add(ConstraintKind::Unilateral, {i});
    }
  }

 private:
  Side& side(int body, int part) { return body == a_.body && part == a_.part ? a_ : b_; }

  // The e.collision marks of Alg. 17, kept per pair of edges (e_a of A, e_b of B): the pairs
  // Alg. 14 wrote X-constraints for, whose U-constraint (4.19) would undo them (it would not
  // let e_a pass e_b's line on the side the X-constraint allows: a trap like the SM's). The
  // thesis marks each edge on its own, which is the same within one vertex-edge or
  // vertex-vertex configuration, but across two it also drops pairs neither configuration
  // constrains: a tetrahedron face landing across a cube's rim, its vertex v0 near the rim
  // (marking the rim) and v2 on the top face (marking the edge v2-v1 that crosses the rim),
  // lost the only contact between v2-v1 and the rim and fell through it.
  void mark_crossed(const Side& V, int ev, int ee) {
    crossed_.push_back(&V == &a_ ? std::pair{ev, ee} : std::pair{ee, ev});
  }
  bool crossed(int ea, int eb) const {
    return std::find(crossed_.begin(), crossed_.end(), std::pair{ea, eb}) != crossed_.end();
  }

  // Whether v has a primary contact with a face of edge e. Alg. 17 gives a vertex to the first
  // edge within epsilon; with a large epsilon (polyhedra_pour: 10 cm against bodies 30 cm
  // across) that can be an edge whose faces v lies deep below, and C-split then drops both
  // contacts of Alg. 15's I-constraint while the vertex, taken, gets no Alg. 12 contact with
  // the face it is about to hit (seed 2, h = 0.01, step 242: 5.8 mm above it, issue 6).
  bool has_primary_face(const Side& V, int v, const Side& E, int e) const {
    const Polytope::Edge& edge = E.poly.shape.edges[e];
    for (int f : {edge.face_left, edge.face_right})
      if (vertex_face_contact(V.poly, V.body, v, E.poly, E.body, f, settings_).primary())
        return true;
    return false;
  }

  // C(v, f), from the narrow phase's list or built and appended.
  int vertex_face(const Side& V, int v, const Side& F, int f) {
    for (int i = 0; i < static_cast<int>(contacts_.size()); ++i)
      if (same_features(contacts_[i], F, {FeatureKind::Face, f}, V, {FeatureKind::Vertex, v}))
        return i;
    contacts_.push_back(vertex_face_contact(V.poly, V.body, v, F.poly, F.body, f, settings_));
    contacts_.back().part_a = F.part;
    contacts_.back().part_b = V.part;
    return static_cast<int>(contacts_.size()) - 1;
  }

  // C(e_a, e_b) with A the owner of e_a, or -1 for parallel edges.
  int edge_edge(const Side& A, int ea, const Side& B, int eb) {
    for (int i = 0; i < static_cast<int>(contacts_.size()); ++i)
      if (same_features(contacts_[i], A, {FeatureKind::Edge, ea}, B, {FeatureKind::Edge, eb}) &&
          !is_flipped(i))
        return i;
    Contact c;
    if (!edge_edge_contact(A.poly, A.body, ea, B.poly, B.body, eb, settings_, c)) return -1;
    c.part_a = A.part;
    c.part_b = B.part;
    contacts_.push_back(c);
    return static_cast<int>(contacts_.size()) - 1;
  }

  // C4 of Alg. 14: C3 (e_a of A against e_b of B) with its normal flipped, so its gap is
  // -psi_3, and feasible as a pair of edges that far apart on that side.
  int flipped(int c3, const Side& A, const Side& B) {
    for (const auto& [from, to] : flips_)
      if (from == c3) return to;
    Contact c = contacts_[c3];
    c.normal = -c.normal;
    c.gap = -c.gap;
    const Polytope::Edge& ea = A.poly.shape.edges[c.feature_a.index];
    const Polytope::Edge& eb = B.poly.shape.edges[c.feature_b.index];
    const SegmentSegment near = segment_segment(A.poly.vertex(ea.tail), A.poly.vertex(ea.head),
                                                B.poly.vertex(eb.tail), B.poly.vertex(eb.head));
    c.feasible = edge_edge_feasible(A.poly, near.c1, B.poly, near.c2, c.normal, settings_);
    contacts_.push_back(c);
    const int c4 = static_cast<int>(contacts_.size()) - 1;
    flips_.push_back({c3, c4});
    return c4;
  }
  bool is_flipped(int i) const {
    return std::any_of(flips_.begin(), flips_.end(), [&](const auto& f) { return f.second == i; });
  }

  // Alg. 16 / (4.21): v_a against the faces around v_b, v_b against the faces around v_a,
  // and the X-constraints of every edge at either vertex.
  void vertex_vertex(int va, int vb) {
    std::vector<int> members;
    for (int f : b_.poly.shape.vertex_faces[vb]) members.push_back(vertex_face(a_, va, b_, f));
    add_inter_contact(contacts_, ConstraintKind::InterContact, members, set_);
    members.clear();
    for (int f : a_.poly.shape.vertex_faces[va]) members.push_back(vertex_face(b_, vb, a_, f));
    add_inter_contact(contacts_, ConstraintKind::InterContact, members, set_);
    for (int eb : b_.poly.shape.vertex_edges[vb])
      if (!is_flat_edge(b_.poly, eb)) x_constraints(a_, va, b_, eb);
    for (int ea : a_.poly.shape.vertex_edges[va])
      if (!is_flat_edge(a_.poly, ea)) x_constraints(b_, vb, a_, ea);
    a_.vertex_done[va] = b_.vertex_done[vb] = 1;
  }

  // Alg. 15 / (4.20): I(C-split({C(v, e.f1), C(v, e.f2)})) and the X-constraints.
  void vertex_edge(Side& V, int v, Side& E, int e) {
    const Polytope::Edge& edge = E.poly.shape.edges[e];
    add_inter_contact(contacts_, ConstraintKind::InterContact,
                      {vertex_face(V, v, E, edge.face_left), vertex_face(V, v, E, edge.face_right)},
                      set_);
    x_constraints(V, v, E, e);
    V.vertex_done[v] = 1;
  }

  // Alg. 14: each edge e_a of v (applicable with e_b) may not cross e_b while v is past the
  // face of e_b on e_a's side: X(C(v, f), C(e_a, e_b)), written as an I-constraint (§4.2.3).
  // Faces: f1 = face_left, f2 = face_right of e_b, and O_eb of (3.6) points over f1.
  //
  // The side e_a leans to is e_a . O_eb in the cross-section normal to e_b, where O_eb and
  // the faces live (Fig. 4.8): over |e_a x e_b| (unit vectors), not |e_a|. It equals
  // -n . (eta_1 + eta_2) / |eta_1 + eta_2| for the normal n of (3.6), so the undecided band is
  // where n's sign is undecided, as §3.4 means. The thesis' e_a / |e_a| is the same for an e_a
  // across e_b but shrinks with the angle between them: an e_a nearly along e_b fell in the
  // band although n surely points into B, and the flipped C4 then stated "e_a's line past
  // e_b's line, into B", violated by the whole gap between two edges that do not touch; its
  // impulse pulled the bodies together (pour20's pile, issue 6).
  void x_constraints(const Side& V, int v, const Side& E, int eb) {
    const Polytope::Edge& edge = E.poly.shape.edges[eb];
    const int c1 = vertex_face(V, v, E, edge.face_left);
    const int c2 = vertex_face(V, v, E, edge.face_right);
    const Vec3 along = E.poly.edge_vector(eb).normalized();
    const Vec3 o =
        along.cross(-(E.poly.normal(edge.face_left) + E.poly.normal(edge.face_right))).normalized();
    const double limit = std::abs(settings_.eps_theta);
    for (int ea : V.poly.shape.vertex_edges[v]) {
      if (is_flat_edge(V.poly, ea)) continue;
      mark_crossed(V, ea, eb);
      const int c3 = edge_edge(V, ea, E, eb);
      if (c3 < 0 || contacts_[c3].applicability < settings_.eps_theta) continue;
      const Vec3 dir = (V.poly.vertex(V.other_end(ea, v)) - V.poly.vertex(v)).normalized();
      const double side = dir.dot(o) / dir.cross(along).norm();  // c3 >= 0: not parallel
      const auto x = [&](int face_contact, int edge_contact) {
        add_inter_contact(contacts_, ConstraintKind::CrossContact, {face_contact, edge_contact},
                          set_);
      };
      if (side >= limit) {
        x(c1, c3);  // only e_b.f1
      } else if (side <= -limit) {
        x(c2, c3);  // only e_b.f2
      } else {
        const int c4 = flipped(c3, V, E);
        x(side >= 0.0 ? c1 : c2, c3);
        x(side >= 0.0 ? c2 : c1, c4);
      }
    }
  }

  const Settings& settings_;
  std::vector<Contact>& contacts_;
  ConstraintSet& set_;
  Side& a_;
  Side& b_;
  const std::function<bool(const Side&, const Vec3&)>& buried_;
  std::vector<std::pair<int, int>> flips_;    // C3 -> C4
  std::vector<std::pair<int, int>> crossed_;  // (e_a, e_b) pairs Alg. 14 took
};

// The polytope of a contact's side: the body's, or its compound part's; null otherwise.
const Polytope* polytope_of(const Model& model, int body, int part) {
  const Shape& s = model.bodies[body].shape;
  if (s.kind == ShapeKind::Compound && part >= 0) {
    const Shape& p = s.compound->parts[part].shape;
    return p.kind == ShapeKind::Polytope ? p.polytope.get() : nullptr;
  }
  return s.kind == ShapeKind::Polytope ? s.polytope.get() : nullptr;
}

// World pose of a body, or of its compound part, with the body's twist at that part's origin
// (the feasibility test reads the velocities of contact points).
BodyState pose_of(const Model& model, const State& state, int body, int part) {
  const BodyState& b = state.bodies[body];
  if (part < 0) return b;
  return part_state(b, model.bodies[body].shape.compound->parts[part]);
}

// The polygon of a contact's side: the body's, or its planar compound part's; null otherwise.
const Polygon* polygon_of(const Model& model, int body, int part) {
  const Shape& s = model.bodies[body].shape;
  if (s.kind == ShapeKind::Compound && part >= 0) {
    const Shape& p = s.compound->parts[part].shape;
    return p.kind == ShapeKind::Polygon ? p.polygon.get() : nullptr;
  }
  return s.kind == ShapeKind::Polygon ? s.polygon.get() : nullptr;
}

// The compound of a body, or null.
const Compound* compound_of(const Model& model, int body) {
  const Shape& s = model.bodies[body].shape;
  return s.kind == ShapeKind::Compound ? s.compound.get() : nullptr;
}

// A pair of convex polytopes: (body, part) of each side, the lower body first.
struct PartPair {
  int body_a, part_a, body_b, part_b;
  bool operator==(const PartPair&) const = default;
};

PartPair part_pair(const Contact& c) {
  if (c.body_a < c.body_b) return {c.body_a, c.part_a, c.body_b, c.part_b};
  return {c.body_b, c.part_b, c.body_a, c.part_a};
}

}  // namespace

void peg_model(const Model& model, const State& state, const Settings& settings,
               std::vector<Contact>& contacts, ConstraintSet& set) {
  set.clear();
  const int narrow_count = static_cast<int>(contacts.size());
  std::vector<PartPair> pairs;  // polytope (or compound part) and polygon pairs, by first contact
  for (int i = 0; i < narrow_count; ++i) {
    const Contact& c = contacts[i];
    const bool polytopes =
        polytope_of(model, c.body_a, c.part_a) && polytope_of(model, c.body_b, c.part_b);
    const bool polygons =
        polygon_of(model, c.body_a, c.part_a) && polygon_of(model, c.body_b, c.part_b);
    if (!polytopes && !polygons) {
      // sphere, plane, circle, half-plane: (4.7)
      if (c.primary()) set.add(ConstraintKind::Unilateral, {i});
      continue;
    }
    const PartPair pair = part_pair(c);
    if (std::find(pairs.begin(), pairs.end(), pair) == pairs.end()) pairs.push_back(pair);
  }
  // §4.5: PEG runs on each pair of convex parts independently; points of a part buried in
  // another part of its compound lie inside the body and make no vertex or edge case.
  const std::function<bool(const Side&, const Vec3&)> buried = [&](const Side& s, const Vec3& x) {
    if (s.part < 0) return false;
    const BodyState& b = state.bodies[s.body];
    return buried_in_other_part(*model.bodies[s.body].shape.compound, s.part,
                                b.orientation.conjugate() * (x - b.position),
                                settings.feasibility_depth);
  };
  std::vector<int> narrow;
  std::vector<char> vertex_done;
  for (const PartPair& p : pairs) {
    narrow.clear();
    for (int i = 0; i < narrow_count; ++i)
      if (part_pair(contacts[i]) == p) narrow.push_back(i);
    if (const Polygon* pa = polygon_of(model, p.body_a, p.part_a)) {  // Alg. 11, per part (§4.5)
      peg_2d({PosedPolygon(*pa, pose_of(model, state, p.body_a, p.part_a)), p.body_a, p.part_a,
              compound_of(model, p.body_a), &state.bodies[p.body_a]},
             {PosedPolygon(*polygon_of(model, p.body_b, p.part_b),
                           pose_of(model, state, p.body_b, p.part_b)),
              p.body_b, p.part_b, compound_of(model, p.body_b), &state.bodies[p.body_b]},
             settings, narrow, contacts, set, vertex_done);
      continue;
    }
    Side A(*polytope_of(model, p.body_a, p.part_a), pose_of(model, state, p.body_a, p.part_a),
           p.body_a, p.part_a);
    Side B(*polytope_of(model, p.body_b, p.part_b), pose_of(model, state, p.body_b, p.part_b),
           p.body_b, p.part_b);
    PegPair(settings, contacts, set, A, B, buried).run(narrow);
  }
}

}  // namespace pegsim
