// The time-stepping problem of a ConstraintSet (thesis §4.7, (4.41)-(4.49), single-primary
// form (4.14)) on hand-made contacts at a body's centre of mass, solved by hand.
#include <gtest/gtest.h>

#include "../dynamics/test_world.hpp"
#include "engine/core/joint.hpp"
#include "engine/formulation/constraint_problem.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {
namespace {

constexpr double kH = 0.01;
using test::kG;

// A static block and a frictionless unit-mass box falling at 1 m/s, whose centre of mass is
// the vertex v of Fig. 4.1 near the block's corner: C1 against the top face (n = +z), C2
// against the side face (n = +x), both at the centre of mass (no lever arm).
struct Corner {
  test::World w;
  int block = 0, box = 0;
  std::vector<Contact> contacts;
  Settings settings;

  Corner(double gap_top, double gap_side) {
    block = w.add_box("block", Vec3(2, 2, 2), 1.0, Vec3(-1, 0, -1), Quat::Identity(), 0.0);
    w.model.bodies[block].is_static = true;
    box = w.add_box("box", Vec3(0.1, 0.1, 0.1), 1.0, Vec3(0, 0, 0), Quat::Identity(), 0.0);
    w.state.bodies[box].velocity = Vec3(0, 0, -1);
    contacts.push_back(at_centre(Vec3::UnitZ(), gap_top));
    contacts.push_back(at_centre(Vec3::UnitX(), gap_side));
    settings.h = kH;
    settings.gravity = Vec3(0, 0, -kG);
  }
  Contact at_centre(const Vec3& n, double gap) const { return w.at_centre(block, box, n, gap); }

