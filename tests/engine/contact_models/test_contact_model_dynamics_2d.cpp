// Whole steps with each contact model on the instantaneous cases of thesis §5.1 in 2D: a vertex
// entering over a corner (Fig. 4.1), a vertex sliding off an edge, and two corners passing
// each other (Fig. 5.1, 5.2), where the standard model traps the vertex or applies a spurious
// impulse and PEG-2D (Alg. 11) lets the bodies move as they would without contact.
#include <gtest/gtest.h>

#include "bodies_2d.hpp"
#include "engine/collision/posed_polygon.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim {
namespace {

// The corner block: a static 2 m square occupying x in [-2, 0], y in [-2, 0].
int add_corner_block(test::World& w) {
  return test::add_polygon(w, "block", make_rectangle(2, 2), 1.0, Vec2(-1, -1), 0.0, true);
}

// The needle, 1 kg. With `guided` its moment of inertia is a million times its own, so that
// an impulse at the tip turns it by less than 1e-6 rad per step: the case is then about the
// tip's translation alone, with the analytic answers of a sliding point.
int add_needle(test::World& w, const Vec2& tip, bool guided = false) {
  const int b = test::add_polygon(w, "needle", test::needle(), 1.0,
                                  tip + Vec2(0, test::kNeedleTipBelowCentre));
  if (guided) w.model.bodies[b].inertia *= 1e6;
  return b;
}

Vec2 tip_of(const Simulator& sim, int needle) {
  return in_plane(sim.state().bodies[needle].position) - Vec2(0, test::kNeedleTipBelowCentre);
}

double largest_impulse(const StepReport& r) {
  double p = 0.0;
  for (double x : r.normal_impulse) p = std::max(p, x);
  return p;
}

// Fig. 4.1 in 2D: the needle's tip, 1 mm above the block's top edge line and 1 cm right of its
// side edge, moves left at 1 m/s without gravity; nothing is in its way. Its contacts with the
// top edge (psi = 0.001) and the side edge (psi = 0.01) are both primary, so the SM enforces
// the side edge's extended line and stops the tip at x = 0 (an SM trap); under LNC (4.4) and
// PEG (I(C_top, C_side) of Alg. 10, max(psi) >= 0) it moves on: x = 0.01 - t, y = 0.001,
// no impulse.
TEST(ContactModelDynamics2d, TipEntersOverTheCornerUnderPegAndIsTrappedUnderSm) {
  for (ContactModel model : {ContactModel::Standard, ContactModel::Lnc, ContactModel::Peg}) {
    test::World w;
    add_corner_block(w);
    const int needle = add_needle(w, Vec2(0.01, 0.001), true);
    w.state.bodies[needle].velocity = Vec3(-1, 0, 0);
    Simulator sim(w.model, w.state, test::planar_settings(model));
    double impulse = 0.0;
    int traps = 0, groups = 0;
    for (int k = 1; k <= 6; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
      impulse = std::max(impulse, largest_impulse(r));
      traps += static_cast<int>(r.sm_traps.size());
      groups += static_cast<int>(r.constraints.groups.size());
      const Vec2 tip = tip_of(sim, needle);
      if (model == ContactModel::Standard) {
        EXPECT_GE(tip.x(), -1e-6) << "step " << k;
      } else {
        EXPECT_NEAR(tip.x(), 0.01 - k * 0.01, 1e-12) << to_string(model) << " step " << k;
        EXPECT_NEAR(tip.y(), 0.001, 1e-12) << to_string(model) << " step " << k;
        EXPECT_LE(std::abs(sim.state().bodies[needle].angular_velocity.z()), 1e-15);
      }
    }
    EXPECT_GT(traps, 0);  // the contact set has the trap whichever model steps
    EXPECT_GT(groups, 0);
    if (model == ContactModel::Standard) {
      EXPECT_NEAR(tip_of(sim, needle).x(), 0.0, 1e-6);
      // The side edge stops 1 kg at 1 m/s: 1 N s, spurious.
      EXPECT_NEAR(impulse, 1.0, 1e-5);
    } else {
      EXPECT_LE(impulse, 1e-15) << to_string(model);
    }
  }
}

// The same corner from above: the needle stands on its tip on the top edge, 2 cm left of the
// corner, sliding right at 1 m/s under gravity; it passes the corner at t = 0.02 s. The SM
// keeps enforcing the top edge's line while the tip is within epsilon (5 cm) of it, so the
// needle hovers past the edge; PEG's max(psi_top, psi_side) >= 0 lets it fall at once:
// semi-implicit Euler (6.2) from t = 0.02 s drops it h^2 g (1 + .. + 5) by t = 0.07 s.
TEST(ContactModelDynamics2d, TipFallsOffTheEdgeUnderPegAndHoversUnderSm) {
  for (ContactModel model : {ContactModel::Standard, ContactModel::Peg}) {
    test::World w;
    add_corner_block(w);
    const int needle = add_needle(w, Vec2(-0.02, 0));
    w.state.bodies[needle].velocity = Vec3(1, 0, 0);
    Simulator sim(w.model, w.state, test::planar_settings(model, 9.81));
    for (int k = 1; k <= 2; ++k) {
      ASSERT_FALSE(sim.step().failed);
      EXPECT_NEAR(tip_of(sim, needle).y(), 0.0, 1e-12) << "step " << k;  // on the top edge
    }
    ASSERT_NEAR(tip_of(sim, needle).x(), 0.0, 1e-12);
    for (int k = 3; k <= 7; ++k) ASSERT_FALSE(sim.step().failed);
    const Vec2 tip = tip_of(sim, needle);
    EXPECT_NEAR(tip.x(), 0.05, 1e-12);
    if (model == ContactModel::Standard) {
      EXPECT_NEAR(tip.y(), 0.0, 1e-12);
    } else {
      EXPECT_NEAR(tip.y(), -0.01 * 0.01 * 9.81 * 15, 1e-12);
    }
  }
}

// Fig. 5.1 and 5.2: a 1.5 m x 1 m block A slides right at 1 m/s on top of the static unit
// square B (no gravity); A's bottom-right corner v_a is 3 cm short of B's top-right corner v_b. v_a
// is "deep" behind B's right edge (psi_1 = -0.03) and v_b 3 cm ahead of A's right edge (psi_4 =
// +0.03). The thesis' standard model enforces every contact within epsilon (§5.2: here eps_theta =
// -1 and a feasibility depth of epsilon): psi_1 + h v >= 0 forces v >= 3 m/s, a spurious impulse of
// 2 N s, and psi_4 - h v >= 0 caps it at 3 m/s; one step later both gaps are 0, so A is stuck with
// v_a on v_b (the dual trap of Fig. 5.2). PEG with the usual applicability and feasibility makes
// I(C_top | C_right) and I(C_bottom | C_right) from the same contacts: A slides on at 1 m/s with no
// impulse. The SM with the usual tests drops the two side contacts as inapplicable and lets A slide
// too. A's moment of inertia is a million times its own, so that the answers are those of a
// translating block.
TEST(ContactModelDynamics2d, CornersPassUnderPegAndStickUnderTheThesisStandardModel) {
  struct Case {
    ContactModel model;
    bool every_contact;
  };
  for (const Case c : {Case{ContactModel::Standard, true}, Case{ContactModel::Standard, false},
                       Case{ContactModel::Peg, false}}) {
    test::World w;
    test::add_polygon(w, "B", make_rectangle(1, 1), 1.0, Vec2(-0.5, -0.5), 0.0, true);
    const int a = test::add_polygon(w, "A", make_rectangle(1.5, 1), 1.0, Vec2(-0.78, 0.5));
    w.model.bodies[a].inertia *= 1e6;  // guided, as the needle above: translation only
    w.state.bodies[a].velocity = Vec3(1, 0, 0);
    Settings s = test::planar_settings(c.model);
    if (c.every_contact) {
      s.eps_theta = -1.0;
      s.feasibility_depth = s.epsilon;
    }
    Simulator sim(w.model, w.state, s);
    const std::string name = std::string(to_string(c.model)) + (c.every_contact ? " (thesis)" : "");
    const StepReport& first = sim.step();
    ASSERT_FALSE(first.failed) << name;
    const double v1 = sim.state().bodies[a].velocity.x();
    const double p1 = largest_impulse(first);
    const bool trapped = !first.sm_traps.empty();
    for (int k = 2; k <= 10; ++k) ASSERT_FALSE(sim.step().failed) << name << " step " << k;
    const BodyState& end = sim.state().bodies[a];
    if (c.every_contact) {
      EXPECT_NEAR(v1, 3.0, 1e-5) << name;  // to the 1e-6 rad the block may still turn
      EXPECT_GE(p1, 2.0 - 1e-5) << name;
      EXPECT_TRUE(trapped) << name;
      EXPECT_NEAR(end.position.x(), -0.75, 1e-6) << name;  // v_a held on v_b
      EXPECT_NEAR(end.velocity.x(), 0.0, 1e-6) << name;
    } else {
      EXPECT_NEAR(v1, 1.0, 1e-12) << name;
      EXPECT_EQ(p1, 0.0) << name;
      EXPECT_NEAR(end.position.x(), -0.68, 1e-12) << name;  // 10 steps at 1 m/s
      EXPECT_NEAR(end.position.y(), 0.5, 1e-12) << name;
      EXPECT_NEAR(end.velocity.x(), 1.0, 1e-12) << name;
    }
  }
}

}  // namespace
}  // namespace pegsim
