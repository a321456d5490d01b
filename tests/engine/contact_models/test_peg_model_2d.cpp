// PEG-2D (thesis §4.3, Alg. 8-11): which constraints it builds from the narrow phase's
// contacts between polygons, against hand-solved configurations.
#include <gtest/gtest.h>

#include <algorithm>

#include "bodies_2d.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/contact_models/peg_model.hpp"
#include "engine/contact_models/standard_model.hpp"
#include "engine/geometry/polygon_overlap.hpp"

namespace pegsim {
namespace {

std::vector<Contact> contacts_of(const test::World& w, const Settings& settings) {
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(w.model, w.state, settings, broad, contacts);
  return contacts;
}

std::vector<int> members_of(const ConstraintSet& set, const ConstraintGroup& g) {
  return {set.members.begin() + g.first, set.members.begin() + g.first + g.count};
}

// The contact C(v, e) of vertex v of `vertex_body` against edge e of `edge_body`.
int find_contact(const std::vector<Contact>& contacts, int vertex_body, int v, int edge_body,
                 int e) {
  for (int i = 0; i < static_cast<int>(contacts.size()); ++i) {
    const Contact& c = contacts[i];
    if (c.body_b == vertex_body && c.feature_b.index == v && c.body_a == edge_body &&
        c.feature_a.kind == FeatureKind::Edge && c.feature_a.index == e)
      return i;
  }
  return -1;
}

// The world outline of a polygon body, counter-clockwise.
std::vector<Vec2> outline(const test::World& w, int body) {
  const PosedPolygon p(*w.model.bodies[body].shape.polygon, w.state.bodies[body]);
  std::vector<Vec2> out;
  for (int v = 0; v < p.shape.size(); ++v) out.push_back(p.vertex(v));
  return out;
}

// make_rectangle lists the corners bottom-left, bottom-right, top-right, top-left; edge e
// joins corner e to corner e + 1: 0 bottom, 1 right, 2 top, 3 left.
enum Corner { kBottomLeft, kBottomRight, kTopRight, kTopLeft };
enum Side { kBottom, kRight, kTop, kLeft };

// Alg. 8 / (4.16): a small square resting in the middle of a large one is four vertex-edge
// contacts away from any vertex of the other: every primary contact is a U-constraint,
// exactly the standard model's set.
TEST(PegModel2d, VertexEdgeContactsAreUnilateralLikeTheStandardModel) {
  test::World w;
  test::add_polygon(w, "base", make_rectangle(2, 1), 1.0, Vec2(0, -0.5), 0.0, true);
  test::add_polygon(w, "box", make_rectangle(0.5, 0.5), 1.0, Vec2(0.1, 0.26));
  Settings settings = test::planar_settings(ContactModel::Peg);
  std::vector<Contact> contacts = contacts_of(w, settings);
  ASSERT_EQ(contacts.size(), 2u);  // the box's bottom corners on the base's top edge
  const std::size_t detected = contacts.size();
  ConstraintSet peg;
  peg_model(w.model, w.state, settings, contacts, peg);
  EXPECT_EQ(contacts.size(), detected);
  std::vector<int> enforced, duplicate_of;
  standard_model(contacts, enforced, duplicate_of);
  ASSERT_EQ(peg.groups.size(), enforced.size());
  for (std::size_t g = 0; g < peg.groups.size(); ++g) {
    EXPECT_EQ(peg.groups[g].kind, ConstraintKind::Unilateral);
    EXPECT_EQ(peg.primary(peg.groups[g]), enforced[g]);
  }
}

// Alg. 10 / (4.17), Fig. 4.3: the bottom-left corner v_a of square A sits 2 cm right of and
// 1 cm above the top-right corner v_b of the static square B = [-1, 0]^2. By hand:
//   C1 = C(v_a, e_b1 = B's right edge, +x)  psi_1 = 0.02
//   C2 = C(v_a, e_b2 = B's top edge, +y)    psi_2 = 0.01
//   C3 = C(v_b, e_a1 = A's left edge, -x)   psi_3 = 0.02
//   C4 = C(v_b, e_a2 = A's bottom edge, -y) psi_4 = 0.01
// all applicable (APPL (3.3) = 0 >= -0.15) and feasible, so C-SPLIT puts each in C_iota and
// the single primary (4.14) of each constraint is its larger gap:
//   I(C1, C2), I(C3, C4), X(C1, C4), X(C3, C2).
TEST(PegModel2d, CornerToCornerGivesTwoInterAndTwoCrossContacts) {
  test::World w;
  const int a = test::add_polygon(w, "A", make_rectangle(1, 1), 1.0, Vec2(0.52, 0.51));
  const int b = test::add_polygon(w, "B", make_rectangle(1, 1), 1.0, Vec2(-0.5, -0.5), 0.0, true);
  Settings settings = test::planar_settings(ContactModel::Peg);
  std::vector<Contact> contacts = contacts_of(w, settings);
  const int c1 = find_contact(contacts, a, kBottomLeft, b, kRight);
  const int c2 = find_contact(contacts, a, kBottomLeft, b, kTop);
  const int c3 = find_contact(contacts, b, kTopRight, a, kLeft);
  const int c4 = find_contact(contacts, b, kTopRight, a, kBottom);
  ASSERT_TRUE(c1 >= 0 && c2 >= 0 && c3 >= 0 && c4 >= 0);
  EXPECT_NEAR(contacts[c1].gap, 0.02, 1e-12);
  EXPECT_NEAR(contacts[c2].gap, 0.01, 1e-12);
  EXPECT_NEAR(contacts[c3].gap, 0.02, 1e-12);
  EXPECT_NEAR(contacts[c4].gap, 0.01, 1e-12);
  for (int i : {c1, c2, c3, c4}) EXPECT_TRUE(contacts[i].primary()) << i;

  ConstraintSet set;
  peg_model(w.model, w.state, settings, contacts, set);
  ASSERT_EQ(set.groups.size(), 4u);
  auto expect_group = [&](ConstraintKind kind, int primary, int other) {
    const bool found = std::any_of(set.groups.begin(), set.groups.end(), [&](const auto& g) {
      return g.kind == kind && members_of(set, g) == std::vector<int>{primary, other};
    });
    EXPECT_TRUE(found) << to_string(kind) << " (" << primary << ", " << other << ")";
  };
  expect_group(ConstraintKind::InterContact, c1, c2);
  expect_group(ConstraintKind::InterContact, c3, c4);
  expect_group(ConstraintKind::CrossContact, c1, c4);
  expect_group(ConstraintKind::CrossContact, c3, c2);
}

// Alg. 9 (C-SPLIT): square A rests on the static square B with its bottom-left corner 2 cm
// left of B's top-left corner and 1 mm above it. v_a against B's left edge and v_b against
// A's left edge are not applicable (an edge of each vertex points straight at the other
// edge: APPL = -1), so they only shape the geometry (C_kappa): I(C(v_a, top) | C(v_a, left))
// and I(C(v_b, A's bottom) | C(v_b, A's left)). The X-constraint of the two applicable
// contacts has one of them as primary; that of the two inapplicable ones has the one of larger
// gap, C(v_a, left) at 0.02 (peg_model_2d.cpp). B's top-right corner under A's bottom edge is
// a vertex-edge case: U.
TEST(PegModel2d, CSplitKeepsInapplicableContactsAsGeometryOnly) {
  test::World w;
  const int b = test::add_polygon(w, "B", make_rectangle(1, 1), 1.0, Vec2(0, 0.5), 0.0, true);
  // 1.5 m wide, so that its bottom-right corner is far from B's top-right one.
  const int a = test::add_polygon(w, "A", make_rectangle(1.5, 1), 1.0, Vec2(0.23, 1.501));
  Settings settings = test::planar_settings(ContactModel::Peg);
  std::vector<Contact> contacts = contacts_of(w, settings);
  const int top = find_contact(contacts, a, kBottomLeft, b, kTop);
  const int left = find_contact(contacts, a, kBottomLeft, b, kLeft);
  const int bottom = find_contact(contacts, b, kTopLeft, a, kBottom);
  const int a_left = find_contact(contacts, b, kTopLeft, a, kLeft);
  ASSERT_TRUE(top >= 0 && left >= 0 && bottom >= 0 && a_left >= 0);
  EXPECT_NEAR(contacts[top].gap, 0.001, 1e-12);
  EXPECT_NEAR(contacts[left].gap, 0.02, 1e-12);
  EXPECT_NEAR(contacts[bottom].gap, 0.001, 1e-12);
  EXPECT_NEAR(contacts[a_left].gap, -0.02, 1e-12);
  EXPECT_DOUBLE_EQ(contacts[left].applicability, -1.0);
  EXPECT_DOUBLE_EQ(contacts[a_left].applicability, -1.0);

  ConstraintSet set;
  peg_model(w.model, w.state, settings, contacts, set);
  int inter = 0, cross = 0, unilateral = 0;
  for (const ConstraintGroup& g : set.groups) {
    std::vector<int> m = members_of(set, g);
    if (g.kind == ConstraintKind::Unilateral) {
      ++unilateral;
      EXPECT_EQ(contacts[m[0]].body_b, b);
      EXPECT_EQ(contacts[m[0]].feature_b.index, kTopRight);
    } else if (g.kind == ConstraintKind::InterContact) {
      ++inter;
      EXPECT_TRUE(m == (std::vector<int>{top, left}) || m == (std::vector<int>{bottom, a_left}));
    } else {
      ASSERT_EQ(g.kind, ConstraintKind::CrossContact);
      ++cross;
      if (m[0] == left) {
        EXPECT_EQ(m, (std::vector<int>{left, a_left}));
        continue;
      }
      std::sort(m.begin(), m.end());  // a tie of gaps: either may be the primary
      EXPECT_EQ(m, (std::vector<int>{std::min(top, bottom), std::max(top, bottom)}));
    }
  }
  EXPECT_EQ(unilateral, 1);
  EXPECT_EQ(inter, 2);
  EXPECT_EQ(cross, 2);
}

// (4.6), Fig. 4.4: two squares (turned 0.25 and 0.16 rad) whose corners v_a and v_b are
// 3.6 cm apart overlap by 0.0164 m^2 although neither corner is inside the other square:
// psi_1 < 0 and psi_4 < 0 while psi_2, psi_3 > 0. The I-constraints of (4.5) (LNC) hold,
// max(psi_1, psi_2) >= 0 and max(psi_3, psi_4) >= 0; only the X-constraint X({C1}, {C4})
// is violated, so PEG-2D must pair C1 with C4. (C1 and C4 are not applicable, APPL = -0.996:
// the X-constraint is kept with the larger gap as its primary.)
TEST(PegModel2d, CrossContactPairsTheContactsWhoseEdgesCross) {
  test::World w;
  const int a = test::add_polygon(w, "A", make_rectangle(1, 1), 1.0, Vec2(0, 0), 0.25);
  const int b = test::add_polygon(w, "B", make_rectangle(1, 1), 1.0,
                                  Vec2(0.9690269762229973, 0.20120365210189334), 0.16);
  const int va = kTopRight, vb = kTopLeft;  // e_a1 = right, e_a2 = top; e_b1 = top, e_b2 = left
  EXPECT_NEAR((outline(w, b)[vb] - outline(w, a)[va] - Vec2(0.035, 0.007)).norm(), 0.0, 1e-12);
  EXPECT_NEAR(polygon_overlap_area(outline(w, a), outline(w, b)), 0.016388648417859905, 1e-9);

  Settings settings = test::planar_settings(ContactModel::Peg);
  std::vector<Contact> contacts = contacts_of(w, settings);
  ConstraintSet set;
  peg_model(w.model, w.state, settings, contacts, set);  // may append C1..C4
  const int c1 = find_contact(contacts, a, va, b, kTop);
  const int c2 = find_contact(contacts, a, va, b, kLeft);
  const int c3 = find_contact(contacts, b, vb, a, kRight);
  const int c4 = find_contact(contacts, b, vb, a, kTop);
  ASSERT_TRUE(c1 >= 0 && c2 >= 0 && c3 >= 0 && c4 >= 0);
  EXPECT_NEAR(contacts[c1].gap, -0.0013344537521307875, 1e-12);
  EXPECT_NEAR(contacts[c2].gap, 0.03566818236444664, 1e-12);
  EXPECT_NEAR(contacts[c3].gap, 0.03564376247465423, 1e-12);
  EXPECT_NEAR(contacts[c4].gap, -0.0018767516219337773, 1e-12);
  bool crossing = false;
  for (const ConstraintGroup& g : set.groups) {
    std::vector<int> m = members_of(set, g);
    std::sort(m.begin(), m.end());
    std::vector<int> want{c1, c4};
    std::sort(want.begin(), want.end());
    if (g.kind == ConstraintKind::CrossContact && m == want) crossing = true;
    // Every constraint but that one is satisfied by the configuration.
    double largest = -1.0;
    for (int i : m) largest = std::max(largest, contacts[i].gap);
    if (m != want) {
      EXPECT_GT(largest, 0.0) << to_string(g.kind);
    }
  }
  EXPECT_TRUE(crossing);
}

}  // namespace
}  // namespace pegsim
