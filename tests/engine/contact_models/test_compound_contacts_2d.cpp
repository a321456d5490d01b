// Planar compounds (thesis §4.5 in 2D, "as in 3D"): contacts per convex part labelled with it,
// none from the interior edges the decomposition adds, a square resting in the L corner of a
// compound with the hand-solved impulses under SM, LNC and PEG-2D, one corrective contact per
// overlapping part, PEG and SM stepping alike when PEG writes no I- or X-constraint, and the
// overlap of unions (a region inside two parts counted once).
#include <gtest/gtest.h>

#include <memory>

#include "bodies_2d.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/contact_models/sm_traps.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/compound.hpp"
#include "engine/metrics/overlap.hpp"

namespace pegsim {
namespace {

CompoundPart rect_part(const Vec2& lo, const Vec2& hi) {
  const Vec2 size = hi - lo, c = 0.5 * (lo + hi);
  return {
      Shape::convex_polygon(std::make_shared<const Polygon>(make_rectangle(size.x(), size.y()))),
      Vec3(c.x(), c.y(), 0.0), Quat::Identity()};
}

// A static planar L: a floor [-1,1]x[-0.2,0] (top edge y = 0) and a wall [-1,-0.8]x[-0.05,1]
// (inner edge x = -0.8) reaching 5 cm into the floor, as Fig. 4.11's overlap.
constexpr double kWallInner = -0.8;
int add_l_corner(test::World& w) {
  Body b;
  b.name = "L";
  b.shape = Shape::compound_of(std::make_shared<const Compound>(make_compound(
      {rect_part({-1, -0.2}, {1, 0}), rect_part({-1, -0.05}, {kWallInner, 1})}, false)));
  b.is_static = true;
  b.mu = 0.0;
  return w.add(b, Vec3::Zero());
}

int add_square(test::World& w, const Vec2& centre, double side = 0.4) {
  return test::add_polygon(w, "square", make_rectangle(side, side), 1.0, centre);
}

int l_part(const Contact& c, int l) {
  return c.body_a == l ? c.part_a : c.part_b;
}

// A 0.4 m square in the corner touching floor and wall: its two bottom corners on the floor
// part's top edge (normal +y), its two left corners on the wall part's inner edge (+x); no
// contact point on the L lies buried in its other part (the wall's foot is in the floor).
TEST(CompoundContacts2d, PerPartAndNoneFromTheBuriedWallFoot) {
  test::World w;
  const int l = add_l_corner(w);
  add_square(w, Vec2(kWallInner + 0.2, 0.2));
  const Settings s = test::planar_settings(ContactModel::Standard);
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(w.model, w.state, s, broad, contacts);
  int floor_primary = 0, wall_primary = 0;
  for (const Contact& c : contacts) {
    const int part = l_part(c, l);
    ASSERT_TRUE(part == 0 || part == 1);
    EXPECT_EQ(c.body_a == l ? c.part_b : c.part_a, -1);  // the square is no compound
    const Vec3 on_l = c.body_a == l ? c.point_a : c.point_b();
    EXPECT_FALSE(
        buried_in_other_part(*w.model.bodies[l].shape.compound, part, on_l, s.feasibility_depth));
    EXPECT_EQ(c.point_a.z(), 0.0);
    if (!c.primary()) continue;
    const Vec3 n_into_square = c.body_a == l ? c.normal : Vec3(-c.normal);
    if (part == 0) {
      ++floor_primary;
      EXPECT_LT((n_into_square - Vec3::UnitY()).norm(), 1e-12);
    } else {
      ++wall_primary;
      EXPECT_LT((n_into_square - Vec3::UnitX()).norm(), 1e-12);
    }
  }
  EXPECT_EQ(floor_primary, 2);
  EXPECT_EQ(wall_primary, 2);
  // The concave corner is no SM trap: its edges belong to two convex parts (Fig. 4.1 is one
  // convex body's corner).
  SmTrapWorkspace ws;
  std::vector<SmTrap> traps;
  std::vector<int> trap_contacts;
  find_sm_traps(contacts, ws, traps, trap_contacts);
  EXPECT_TRUE(traps.empty());
}

// Hand-solved statics: a frictionless 1 kg square at rest in the corner under gravity
// g = (-3, -9.81) m/s^2. Each step the floor part must give m g_y h = 0.0981 N s along +y
// and the wall part m g_x h = 0.03 N s along +x, however the LCP shares them between the two
// corners on each edge; the square neither moves nor sinks.
TEST(CompoundContacts2d, SquareRestingInTheLCornerHasTheStaticImpulses) {
  for (ContactModel model : {ContactModel::Standard, ContactModel::Lnc, ContactModel::Peg}) {
    test::World w;
    const int l = add_l_corner(w);
    const int square = add_square(w, Vec2(kWallInner + 0.2, 0.2));
    Settings s = test::planar_settings(model);
    s.gravity = Vec3(-3.0, -9.81, 0.0);
    Simulator sim(w.model, w.state, s);
    for (int k = 1; k <= 50; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << to_string(model) << ": " << r.failure;
      Vec3 floor = Vec3::Zero(), wall = Vec3::Zero();  // on the square, from each part
      for (std::size_t i = 0; i < r.contacts.size(); ++i) {
        const Contact& c = r.contacts[i];
        const Vec3 n_into_square = c.body_a == l ? c.normal : Vec3(-c.normal);
        (l_part(c, l) == 0 ? floor : wall) += r.normal_impulse[i] * n_into_square;
      }
      EXPECT_NEAR(floor.y(), 9.81 * s.h, 1e-9) << to_string(model) << " step " << k;
      EXPECT_NEAR(floor.x(), 0.0, 1e-12) << to_string(model) << " step " << k;
      EXPECT_NEAR(wall.x(), 3.0 * s.h, 1e-9) << to_string(model) << " step " << k;
      EXPECT_NEAR(wall.y(), 0.0, 1e-12) << to_string(model) << " step " << k;
      EXPECT_LE(r.max_penetration, 1e-9) << to_string(model) << " step " << k;
    }
    const BodyState& b = sim.state().bodies[square];
    EXPECT_LT((b.position - Vec3(kWallInner + 0.2, 0.2, 0)).norm(), 1e-9) << to_string(model);
    EXPECT_LT(std::abs(b.orientation.z()), 1e-9) << to_string(model);
  }
}

// PEG-2D per part (§4.5): a square falling flat onto the floor part, far from the wall,
// meets only vertex-edge cases, so PEG writes U-constraints only (4.16) and steps exactly as
// the standard model; both land it on the floor's top edge (y = 0.2 for its centre).
TEST(CompoundContacts2d, PegAndSmAgreeWhenNoInterOrCrossConstraintArises) {
  std::vector<BodyState> finals;
  for (ContactModel model : {ContactModel::Standard, ContactModel::Peg}) {
    test::World w;
    add_l_corner(w);
    const int square = add_square(w, Vec2(0.3, 0.25));
    Simulator sim(w.model, w.state, test::planar_settings(model, 9.81));
    for (int k = 1; k <= 60; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
      for (const ConstraintGroup& g : r.constraints.groups)
        EXPECT_EQ(g.kind, ConstraintKind::Unilateral) << to_string(model) << " step " << k;
    }
    finals.push_back(sim.state().bodies[square]);
    EXPECT_NEAR(finals.back().position.y(), 0.2, 1e-9) << to_string(model);
  }
  EXPECT_LT((finals[0].position - finals[1].position).norm(), 1e-12);
  EXPECT_LT((finals[0].velocity - finals[1].velocity).norm(), 1e-12);
}

// The corrective method part by part: a square sunk 0.02 into the floor and 0.03 into the wall
// gets one contact per overlapping part (+y 0.02 deep, +x 0.03 deep), and one step leaves it
// touching both, with no overlap area.
TEST(CompoundContacts2d, CorrectiveGivesOneContactPerOverlappingPart) {
  test::World w;
  const int l = add_l_corner(w);
  const int square = add_square(w, Vec2(kWallInner + 0.17, 0.18));
  Settings s = test::planar_settings(ContactModel::Corrective);
  Simulator sim(w.model, w.state, s);
  const StepReport& r = sim.step();
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_EQ(r.contacts.size(), 2u);
  for (const Contact& c : r.contacts) {
    ASSERT_EQ(c.body_a, l);
    if (c.part_a == 0) {
      EXPECT_LT((c.normal - Vec3::UnitY()).norm(), 1e-15);
      EXPECT_NEAR(c.gap, -0.02, 1e-15);
    } else {
      EXPECT_EQ(c.part_a, 1);
      EXPECT_LT((c.normal - Vec3::UnitX()).norm(), 1e-15);
      EXPECT_NEAR(c.gap, -0.03, 1e-15);
    }
  }
  EXPECT_LT((sim.state().bodies[square].position - Vec3(kWallInner + 0.2, 0.2, 0)).norm(), 1e-12);
  double area = -1.0;
  ASSERT_TRUE(pair_overlap_volume(sim.model(), sim.state(), l, square, area));
  EXPECT_LE(area, 1e-12);
}

// total_overlap measures the overlap of the unions: a 0.1 m square over the seam, x in
// [-0.85,-0.75], y in [-0.03,0.07], overlaps the floor by 0.1 x 0.03 and the wall by
// 0.05 x 0.1, and 0.05 x 0.03 of that lies in both (the wall's foot inside the floor):
// 0.003 + 0.005 - 0.0015 = 0.0065 m^2, not the parts' sum 0.008.
TEST(CompoundContacts2d, OverlapOfUnionsCountsTheSeamOnce) {
  test::World w;
  add_l_corner(w);
  add_square(w, Vec2(-0.8, 0.02), 0.1);
  const OverlapTotals t = total_overlap(w.model, w.state);
  EXPECT_EQ(t.unmeasured_pairs, 0);
  EXPECT_EQ(t.overlapping_pairs, 1);
  EXPECT_NEAR(t.volume, 0.0065, 1e-15);
}

}  // namespace
}  // namespace pegsim