  struct Answer {
    Vec3 velocity;
    std::vector<double> impulse;  // per group
    VecX z;
    ContactProblem problem;
  };
  Answer solve(const ConstraintSet& set) const {
    Answer a;
    std::vector<int> primaries;
    assemble_constraint_problem(w.model, w.state, settings, contacts, set, primaries, a.problem);
    SolverOptions options;
    const SolveReport report = make_solver("lemke")->solve(a.problem.lcp, a.z, options);
    EXPECT_TRUE(report.solved()) << report.message;
    VecX nu;
    contact_velocities(a.problem, a.z, nu);
    a.velocity = nu.segment<3>(6 * box);
    for (int i = 0; i < a.problem.contacts(); ++i)
      a.impulse.push_back(a.z(i * a.problem.block_size()));
    return a;
  }
};

ConstraintSet standard_model_set() {  // both contacts enforced, as the SM does, (4.8)
  ConstraintSet set;
  set.add(ConstraintKind::Unilateral, {0});
  set.add(ConstraintKind::Unilateral, {1});
  return set;
}

ConstraintSet inter_contact_set(int primary) {  // I({C_primary}, {C_other}), (4.14)
  ConstraintSet set;
  set.add(ConstraintKind::InterContact, {primary, 1 - primary});
  return set;
}

const double kFree = -1.0 - kG * kH;  // z velocity after a free step

// Fig. 5.1: the vertex rests on the top face (psi_1 = 0) but lies 4 cm behind the side
// face's plane (psi_2 = -0.04). The SM corrects psi_2 with a spurious impulse of
// -psi_2 / h = 4 N s to the right; the I-constraint needs max(psi_1, psi_2) >= 0 only, which
// the top face already gives: the box just stops on the top face.
TEST(ConstraintProblem, Fig5_1_NoSpuriousImpulseFromBehindTheCorner) {
  const Corner corner(0.0, -0.04);
  const auto sm = corner.solve(standard_model_set());
  EXPECT_NEAR(sm.impulse[1], 4.0, 1e-9);
  EXPECT_NEAR(sm.velocity.x(), 4.0, 1e-9);
  EXPECT_NEAR(sm.velocity.z(), 0.0, 1e-9);

  const auto peg = corner.solve(inter_contact_set(0));
  EXPECT_EQ(peg.problem.lcp.size(), peg.problem.block_size() + 1);  // one slack row (4.10)
  EXPECT_NEAR(peg.impulse[0], -kFree, 1e-9);  // m (1 + g h): stops the fall, (4.14)
  EXPECT_NEAR(peg.velocity.norm(), 0.0, 1e-9);
  EXPECT_NEAR(peg.z(peg.problem.block_size()), 0.0, 1e-12);  // c = max(psi_2 - psi_1, 0)
}

// Fig. 4.1, the SM trap: the vertex is 1 mm above the top face's plane and 1 mm outside the
// side face, i.e. past the corner, falling. The SM holds it up on the top face's extended
// plane (v_z = -psi_1 / h = -0.1 m/s); under the I-constraint the side face's gap keeps
// max(psi_1, psi_2) >= 0 and the box falls freely whichever contact is primary.
TEST(ConstraintProblem, Fig4_1_NoTrapPastTheCorner) {
  const Corner corner(0.001, 0.001);
  const auto sm = corner.solve(standard_model_set());
  EXPECT_NEAR(sm.velocity.z(), -0.1, 1e-9);
  EXPECT_NEAR(sm.impulse[0], -0.1 - kFree, 1e-9);  // m (v_z - v_free)

  for (int primary : {0, 1}) {
    const auto peg = corner.solve(inter_contact_set(primary));
    EXPECT_NEAR(peg.impulse[0], 0.0, 1e-12) << "primary C" << primary + 1;
    EXPECT_NEAR((peg.velocity - Vec3(0, 0, kFree)).norm(), 0.0, 1e-9);
  }
  // With C1 primary the slack is c = max(psi_2 - psi_1, 0) at the end of the step (4.10):
  // (0.1 - 0) - (0.1 + kFree) = 1.0981 m/s.
  const auto peg = corner.solve(inter_contact_set(0));
  EXPECT_NEAR(peg.z(peg.problem.block_size()), -kFree, 1e-9);
}

// Inside the corner (psi_1 = -1 mm, psi_2 = -2 cm) the I-constraint restores the larger gap
// only, max(psi_1, psi_2) = psi_1 -> 0: v_z = 0.1 m/s, v_x = 0. The SM pushes out of both
// half-spaces, v_x = 2 m/s.
TEST(ConstraintProblem, InsideTheCornerOnlyTheLeastPenetrationIsRestored) {
  const Corner corner(-0.001, -0.02);
  const auto sm = corner.solve(standard_model_set());
  EXPECT_NEAR(sm.velocity.x(), 2.0, 1e-9);
  EXPECT_NEAR(sm.velocity.z(), 0.1, 1e-9);
  const auto peg = corner.solve(inter_contact_set(0));
  EXPECT_NEAR(peg.velocity.x(), 0.0, 1e-9);
  EXPECT_NEAR(peg.velocity.z(), 0.1, 1e-9);
  EXPECT_NEAR(peg.impulse[0], 0.1 - kFree, 1e-9);
}

// Fig. 4.1 again, the box now on a vertical rail (prismatic joint, world to box) whose stop
// lets it fall 0.5 mm at most. The stop's impulse must reach the slack row (4.44) through
// (G_1 - G_2)^T W G_limit like any force column: the limit row gives v_z = -0.0005/h =
// -0.05 m/s (impulse m (v_z - v_free) = 1.0481 N s), the rail keeps v_x = 0, so with C1
// primary c = max(psi_2 - psi_1 + h (v_x - v_z), 0) / h = 0.05 m/s, not the 1.0981 m/s of a
// free fall; the top face carries nothing (its row c + psi_1/h + v_z = 0.1 > 0).
TEST(ConstraintProblem, SlackRowsFeelTheJointLimitImpulses) {
  Corner corner(0.001, 0.001);
  Joint rail =
      make_joint(corner.w.state, JointType::Prismatic, -1, corner.box, Vec3::Zero(), Vec3::UnitZ());
  rail.displacement_limit.lower = -0.0005;
  corner.w.model.joints.push_back(rail);
  const auto peg = corner.solve(inter_contact_set(0));
  const int limit_row = peg.problem.limit_row_start();
  ASSERT_EQ(peg.problem.lcp.size(), limit_row + 2);  // the limit row, then one slack row
  EXPECT_NEAR(peg.velocity.z(), -0.05, 1e-9);
  EXPECT_NEAR(peg.velocity.x(), 0.0, 1e-9);
  EXPECT_NEAR(peg.z(limit_row), -0.05 - kFree, 1e-9);
  EXPECT_NEAR(peg.z(limit_row + 1), 0.05, 1e-9);  // c
  EXPECT_NEAR(peg.impulse[0], 0.0, 1e-12);
}

// With U-constraints only the problem is the SM's (6.1) entry for entry, (4.52) = (4.53)
// with n_s = 0.
TEST(ConstraintProblem, OnlyUnilateralConstraintsGiveTheStewartTrinkleLcp) {
  const Corner corner(0.0, -0.04);
  ContactProblem st;
  assemble_stewart_trinkle(corner.w.model, corner.w.state, corner.settings, corner.contacts, {0, 1},
                           st);
  const auto sm = corner.solve(standard_model_set());
  ASSERT_EQ(sm.problem.lcp.size(), st.lcp.size());
  EXPECT_EQ(MatX(sm.problem.lcp.S), MatX(st.lcp.S));
  EXPECT_EQ(sm.problem.lcp.S.nonZeros(), st.lcp.S.nonZeros());
  EXPECT_EQ(sm.problem.lcp.q, st.lcp.q);
  EXPECT_EQ(sm.problem.lcp.block_starts, st.lcp.block_starts);
}

}  // namespace
}  // namespace pegsim
