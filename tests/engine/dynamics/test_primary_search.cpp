// Several primaries per I-constraint, thesis (4.10)-(4.13) (dynamics/primary_search.hpp), on
// hand-made contacts at a body's centre of mass, solved by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/contact_models/constraint_groups.hpp"
#include "engine/dynamics/primary_search.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/formulation/constraint_problem.hpp"
#include "engine/solvers/solver.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

constexpr double kStep = 0.01;
const double kS3 = std::sqrt(3.0);

// A unit-mass frictionless box, no gravity, whose centre of mass is a vertex near the edge of
// a static block where two faces meet at 120 degrees: C1 against the top face (n1 = +z,
// psi_1 = 2 mm), C2 against the slanted face (n2 = (sqrt3/2, 0, 1/2), psi_2 = 1 mm), n1.n2 =
// 1/2. The box moves at v = (0.6/sqrt3, 0, -1.2) m/s, so that without force the step ends at
// psi_1 = 2 mm - 12 mm = -10 mm and psi_2 = 1 mm + h (0.3 - 0.6) m/s = -2 mm.
//
// The thesis' primary is C1, the largest gap at the start. Its LCP (4.14) stops when
// max(psi_1, psi_2) reaches 0, which C2 does first: psi_2 rises by h lambda / 2, psi_1 by
// h lambda, so lambda_1 = 0.4 N s, psi_2 = 0 and psi_1 = -6 mm. The force sits at the face the
// vertex ends 6 mm behind, which (4.13) forbids. With C2 primary: lambda_2 = 0.2 N s gives
// psi_2 = 0, psi_1 = -10 mm + h 0.1 m/s = -9 mm, and (4.10)-(4.13) hold.
struct SlantedCorner {
  test::World w;
  int block = 0, box = 0;
  std::vector<Contact> contacts;
  Settings settings;
  Vec3 n2{kS3 / 2, 0, 0.5};

  SlantedCorner() {
    block = w.add_box("block", Vec3(2, 2, 2), 1.0, Vec3(-1, 0, -1), Quat::Identity(), 0.0);
    w.model.bodies[block].is_static = true;
    box = w.add_box("box", Vec3(0.1, 0.1, 0.1), 1.0, Vec3(0, 0, 0), Quat::Identity(), 0.0);
    w.state.bodies[box].velocity = Vec3(0.6 / kS3, 0, -1.2);
    contacts.push_back(at_centre(Vec3::UnitZ(), 0.002));
    contacts.push_back(at_centre(n2, 0.001));
    settings.h = kStep;
    settings.gravity.setZero();
  }
  Contact at_centre(const Vec3& n, double gap) const { return w.at_centre(block, box, n, gap); }

  // Solves the leaf `set` and returns the box's velocity; fills the group's impulse.
  Vec3 solve(ConstraintSet& set, VecX& velocity) const {
    std::vector<int> primaries;
    ContactProblem problem;
    assemble_constraint_problem(w.model, w.state, settings, contacts, set, primaries, problem);
    VecX z;
    const SolveReport report = make_solver("lemke")->solve(problem.lcp, z, SolverOptions{});
    EXPECT_TRUE(report.solved()) << report.message;
    contact_velocities(problem, z, velocity);
    set.groups[0].impulse = z(0);
    return velocity.segment<3>(6 * box);
  }
  std::vector<double> end_rates(const VecX& velocity) const {
    std::vector<double> rate;
    for (const Contact& c : contacts)
      rate.push_back(end_gap_rate(w.model, w.state, settings, c, velocity));
    return rate;
  }
};

TEST(PrimarySearch, ThesisPrimaryBreaks4_13AndTheSearchMovesTheForceToTheFaceTheStepEndsAt) {
  const SlantedCorner corner;
  ConstraintSet set;
  ASSERT_TRUE(add_inter_contact(corner.contacts, ConstraintKind::InterContact, {0, 1}, set));
  ASSERT_EQ(set.primary(set.groups[0]), 0);  // the largest gap at the start

  PrimarySearch search;
  ASSERT_TRUE(begin_primary_search(corner.contacts, set, search));
  ASSERT_EQ(search.groups, std::vector<int>{0});
  mark_leaf_visited(search);

  VecX nu;
  const Vec3 thesis = corner.solve(set, nu);
  EXPECT_NEAR(set.groups[0].impulse, 0.4, 1e-12);
  EXPECT_NEAR((thesis - Vec3(0.6 / kS3, 0, -0.8)).norm(), 0.0, 1e-12);
  std::vector<double> rate = corner.end_rates(nu);
  EXPECT_NEAR(kStep * rate[0], -0.006, 1e-14);  // psi_1 at the end
  EXPECT_NEAR(kStep * rate[1], 0.0, 1e-14);     // psi_2 = max = 0
  const std::vector<double> violation{
      primary_violation(set, set.groups[0], rate, kStep, corner.settings.tolerance)};
  EXPECT_NEAR(violation[0], 0.006, 1e-14);

  ASSERT_TRUE(next_primary_leaf(violation, rate, search));
  EXPECT_EQ(search.choice, std::vector<int>{1});
  leaf_constraints(search, set);
  EXPECT_EQ(set.primary(set.groups[0]), 1);
  mark_leaf_visited(search);

  const Vec3 several = corner.solve(set, nu);
  EXPECT_NEAR(set.groups[0].impulse, 0.2, 1e-12);
  EXPECT_NEAR((several - (Vec3(0.6 / kS3, 0, -1.2) + 0.2 * corner.n2)).norm(), 0.0, 1e-12);
  rate = corner.end_rates(nu);
  EXPECT_NEAR(kStep * rate[0], -0.009, 1e-14);
  EXPECT_NEAR(kStep * rate[1], 0.0, 1e-14);
  EXPECT_EQ(primary_violation(set, set.groups[0], rate, kStep, corner.settings.tolerance), 0.0);

  // Both leaves tried: nothing is left.
  EXPECT_FALSE(next_primary_leaf({0.001}, rate, search));
}

