// PEG with the quadratic cone: formulation ncp under contact_model peg, thesis (4.30)-(4.40)
// (the primaries' cones (4.37)-(4.40) are (2.18)-(2.20), the slack rows (4.33)-(4.36) linear).
// A block pushed on the ground sticks below mu m g and slides with |p_f| = mu p_n against the
// push in every direction; at the corner of §5.1, where PEG forms an I-constraint, PEG + ncp
// takes PEG + LCP's steps when there is no friction.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../dynamics/step_measures.hpp"
#include "corner_scenes.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim {
namespace {

using test::pose_difference;
using test::total_friction;
using test::total_normal;

constexpr double kG = 9.81;

Settings peg_settings(Formulation formulation, const std::string& solver, const Vec3& gravity) {
  Settings s;
  s.h = 0.01;
  s.gravity = gravity;
  s.contact_model = ContactModel::Peg;
  s.formulation = formulation;
  s.solver = solver;
  s.fallbacks = {};
  s.tolerance = 1e-12;
  return s;
}

// A unit cube of 1 kg on the ground, mu = 0.5, pushed through its centre by P along
// d = (cos a, sin a, 0) for 12 directions a, 10 steps from rest. Coulomb's law on the round
// cone: at P = 0.6 mu m g it sticks, the friction impulse is -P h d; at P = 1.5 mu m g it
// slides from the first step with |p_f| = mu sum p_n against d and v_N = N h (P / m - mu g) d.
// Isotropic to 1e-8, where the linearized cone (2.21) is not (test_ncp_friction.cpp).
TEST(PegNcp, PushedBlockSticksBelowAndSlidesAboveMuMgInEveryDirection) {
  const double mu = 0.5, h = 0.01;
  for (const char* solver : {"fischer-newton", "path"}) {
    double stick_impulse = 0.0, stick_speed = 0.0;
    double slide_magnitude = 0.0, slide_direction = 0.0, slide_speed = 0.0;
    for (int k = 0; k < 12; ++k) {
      const double angle = 0.2 + 2.0 * M_PI * k / 12;
      const Vec3 d(std::cos(angle), std::sin(angle), 0.0);
      for (const double factor : {0.6, 1.5}) {
        test::World w;
        w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
        const int box =
            w.add_box("block", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5), Quat::Identity(), mu);
        Simulator sim(w.model, w.state, peg_settings(Formulation::Ncp, solver, Vec3(0, 0, -kG)));
        const Vec3 push = factor * mu * kG * d;
        for (int step = 1; step <= 10; ++step) {
          sim.apply_wrench(box, push, Vec3::Zero());
          const StepReport& r = sim.step();
          ASSERT_FALSE(r.failed) << solver << ": " << r.failure;
          ASSERT_NE(r.ncp, nullptr);
          const Vec3 pf = total_friction(r), v = sim.state().bodies[box].velocity;
          if (factor < 1.0) {
            stick_impulse = std::max(stick_impulse, (pf + push * h).norm());
            stick_speed = std::max(stick_speed, v.norm());
            continue;
          }
          const double bound = mu * total_normal(r);
          slide_magnitude = std::max(slide_magnitude, std::abs(pf.norm() - bound) / bound);
          slide_direction = std::max(slide_direction, (pf.normalized() + d).norm());
          slide_speed = std::max(slide_speed, (v - step * h * (factor - 1.0) * mu * kG * d).norm());
        }
      }
    }
    EXPECT_LE(stick_impulse, 1e-9) << solver;
    EXPECT_LE(stick_speed, 1e-9) << solver;
    EXPECT_LE(slide_magnitude, 1e-8) << solver;
    EXPECT_LE(slide_direction, 1e-8) << solver;
    EXPECT_LE(slide_speed, 1e-9) << solver;
  }
}

// The frictionless corner of §5.1 (Fig. 4.1, 5.3): the pyramid's apex near the block's edge
// gives PEG's I({C_top, C_side}) (4.9)-(4.14) with its slack rows (4.33)-(4.36). Entering over
// the corner without gravity, and sliding off the top face under gravity for 12 steps, PEG +
// ncp takes PEG + LCP's steps (without friction both solve the same (4.30)-(4.36)), with the
// I-constraint in the problem; so does PEG + LCP solved by minmap-newton instead of Lemke.
TEST(PegNcp, FrictionlessCornerWithAnInterContactTakesPegLcpSteps) {
  struct Case {
    Vec3 tip, velocity, gravity;
  };
  for (const Case& c : {Case{Vec3(0.01, 0, 0.001), Vec3(-1, 0, 0), Vec3::Zero()},
                        Case{Vec3(-0.02, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, -kG)}}) {
    test::World w;
    test::add_corner_block(w);
    const int pyramid = test::add_inverted_pyramid(w, c.tip);
    w.state.bodies[pyramid].velocity = c.velocity;
    // minmap-newton stalled here under both formulations (on the LCP at the first step, on the
    // NCP at the third) at a local minimum of |min(z, w)|^2 (z_f < 0 against -sum z_f >= 0)
    // until it measured its steps on Fischer's merit (newton.hpp); the LCP row checks it too.
    struct Run {
      Formulation formulation;
      const char* solver;
    };
    for (const Run& run :
         {Run{Formulation::Ncp, "fischer-newton"}, Run{Formulation::Ncp, "minmap-newton"},
          Run{Formulation::Ncp, "path"}, Run{Formulation::StewartTrinkle, "minmap-newton"}}) {
      const char* solver = run.solver;
      Simulator tested(w.model, w.state, peg_settings(run.formulation, solver, c.gravity));
      Simulator lcp(w.model, w.state,
                    peg_settings(Formulation::StewartTrinkle, "lemke", c.gravity));
      int inter = 0;
      double worst = 0.0;
      for (int k = 0; k < 12; ++k) {
        const StepReport& r = tested.step();
        ASSERT_FALSE(r.failed) << solver << " step " << k << ": " << r.failure;
        for (const ConstraintGroup& g : r.constraints.groups)
          inter += g.kind == ConstraintKind::InterContact;
        ASSERT_FALSE(lcp.step().failed);
        worst = std::max(worst, pose_difference(tested.state(), lcp.state()));
      }
      EXPECT_GT(inter, 0) << solver;
      EXPECT_LE(worst, 1e-10) << solver;
    }
  }
}

}  // namespace
}  // namespace pegsim
