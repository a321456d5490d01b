// Non-convex bodies as compounds of convex parts (thesis §4.5): contacts found per part and
// labelled with it, none from the interior faces the decomposition adds, no SM trap or LNC
// group across parts at a concave corner, and a box resting in an L corner under SM, LNC and
// PEG with the normal impulses of the hand-solved statics.
#include <gtest/gtest.h>

#include <memory>

#include "../dynamics/test_world.hpp"
#include "engine/collision/detect_contacts.hpp"
#include "engine/contact_models/contact_model.hpp"
#include "engine/contact_models/sm_traps.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/compound.hpp"

namespace pegsim {
namespace {

CompoundPart box_part(const Vec3& lo, const Vec3& hi) {
  const Vec3 size = hi - lo;
  return {Shape::convex(std::make_shared<const Polytope>(make_box(size.x(), size.y(), size.z()))),
          0.5 * (lo + hi), Quat::Identity()};
}

// A static L: a floor [-1,1]^2 x [-0.2,0] (top at z = 0) and a wall [-1,-0.8] x [-1,1] x
// [-0.05, 1] (inner face x = -0.8) that reaches 5 cm into the floor, as Fig. 4.11's overlap.
constexpr double kWallInner = -0.8;
int add_l_corner(test::World& w, double mu) {
  Body b;
  b.name = "L";
  b.shape = Shape::compound_of(std::make_shared<const Compound>(make_compound(
      {box_part({-1, -1, -0.2}, {1, 1, 0}), box_part({-1, -1, -0.05}, {kWallInner, 1, 1})},
      false)));
  b.is_static = true;
  b.mu = mu;
  return w.add(b, Vec3::Zero());
}

// The part of the L (0 floor, 1 wall) a contact touches, or -1.
int l_part(const Contact& c, int l) {
  return c.body_a == l ? c.part_a : (c.body_b == l ? c.part_b : -1);
}

// Feasibility reads the velocity of the compound's material point (collision/feasibility.hpp):
// a box's bottom vertices 4 cm into the L's floor, h = 0.015, are feasible when the box falls
// onto the L at 3 m/s, and not when the L falls with it (no approach), nor at rest.
TEST(CompoundContacts, FeasibilityUsesTheVelocityOfTheCompoundsPart) {
  test::World w;
  const int l = add_l_corner(w, 0.0);
  w.model.bodies[l].is_static = false;  // it moves in this test; contacts do not need a mass
  const int box = w.add_box("box", Vec3::Constant(0.4), 1.0, Vec3(0.3, 0, 0.2 - 0.04));
  Settings s;
  s.h = 0.015;
  auto floor_feasible = [&](const Vec3& v_box, const Vec3& v_l) {
    w.state.bodies[box].velocity = v_box;
    w.state.bodies[l].velocity = v_l;
    BroadPhase broad;
    std::vector<Contact> contacts;
    detect_contacts(w.model, w.state, s, broad, contacts);
    int deep = 0, feasible = 0;
    for (const Contact& c : contacts) {
      if (c.body_a != l || l_part(c, l) != 0 || c.feature_a.kind != FeatureKind::Face ||
          c.normal.z() < 0.99 || c.gap > -0.03)
        continue;
      ++deep;
      feasible += c.feasible;
    }
    EXPECT_EQ(deep, 4);  // the box's bottom corners on the floor's top face
    return feasible;
  };
  EXPECT_EQ(floor_feasible(Vec3::Zero(), Vec3::Zero()), 0);
  EXPECT_EQ(floor_feasible(Vec3(0, 0, -3), Vec3::Zero()), 4);
  EXPECT_EQ(floor_feasible(Vec3(0, 0, -3), Vec3(0, 0, -3)), 0);
}

// A 0.4 m cube sitting in the corner, touching the floor and the wall.
TEST(CompoundContacts, PerPartAndNoneFromTheBuriedWallFoot) {
  test::World w;
  const int l = add_l_corner(w, 0.0);
  w.add_box("box", Vec3::Constant(0.4), 1.0, Vec3(kWallInner + 0.2, 0, 0.2));
  Settings s;
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(w.model, w.state, s, broad, contacts);
  int floor_primary = 0, wall_primary = 0;
  for (const Contact& c : contacts) {
    const int part = l_part(c, l);
    ASSERT_TRUE(part == 0 || part == 1);
    // The box's side of the contact is no part: its part is -1.
    EXPECT_EQ(c.body_a == l ? c.part_b : c.part_a, -1);
    // §4.5: no contact point on the L lies deeper than the feasibility depth inside the other
    // part (the wall's foot, its bottom face and bottom edges, are inside the floor).
    const Vec3 on_l = c.body_a == l ? c.point_a : c.point_b();
    EXPECT_FALSE(
        buried_in_other_part(*w.model.bodies[l].shape.compound, part, on_l, s.feasibility_depth))
        << to_string(c.feature_a.kind) << "-" << to_string(c.feature_b.kind);
    if (!c.primary()) continue;
    const Vec3 n_into_box = c.body_a == l ? c.normal : Vec3(-c.normal);
    if (part == 0) {
      ++floor_primary;
      EXPECT_LT((n_into_box - Vec3::UnitZ()).norm(), 1e-12);
    } else {
      ++wall_primary;
      EXPECT_LT((n_into_box - Vec3::UnitX()).norm(), 1e-12);
    }
  }
  EXPECT_GE(floor_primary, 4);  // the box's four bottom corners on the floor's top face
  EXPECT_GE(wall_primary, 4);   // its four corners at x = -0.8 on the wall's inner face
}

// The concave corner is no SM trap: the box's corners meet the floor and the wall, two convex
// parts, not two faces of one convex body (Fig. 4.1 is about one convex body). LNC keeps a
// vertex's facets of different parts in different groups (AND, not OR).
TEST(CompoundContacts, ConcaveCornerIsNoTrapAndLncGroupsPerPart) {
  test::World w;
  add_l_corner(w, 0.0);
  w.add_box("box", Vec3::Constant(0.4), 1.0, Vec3(kWallInner + 0.2, 0, 0.2));
  Settings s;
  BroadPhase broad;
  std::vector<Contact> contacts;
  detect_contacts(w.model, w.state, s, broad, contacts);
  SmTrapWorkspace ws;
  std::vector<SmTrap> traps;
  std::vector<int> trap_contacts;
  find_sm_traps(contacts, ws, traps, trap_contacts);
  EXPECT_TRUE(traps.empty());

  s.contact_model = ContactModel::Lnc;
  ConstraintSet set;
  std::vector<int> duplicate_of, scratch;
  ManifoldScratch manifold;
  apply_contact_model(w.model, w.state, s, contacts, set, duplicate_of, scratch, manifold);
  for (const ConstraintGroup& g : set.groups)
    for (int k = 1; k < g.count; ++k) {
      const Contact& first = contacts[set.members[g.first]];
      const Contact& other = contacts[set.members[g.first + k]];
      EXPECT_EQ(first.part_a, other.part_a);
      EXPECT_EQ(first.part_b, other.part_b);
    }
}

// Hand-solved statics: a frictionless 1 kg cube at rest in the corner under gravity
// g = (-3, 0, -9.81) m/s^2. Each step the floor's contacts must take the impulse m g_z h =
// 0.0981 N s (normal +z) and the wall's m g_x h = 0.03 N s (normal +x), together, however
// the LCP shares them between corners; the cube does not move or sink.
TEST(CompoundContacts, BoxRestingInTheLCornerHasTheStaticImpulses) {
  for (ContactModel model : {ContactModel::Standard, ContactModel::Lnc, ContactModel::Peg}) {
    test::World w;
    const int l = add_l_corner(w, 0.0);
    const int box = w.add_box("box", Vec3::Constant(0.4), 1.0, Vec3(kWallInner + 0.2, 0, 0.2),
                              Quat::Identity(), 0.0);
    Settings s;
    s.h = 0.01;
    s.gravity = Vec3(-3.0, 0.0, -9.81);
    s.contact_model = model;
    Simulator sim(w.model, w.state, s);
    for (int k = 1; k <= 50; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << to_string(model) << ": " << r.failure;
      Vec3 impulse = Vec3::Zero();  // on the box, from the L
      for (std::size_t i = 0; i < r.contacts.size(); ++i) {
        const Contact& c = r.contacts[i];
        const Vec3 n_into_box = c.body_a == l ? c.normal : Vec3(-c.normal);
        impulse += r.normal_impulse[i] * n_into_box;
      }
      EXPECT_NEAR(impulse.z(), 1.0 * 9.81 * s.h, 1e-9) << to_string(model) << " step " << k;
      EXPECT_NEAR(impulse.x(), 1.0 * 3.0 * s.h, 1e-9) << to_string(model) << " step " << k;
      EXPECT_LE(r.max_penetration, 1e-9) << to_string(model) << " step " << k;
    }
    const BodyState& b = sim.state().bodies[box];
    EXPECT_LT((b.position - Vec3(kWallInner + 0.2, 0, 0.2)).norm(), 1e-9) << to_string(model);
  }
}

}  // namespace
}  // namespace pegsim