// A group carrying no impulse meets (4.13) wherever its contacts end; a primary tied with the
// largest gap to within kGapTie does too.
TEST(PrimarySearch, NoImpulseOrATieIsNoViolation) {
  ConstraintSet set;
  set.add(ConstraintKind::InterContact, {0, 1});
  const std::vector<double> rate{-1.0, 2.0};  // the primary ends 3 h below the other
  set.groups[0].impulse = 0.0;
  EXPECT_EQ(primary_violation(set, set.groups[0], rate, kStep, 1e-10), 0.0);
  set.groups[0].impulse = 1e-11;  // below the floor: solver noise, not a force
  EXPECT_EQ(primary_violation(set, set.groups[0], rate, kStep, 1e-10), 0.0);
  set.groups[0].impulse = 1.0;
  EXPECT_NEAR(primary_violation(set, set.groups[0], rate, kStep, 1e-10), 0.03, 1e-15);
  const std::vector<double> tied{1.0, 1.0 + 0.5 * kGapTie / kStep};
  EXPECT_EQ(primary_violation(set, set.groups[0], tied, kStep, 1e-10), 0.0);
}

// Only I-constraints with two or more C_iota contacts are searched: X-constraints carry no
// force of their own (§4.2.3) and a C_kappa contact never carries one (C-split, Alg. 9).
TEST(PrimarySearch, SearchesOnlyIConstraintsWithSeveralIotaContacts) {
  std::vector<Contact> contacts(6);
  contacts[2].feasible = false;  // C_kappa
  contacts[5].applicable = false;
  ConstraintSet set;
  set.add(ConstraintKind::Unilateral, {0});
  set.add(ConstraintKind::InterContact, {1, 2});     // one C_iota contact
  set.add(ConstraintKind::CrossContact, {3, 4});     // X
  set.add(ConstraintKind::InterContact, {3, 5, 4});  // C_iota 3 and 4
  PrimarySearch search;
  ASSERT_TRUE(begin_primary_search(contacts, set, search));
  EXPECT_EQ(search.groups, std::vector<int>{3});
  search.choice = {1};
  ConstraintSet leaf;
  leaf_constraints(search, leaf);
  const ConstraintGroup& g = leaf.groups[3];
  EXPECT_EQ(std::vector<int>(leaf.members.begin() + g.first, leaf.members.begin() + g.first + 3),
            (std::vector<int>{4, 3, 5}));
  EXPECT_EQ(leaf.members.size(), set.members.size());
  for (int k : {0, 1, 2}) EXPECT_EQ(leaf.groups[k].first, set.groups[k].first);

  set.groups.pop_back();
  set.members.resize(5);
  EXPECT_FALSE(begin_primary_search(contacts, set, search));
}

// Leaves beyond the first move in mixed-radix order once the greedy move repeats one: two
// groups of two candidates have four leaves, and each is tried once.
TEST(PrimarySearch, EveryLeafIsTriedOnce) {
  std::vector<Contact> contacts(4);
  ConstraintSet set;
  set.add(ConstraintKind::InterContact, {0, 1});
  set.add(ConstraintKind::InterContact, {2, 3});
  PrimarySearch search;
  ASSERT_TRUE(begin_primary_search(contacts, set, search));
  const std::vector<double> rate{0.0, 0.0, 0.0, 0.0};
  const std::vector<double> both{1.0, 1.0};
  std::vector<std::vector<int>> seen;
  do {
    mark_leaf_visited(search);
    seen.push_back(search.choice);
  } while (next_primary_leaf(both, rate, search));
  ASSERT_EQ(seen.size(), 4u);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
}

}  // namespace
}  // namespace pegsim

namespace pegsim {
namespace {

// The slanted corner with real geometry (PEG, Alg. 15): the tip of a needle pyramid 2 mm above
// the edge of a static wedge whose faces meet at 120 degrees, moving as above; a huge inertia
// keeps its rotation out of the numbers (the tip is 0.75 m from the centre of mass). The
// contact model builds I(C(tip, top), C(tip, slant)) with both contacts primary.
struct NeedleOverWedge {
  test::World w;
  int needle = 0;

