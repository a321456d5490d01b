// Whole steps with each contact model: the instantaneous cases of thesis §5.1 in 3D, where
// the standard model traps a vertex at a corner and PEG does not, and PEG reducing to the SM
// when no I- or X-constraint arises (§4.7: "equivalent to the standard model").
#include <gtest/gtest.h>

#include "corner_scenes.hpp"
#include "engine/collision/posed_polytope.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim {
namespace {

Settings corner_settings(ContactModel model, const Vec3& gravity) {
  Settings s;
  s.h = 0.01;
  s.gravity = gravity;
  s.contact_model = model;
  return s;
}

// World position of the pyramid's apex (its vertex 0 before the hull was built: the lowest).
Vec3 apex(const Simulator& sim, int body) {
  const PosedPolytope p(*sim.model().bodies[body].shape.polytope, sim.state().bodies[body]);
  Vec3 lowest = p.vertex(0);
  for (int v = 1; v < static_cast<int>(p.shape.vertices.size()); ++v)
    if (p.vertex(v).z() < lowest.z()) lowest = p.vertex(v);
  return lowest;
}

// Fig. 4.1 / 5.3 from the side: the apex, 1 mm above the top face's plane and 1 cm outside
// the side face, moves left at 1 m/s without gravity. Nothing is in its way. The SM enforces
// the side face's extended plane and stops the apex at x = 0 (the trap); PEG's
// I({C_top, C_side}) is satisfied by the top face's gap, so the apex moves on freely:
// x(t) = 0.01 - t, z = 0.001, no impulse.
TEST(ContactModelDynamics, ApexEntersOverTheCornerUnderPegAndIsTrappedUnderSm) {
  for (ContactModel model : {ContactModel::Standard, ContactModel::Lnc, ContactModel::Peg}) {
    test::World w;
    test::add_corner_block(w);
    const int pyramid = test::add_inverted_pyramid(w, Vec3(0.01, 0, 0.001));
    w.state.bodies[pyramid].velocity = Vec3(-1, 0, 0);
    Simulator sim(w.model, w.state, corner_settings(model, Vec3::Zero()));
    double largest_impulse = 0.0;
    int groups = 0;
    for (int k = 1; k <= 6; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
      groups += static_cast<int>(r.constraints.groups.size());
      for (double p : r.normal_impulse) largest_impulse = std::max(largest_impulse, p);
      const Vec3 tip = apex(sim, pyramid);
      if (model == ContactModel::Standard) {
        // Held at the side face's plane (to the linearization of the apex's turn).
        EXPECT_GE(tip.x(), -1e-5) << "step " << k;
      } else {
        EXPECT_NEAR(tip.x(), 0.01 - k * 0.01, 1e-12) << to_string(model) << " step " << k;
        EXPECT_NEAR(tip.z(), 0.001, 1e-12) << to_string(model) << " step " << k;
      }
    }
    EXPECT_GT(groups, 0);
    if (model == ContactModel::Standard) {
      EXPECT_NEAR(apex(sim, pyramid).x(), 0.0, 1e-5);
      EXPECT_GT(largest_impulse, 0.05);  // the side face's spurious impulse
    } else {
      EXPECT_EQ(largest_impulse, 0.0) << to_string(model);
    }
  }
}

// The same corner from above: the apex slides right on the top face at 1 m/s under gravity
// and passes the edge at t = 0.02 s. The SM keeps enforcing the top face's plane while the
// apex is within epsilon (5 cm) of it, so the pyramid hovers past the edge; under PEG
// max(psi_top, psi_side) >= 0 lets it fall as soon as it is past the side face.
TEST(ContactModelDynamics, ApexFallsOffTheEdgeUnderPegAndHoversUnderSm) {
  for (ContactModel model : {ContactModel::Standard, ContactModel::Peg}) {
    test::World w;
    test::add_corner_block(w);
    const int pyramid = test::add_inverted_pyramid(w, Vec3(-0.02, 0, 0));
    w.state.bodies[pyramid].velocity = Vec3(1, 0, 0);
    Simulator sim(w.model, w.state, corner_settings(model, Vec3(0, 0, -9.81)));
    for (int k = 1; k <= 2; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << r.failure;
      EXPECT_NEAR(apex(sim, pyramid).z(), 0.0, 1e-9) << "step " << k;  // on the top face
    }
    ASSERT_NEAR(apex(sim, pyramid).x(), 0.0, 1e-9);
    for (int k = 3; k <= 7; ++k) ASSERT_FALSE(sim.step().failed);
    const Vec3 tip = apex(sim, pyramid);  // t = 0.07 s, 5 cm past the edge
    if (model == ContactModel::Standard) {
      EXPECT_GE(tip.z(), -1e-9);
    } else {
      // Free fall from t = 0.02 s: 5 steps of semi-implicit Euler fall h^2 g (1 + .. + 5).
      EXPECT_NEAR(tip.z(), -0.01 * 0.01 * 9.81 * 15, 1e-9);
    }
  }
}

// §4.7: with U-constraints only, PEG is the standard model. A box and a sphere on the ground
// and a small cube resting in the middle of a large static one give only vertex-face,
// vertex-plane and sphere contacts: the trajectories are identical to the last bit.
TEST(ContactModelDynamics, PegWithoutInterOrCrossContactsIsTheStandardModel) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  w.add_box("box", Vec3(0.4, 0.3, 0.2), 2.0, Vec3(1, 0, 0.105),
            Quat(Eigen::AngleAxisd(0.05, Vec3::UnitX())));
  w.add_sphere("ball", 0.1, 1.0, Vec3(-1, 0, 0.12));
  const int base = w.add_box("base", Vec3(1, 1, 0.5), 1.0, Vec3(0, 2, 0.25));
  w.model.bodies[base].is_static = true;
  w.add_box("cube", Vec3(0.2, 0.2, 0.2), 1.0, Vec3(0, 2, 0.61));
  w.state.bodies[1].velocity = Vec3(0.5, 0.2, 0);

  Simulator sm(w.model, w.state, corner_settings(ContactModel::Standard, Vec3(0, 0, -9.81)));
  Simulator peg(w.model, w.state, corner_settings(ContactModel::Peg, Vec3(0, 0, -9.81)));
  int unilateral = 0;
  for (int k = 0; k < 60; ++k) {
    ASSERT_FALSE(sm.step().failed);
    const StepReport& r = peg.step();
    ASSERT_FALSE(r.failed);
    for (const ConstraintGroup& g : r.constraints.groups) {
      ASSERT_EQ(g.kind, ConstraintKind::Unilateral);
      ++unilateral;
    }
    for (std::size_t b = 0; b < w.model.bodies.size(); ++b) {
      ASSERT_EQ(sm.state().bodies[b].position, peg.state().bodies[b].position) << k;
      ASSERT_EQ(sm.state().bodies[b].orientation.coeffs(),
                peg.state().bodies[b].orientation.coeffs());
    }
  }
  EXPECT_GT(unilateral, 60 * 4);  // at least the cube's four corners every step
}

}  // namespace
}  // namespace pegsim
