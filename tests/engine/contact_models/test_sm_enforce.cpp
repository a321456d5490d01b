// Settings::sm_enforce: the standard model with its primary contacts only (the default) or with
// every contact within epsilon, as the thesis' experiments run it (§5.2: "simply includes all
// contacts within the epsilon"). A unit square rests on a static block with its bottom-right
// vertex 1 cm short of the block's top-right corner: the vertex is within epsilon of the top
// edge (psi = 0, applicable) and of the side edge (psi = -0.01, not applicable (3.3): its
// bottom edge points into the side edge's half-space), and the block's corner is within
// epsilon of the square's bottom edge (psi = 0, applicable) and right edge (psi = +0.01, not
// applicable). Enforcing all four is the SM trap of Fig. 4.1 twice over, the dual trap of
// Fig. 5.2; enforcing the primary ones lets the square slide.
#include <gtest/gtest.h>

#include <algorithm>

#include "bodies_2d.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/contact_models/sm_traps.hpp"
#include "engine/contact_models/standard_model.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim {
namespace {

struct Corner {
  test::World w;
  int block = -1, square = -1;
};

// The block occupies x in [-2, 0], y in [-2, 0]; the square x in [-1.01, -0.01], y in [0, 1].
// Its moment of inertia is a million times its own, so that an impulse at a vertex turns it
// by less than 1e-6 rad per step and the answers are those of a translating square.
Corner corner() {
  Corner c;
  c.block = test::add_polygon(c.w, "block", make_rectangle(2, 2), 1.0, Vec2(-1, -1), 0.0, true);
  c.square = test::add_polygon(c.w, "square", make_rectangle(1, 1), 1.0, Vec2(-0.51, 0.5));
  c.w.model.bodies[c.square].inertia *= 1e6;
  return c;
}

// The contact of `vertex_body`'s vertex at `at` with the edge of the other body whose outward
// normal is `normal`.
const Contact* find(const std::vector<Contact>& contacts, int vertex_body, const Vec2& at,
                    const Vec2& normal) {
  for (const Contact& c : contacts)
    if (c.body_b == vertex_body && (in_plane(c.point_b()) - at).norm() < 1e-9 &&
        (in_plane(c.normal) - normal).norm() < 1e-12)
      return &c;
  return nullptr;
}

TEST(SmEnforce, NamesParseBothWays) {
  for (SmEnforce e : {SmEnforce::Primary, SmEnforce::All}) {
    SmEnforce parsed = e == SmEnforce::All ? SmEnforce::Primary : SmEnforce::All;
    ASSERT_TRUE(parse_sm_enforce(to_string(e), parsed));
    EXPECT_EQ(parsed, e);
  }
  SmEnforce unchanged = SmEnforce::All;
  EXPECT_FALSE(parse_sm_enforce("every", unchanged));
  EXPECT_EQ(unchanged, SmEnforce::All);
  EXPECT_EQ(Settings{}.sm_enforce, SmEnforce::Primary);
}

// The contact set of the corner: four contacts, two primary (3.3). "primary" enforces those two
// and has no trap; "all" enforces the four, and both vertices are trapped (Fig. 4.1), each
// between an edge it touches and an edge it is not applicable with.
TEST(SmEnforce, AllEnforcesTheInapplicableSideContactsAndTrapsBothVertices) {
  Corner c = corner();
  const Settings settings = test::planar_settings(ContactModel::Standard);
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(c.w.model, c.w.state, settings, broad, contacts);

  const Contact* top = find(contacts, c.square, Vec2(-0.01, 0), Vec2(0, 1));
  const Contact* side = find(contacts, c.square, Vec2(-0.01, 0), Vec2(1, 0));
  const Contact* bottom = find(contacts, c.block, Vec2(0, 0), Vec2(0, -1));
  const Contact* right = find(contacts, c.block, Vec2(0, 0), Vec2(1, 0));
  ASSERT_TRUE(top && side && bottom && right);
  EXPECT_NEAR(top->gap, 0.0, 1e-12);
  EXPECT_NEAR(side->gap, -0.01, 1e-12);
  EXPECT_NEAR(bottom->gap, 0.0, 1e-12);
  EXPECT_NEAR(right->gap, 0.01, 1e-12);
  EXPECT_TRUE(top->primary());
  EXPECT_TRUE(bottom->primary());
  EXPECT_FALSE(side->applicable);
  EXPECT_FALSE(right->applicable);

  auto index = [&](const Contact* p) { return static_cast<int>(p - contacts.data()); };
  auto has = [](const std::vector<int>& v, int i) {
    return std::find(v.begin(), v.end(), i) != v.end();
  };
  std::vector<int> enforced, duplicate_of, trap_contacts;
  std::vector<SmTrap> traps;
  SmTrapWorkspace ws;

  standard_model(contacts, enforced, duplicate_of, SmEnforce::Primary);
  EXPECT_TRUE(has(enforced, index(top)));
  EXPECT_TRUE(has(enforced, index(bottom)));
  EXPECT_FALSE(has(enforced, index(side)));
  EXPECT_FALSE(has(enforced, index(right)));
  for (int i : enforced) EXPECT_TRUE(contacts[i].primary());
  find_sm_traps(contacts, ws, traps, trap_contacts, SmEnforce::Primary);
  EXPECT_TRUE(traps.empty());

  standard_model(contacts, enforced, duplicate_of, SmEnforce::All);
  for (const Contact* p : {top, side, bottom, right}) EXPECT_TRUE(has(enforced, index(p)));
  find_sm_traps(contacts, ws, traps, trap_contacts, SmEnforce::All);
  ASSERT_EQ(traps.size(), 2u);
  for (const SmTrap& t : traps) {
    EXPECT_EQ(t.feature.kind, FeatureKind::Vertex);
    EXPECT_EQ(t.count, 2);
    const std::vector<int> facets(trap_contacts.begin() + t.first,
                                  trap_contacts.begin() + t.first + t.count);
    if (t.body == c.square) {
      EXPECT_EQ(t.other_body, c.block);
      EXPECT_TRUE(has(facets, index(top)) && has(facets, index(side)));
    } else {
      EXPECT_EQ(t.body, c.block);
      EXPECT_TRUE(has(facets, index(bottom)) && has(facets, index(right)));
    }
  }
}

// Whole steps, no gravity, the square sliding left at 0.5 m/s (h = 0.01). "primary": nothing
// stops it, x = -0.51 - 0.005 k, no impulse. "all" (the thesis' SM): the side contact's
// psi + h v_x >= 0 (Stewart-Trinkle (6.1), psi = -0.01) demands v_x >= 1 m/s and the block
// corner's contact with the square's right edge (psi = +0.01) allows at most 1 m/s, so the
// first step takes a spurious 1.5 N s and moves the square 1 cm right, onto the corner; from
// then on both gaps are 0 and the square is held there (the dual trap, Fig. 5.2).
TEST(SmEnforce, AllHoldsTheSlidingSquareOnTheCornerAndPrimaryLetsItSlide) {
  for (SmEnforce which : {SmEnforce::Primary, SmEnforce::All}) {
    Corner c = corner();
    c.w.state.bodies[c.square].velocity = Vec3(-0.5, 0, 0);
    Settings s = test::planar_settings(ContactModel::Standard);
    s.sm_enforce = which;
    Simulator sim(c.w.model, c.w.state, s);
    const char* name = to_string(which);
    for (int k = 1; k <= 10; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << name << " step " << k;
      const BodyState& b = sim.state().bodies[c.square];
      double largest = 0.0;
      for (double p : r.normal_impulse) largest = std::max(largest, p);
      if (which == SmEnforce::Primary) {
        EXPECT_TRUE(r.sm_traps.empty()) << name << " step " << k;
        EXPECT_NEAR(b.position.x(), -0.51 - 0.005 * k, 1e-12) << name << " step " << k;
        EXPECT_NEAR(b.velocity.x(), -0.5, 1e-12) << name << " step " << k;
        EXPECT_LE(largest, 1e-12) << name << " step " << k;
      } else {
        EXPECT_FALSE(r.sm_traps.empty()) << name << " step " << k;
        // To the 1e-6 rad the square may turn per step.
        EXPECT_NEAR(b.position.x(), -0.5, 1e-5) << name << " step " << k;
        EXPECT_NEAR(b.velocity.x(), k == 1 ? 1.0 : 0.0, 1e-5) << name << " step " << k;
        if (k == 1) {
          EXPECT_GE(largest, 1.5 - 1e-5) << name;
        }
      }
      EXPECT_NEAR(b.position.y(), 0.5, 1e-5) << name << " step " << k;
    }
  }
}

}  // namespace
}  // namespace pegsim