  NeedleOverWedge() {
    std::vector<Vec3> wedge;
    for (double y : {-0.5, 0.5})
      for (const Vec2& xz : {Vec2(-1, 0), Vec2(0, 0), Vec2(0.5, -kS3 / 2), Vec2(-1, -kS3 / 2)})
        wedge.push_back(Vec3(xz.x(), y, xz.y()));
    Body b;
    b.name = "wedge";
    b.shape = Shape::convex(std::make_shared<Polytope>(make_convex_hull(wedge)));
    b.is_static = true;
    b.mu = 0.0;
    w.add(b, Vec3::Zero());
    std::vector<Vec3> pyramid{Vec3(0, 0, -0.75)};  // the tip; the centroid at the origin
    for (double x : {-0.1, 0.1})
      for (double y : {-0.1, 0.1}) pyramid.push_back(Vec3(x, y, 0.25));
    Body n;
    n.name = "needle";
    n.shape = Shape::convex(std::make_shared<Polytope>(make_convex_hull(pyramid)));
    n.mass = 1.0;
    n.inertia = Mat3::Identity() * 1e9;
    n.mu = 0.0;
    needle = w.add(n, Vec3(0, 0, 0.752));
    w.state.bodies[needle].velocity = Vec3(0.6 / kS3, 0, -1.2);
  }
  Settings settings(Primaries primaries) const {
    Settings s;
    s.h = kStep;
    s.gravity.setZero();
    s.contact_model = ContactModel::Peg;
    s.epsilon = 0.02;
    s.primaries = primaries;
    return s;
  }
};

TEST(PrimarySearch, TheSimulatorMovesThePrimaryOfANeedleTipOverAWedgeEdge) {
  const NeedleOverWedge scene;
  const Vec3 v0(0.6 / kS3, 0, -1.2), n2(kS3 / 2, 0, 0.5);

  Simulator thesis(scene.w.model, scene.w.state, scene.settings(Primaries::LargestGap));
  const StepReport& r = thesis.step();
  ASSERT_FALSE(r.failed) << r.failure;
  ASSERT_EQ(r.constraints.groups.size(), 1u);
  EXPECT_EQ(r.constraints.groups[0].kind, ConstraintKind::InterContact);
  EXPECT_EQ(r.primary_leaves, 0);  // no search
  EXPECT_NEAR(
      (r.contacts[r.constraints.primary(r.constraints.groups[0])].normal - Vec3::UnitZ()).norm(),
      0.0, 1e-12);
  EXPECT_NEAR(r.constraints.groups[0].impulse, 0.4, 1e-9);
  EXPECT_NEAR((thesis.state().bodies[scene.needle].velocity - Vec3(v0.x(), 0, -0.8)).norm(), 0.0,
              1e-9);

  Simulator several(scene.w.model, scene.w.state, scene.settings(Primaries::Several));
  const StepReport& s = several.step();
  ASSERT_FALSE(s.failed) << s.failure;
  EXPECT_EQ(s.primary_leaves, 2);
  EXPECT_EQ(s.primaries_moved, 1);
  EXPECT_FALSE(s.primary_search_unresolved);
  EXPECT_NEAR((s.contacts[s.constraints.primary(s.constraints.groups[0])].normal - n2).norm(), 0.0,
              1e-12);
  EXPECT_NEAR(s.constraints.groups[0].impulse, 0.2, 1e-9);
  EXPECT_NEAR((several.state().bodies[scene.needle].velocity - (v0 + 0.2 * n2)).norm(), 0.0, 1e-9);
  // The tip ends on the slanted face's plane (psi_2 = 1 mm + h (n2 . v) = 0) and 9 mm behind
  // the top face's: it went down the slant, as (4.13) wants of the face that pushes it.
  const Vec3 tip = several.state().bodies[scene.needle].position + Vec3(0, 0, -0.75);
  EXPECT_NEAR(tip.dot(n2), 0.0, 1e-9);
  EXPECT_NEAR(tip.z(), -0.009, 1e-9);
}

// The search re-solves whatever the formulation poses: the NCP of (4.37)-(4.40) (path) gives
// the same leaf and the same answer, frictionless.
TEST(PrimarySearch, TheNcpFormulationFindsTheSameLeaf) {
  const NeedleOverWedge scene;
  const Vec3 v0(0.6 / kS3, 0, -1.2), n2(kS3 / 2, 0, 0.5);
  Settings settings = scene.settings(Primaries::Several);
  settings.formulation = Formulation::Ncp;
  settings.solver = "path";
  settings.fallbacks.clear();
  Simulator sim(scene.w.model, scene.w.state, settings);
  const StepReport& s = sim.step();
  ASSERT_FALSE(s.failed) << s.failure;
  EXPECT_EQ(s.primary_leaves, 2);
  EXPECT_EQ(s.primaries_moved, 1);
  EXPECT_NEAR((sim.state().bodies[scene.needle].velocity - (v0 + 0.2 * n2)).norm(), 0.0, 1e-8);
}

}  // namespace
}  // namespace pegsim
