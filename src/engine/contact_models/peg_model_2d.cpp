#include "engine/contact_models/peg_model_2d.hpp"

#include <utility>

#include "engine/collision/polygon_contacts.hpp"
#include "engine/contact_models/constraint_groups.hpp"
#include "engine/geometry/compound.hpp"

namespace pegsim {
namespace {

struct Pair {
  const PegPolygon& A;
  const PegPolygon& B;
  const Settings& settings;
  const std::vector<int>& narrow;
  std::vector<Contact>& contacts;
  ConstraintSet& set;
  int appended_from;  // contacts built for this pair start here
};

bool is_vertex_edge(const Contact& c, const PegPolygon& V, int v, const PegPolygon& E, int e) {
  return c.body_b == V.body && c.part_b == V.part && c.feature_b.index == v && c.body_a == E.body &&
         c.part_a == E.part && c.feature_a.kind == FeatureKind::Edge && c.feature_a.index == e;
}

// A vertex of a compound's part lying deeper than the feasibility depth inside another part
// of the compound: inside the body, on no surface (§4.5).
bool buried(const PegPolygon& P, int v, const Settings& settings) {
  if (!P.compound) return false;
  const Vec3 x = to_world3(P.polygon.vertex(v));
  const BodyState& b = *P.body_pose;
  return buried_in_other_part(*P.compound, P.part, b.orientation.conjugate() * (x - b.position),
                              settings.feasibility_depth);
}

// C(v, e) with v of V and e of E: the narrow phase's contact, or one built and appended.
int vertex_edge(Pair& p, const PegPolygon& V, int v, const PegPolygon& E, int e) {
  std::vector<Contact>& contacts = p.contacts;
  for (int i : p.narrow)
    if (is_vertex_edge(contacts[i], V, v, E, e)) return i;
  for (int i = p.appended_from; i < static_cast<int>(contacts.size()); ++i)
    if (is_vertex_edge(contacts[i], V, v, E, e)) return i;
  const Settings& settings = p.settings;
  contacts.push_back(vertex_edge_contact(V.polygon, V.body, v, E.polygon, E.body, e, settings));
  contacts.back().part_a = E.part;
  contacts.back().part_b = V.part;
  return static_cast<int>(contacts.size()) - 1;
}

// Alg. 10 / (4.17). With both polygons counter-clockwise, e_a1 = (v_a-1, v_a) and
// e_a2 = (v_a, v_a+1), and likewise for B. Near the meeting point A's e_a2 runs beside B's
// e_b1 (the boundaries pass in opposite directions), so v_a under e_b1 (psi_1 < 0) together
// with v_b under e_a2 (psi_4 < 0) means those two edges cross: X({C1}, {C4}); likewise
// X({C2}, {C3}) for e_a1 and e_b2. An X-constraint is written as an I-constraint (§4.2.3).
// X({C_i}, {C_j}) written as an I-constraint (§4.2.3) needs a contact to carry its force:
// C-SPLIT's C_iota, or, when neither contact may carry a force, the one of larger gap (the one
// the max of (4.6) picks). Unlike an I-constraint it is never dropped: (4.17) always holds it,
// and without it two edges may cross with both vertices outside (Fig. 4.4).
void cross_contact(Pair& p, int ci, int cj) {
  if (add_inter_contact(p.contacts, ConstraintKind::CrossContact, {ci, cj}, p.set)) return;
  if (p.contacts[cj].gap > p.contacts[ci].gap) std::swap(ci, cj);
  p.set.add(ConstraintKind::CrossContact, {ci, cj});
}

void vertex_vertex(Pair& p, int va, int vb) {
  const auto [ea1, ea2] = p.A.polygon.shape.vertex_edges(va);
  const auto [eb1, eb2] = p.B.polygon.shape.vertex_edges(vb);
  const int c1 = vertex_edge(p, p.A, va, p.B, eb1);
  const int c2 = vertex_edge(p, p.A, va, p.B, eb2);
  const int c3 = vertex_edge(p, p.B, vb, p.A, ea1);
  const int c4 = vertex_edge(p, p.B, vb, p.A, ea2);
  // I(C-SPLIT({C1, C2})), I(C-SPLIT({C3, C4})): Alg. 9 inside add_inter_contact.
  add_inter_contact(p.contacts, ConstraintKind::InterContact, {c1, c2}, p.set);
  add_inter_contact(p.contacts, ConstraintKind::InterContact, {c3, c4}, p.set);
  cross_contact(p, c1, c4);
  cross_contact(p, c2, c3);
}

}  // namespace

void peg_2d(const PegPolygon& A, const PegPolygon& B, const Settings& settings,
            const std::vector<int>& narrow, std::vector<Contact>& contacts, ConstraintSet& set,
            std::vector<char>& vertex_done) {
  // vertex_done: A's vertices, then B's (v.collision of Alg. 11).
  const int na = A.polygon.shape.size();
  vertex_done.assign(na + B.polygon.shape.size(), 0);
  Pair pair{A, B, settings, narrow, contacts, set, static_cast<int>(contacts.size())};
  const double eps2 = settings.epsilon * settings.epsilon;
  for (int va = 0; va < na; ++va)
    for (int vb = 0; vb < B.polygon.shape.size(); ++vb) {
      if ((A.polygon.vertex(va) - B.polygon.vertex(vb)).squaredNorm() > eps2) continue;
      if (buried(A, va, settings) || buried(B, vb, settings)) continue;
      vertex_vertex(pair, va, vb);
      vertex_done[va] = vertex_done[na + vb] = 1;
    }
  // Alg. 8 for the vertices no vertex-vertex case took: U(C(v, e)) when applicable and
  // feasible (4.16). The narrow phase reported every vertex within epsilon of an edge.
  for (int i : narrow) {
    const Contact& c = contacts[i];
    if (c.feature_a.kind != FeatureKind::Edge || c.feature_b.kind != FeatureKind::Vertex) continue;
    const int v = c.feature_b.index + (c.body_b == A.body ? 0 : na);
    if (!vertex_done[v] && c.primary()) set.add(ConstraintKind::Unilateral, {i});
  }
}

}  // namespace pegsim
