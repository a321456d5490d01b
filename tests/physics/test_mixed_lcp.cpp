// Formulation mixed-lcp: the joints kept as free rows of an MCP (thesis (2.34)/(2.35)) give the
// same step as their Schur complement (2.37)-(2.39), on the shipped joint scenes and on a hinged
// box resting on the ground (joint and contact rows together).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../engine/dynamics/step_measures.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"
#include "shipped_scenes.hpp"

namespace pegsim {
namespace {

using test::pose_difference;

using test::shipped;

Settings mixed_with(Settings s, const std::string& solver) {
  s.formulation = Formulation::MixedLcp;
  s.solver = solver;
  s.fallbacks = {};
  return s;
}

// Both runs step the same scene; `steps` steps must agree pose by pose to `tolerance`, the mixed
// one solving an MCP with one free row per joint row (and the contacts' rows).
void expect_same_steps(const Model& model, const State& initial, const Settings& schur_settings,
                       int steps, double tolerance, const std::string& what) {
  Simulator schur(model, initial, schur_settings);
  Simulator mixed(model, initial, mixed_with(schur_settings, "path"));
  double worst = 0.0;
  for (int k = 0; k < steps; ++k) {
    const StepReport& rs = schur.step();
    const StepReport& rm = mixed.step();
    ASSERT_FALSE(rs.failed) << what << " step " << k << ": " << rs.failure;
    ASSERT_FALSE(rm.failed) << what << " step " << k << ": " << rm.failure;
    ASSERT_NE(rm.lcp, nullptr) << what;
    ASSERT_TRUE(rm.lcp->has_bounds()) << what << ": the mixed step solved no MCP";
    EXPECT_GT(rm.lcp->free_rows(), 0) << what;
    EXPECT_EQ(rm.solve.solver, "path");
    worst = std::max(worst, pose_difference(schur.state(), mixed.state()));
  }
  EXPECT_LE(worst, tolerance) << what;
}

TEST(MixedLcp, JointScenesTakeTheSameStepsAsTheSchurForm) {
  for (const char* name : {"pendulum", "double_pendulum", "hanging_rod"}) {
    const Scene scene = shipped(name);
    Settings s = scene.settings;
    s.tolerance = 1e-12;
    expect_same_steps(scene.model, scene.initial, s, 300, 1e-9, name);
  }
}

// A unit box hinged to the world along its bottom edge rests on the ground: the revolute joint's
// five rows are free rows next to the corner contacts' blocks, and both carry the weight.
TEST(MixedLcp, HingedBoxOnTheGroundTakesTheSameStepsAsTheSchurForm) {
  const Scene scene = parse_scene(R"({
    "name": "hinged_box",
    "bodies": [
      { "name": "ground", "shape": { "type": "plane", "normal": [0, 0, 1] },
        "position": [0, 0, 0], "mu": 0.5 },
      { "name": "box", "shape": { "type": "box", "size": [1, 1, 1] }, "position": [0, 0, 0.5],
        "mass": 1, "mu": 0.5 }
    ],
    "joints": [
      { "name": "hinge", "type": "revolute", "body_a": "world", "body_b": "box",
        "anchor": [-0.5, 0, 0], "axis": [0, 1, 0] }
    ]
  })",
                                  "hinged_box", ".");
  Settings s = scene.settings;
  s.tolerance = 1e-12;
  expect_same_steps(scene.model, scene.initial, s, 100, 1e-9, "hinged box");
}

// Solvers without bounds get the Schur-reduced form under mixed-lcp: the same answer, no MCP.
TEST(MixedLcp, LcpOnlySolversGetTheSchurForm) {
  const Scene scene = shipped("double_pendulum");
  Simulator lemke(scene.model, scene.initial, mixed_with(scene.settings, "lemke"));
  Simulator schur(scene.model, scene.initial, scene.settings);
  for (int k = 0; k < 50; ++k) {
    const StepReport& r = lemke.step();
    ASSERT_FALSE(r.failed) << r.failure;
    EXPECT_TRUE(r.lcp == nullptr || !r.lcp->has_bounds());
    schur.step();
  }
  EXPECT_EQ(pose_difference(lemke.state(), schur.state()), 0.0);
}

}  // namespace
// prismatic_limits rides against its upper stop under a PD controller with a damper: the limit's
// complementary row, the damper's compliant row and the rail's free rows share one MCP, and the
// steps match the Schur form's (where the limit row is an LCP row). The carriage's sliding
// contacts with the post are switched off: they repeat the rail's sideways rows, so the normal
// impulse is split between joint and contact arbitrarily, and the friction bound with it (the
// two forms then part by 4e-8 m in the first step, both solved to 1e-15).
TEST(MixedLcp, JointLimitsAndDampingTakeTheSameStepsAsTheSchurForm) {
  Scene scene = shipped("prismatic_limits");
  ASSERT_EQ(scene.model.bodies.size(), 2u);
  scene.model.bodies[0].no_collide = {1};
  scene.model.bodies[1].no_collide = {0};
  Settings s = scene.settings;
  s.tolerance = 1e-12;
  Simulator schur(scene.model, scene.initial, s);
  Simulator mixed(scene.model, scene.initial, mixed_with(s, "path"));
  int steps_on_the_stop = 0;
  double worst = 0.0, largest_limit_impulse = 0.0;
  for (int k = 0; k < 400; ++k) {
    const StepReport& rs = schur.step();
    const StepReport& rm = mixed.step();
    ASSERT_FALSE(rs.failed) << "step " << k << ": " << rs.failure;
    ASSERT_FALSE(rm.failed) << "step " << k << ": " << rm.failure;
    if (rm.joint_limit_rows > 0) {
      ++steps_on_the_stop;
      ASSERT_TRUE(rm.lcp && rm.lcp->has_bounds()) << "step " << k;
      EXPECT_EQ(rm.solve.solver, "path");
      EXPECT_NEAR(rm.joints[0].displacement_limit_impulse, rs.joints[0].displacement_limit_impulse,
                  1e-8);
      largest_limit_impulse =
          std::max(largest_limit_impulse, std::abs(rm.joints[0].displacement_limit_impulse));
    }
    worst = std::max(worst, pose_difference(schur.state(), mixed.state()));
  }
  EXPECT_GT(steps_on_the_stop, 20);
  EXPECT_GT(largest_limit_impulse, 0.01);  // the stop really pushes back
  EXPECT_LE(worst, 1e-9);
}

}  // namespace pegsim
