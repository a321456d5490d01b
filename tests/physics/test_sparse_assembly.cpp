// The simulator assembles M of (6.1) straight into compressed columns (stewart_trinkle.cpp,
// fill_m). Here it is compared, bit for bit, with M written out densely from its definition:
// M(r_c1, r_c2) += g_c1^T W g_c2 for each body both columns act on (bodies ascending), less the
// joints' -Y^T A^-1 Y, and the slip rows' E, -E^T, U. Same bits means the same trajectories as
// the dense assembly the program had before.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "engine/dynamics/simulator.hpp"
#include "engine/formulation/constraint_problem.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "io/scene.hpp"
#include "shipped_scenes.hpp"

namespace pegsim {
namespace {

// M from its definition, dense, in the order of the dense assembly.
MatX definition_m(const ContactProblem& p, int bodies, bool slip_constants) {
  const int n = p.lcp.size();
  const int ncols = static_cast<int>(p.G_a.size());
  const int limit_col = p.limit_column_start();
  auto body = [&](int c, int end) {
    if (c >= limit_col) {
      const LimitRow& l = p.limit_rows[static_cast<std::size_t>(c - limit_col)];
      return end == 0 ? l.body_a : l.body_b;
    }
    const int i = c / (1 + p.directions);
    return end == 0 ? p.body_a[i] : p.body_b[i];
  };
  MatX M = MatX::Zero(n, n);
  for (int b = 0; b < bodies; ++b)
    for (int c1 = 0; c1 < ncols; ++c1)
      for (int e1 : {0, 1}) {
        if (body(c1, e1) != b) continue;
        for (int c2 = 0; c2 < ncols; ++c2)
          for (int e2 : {0, 1})
            if (body(c2, e2) == b)
              M(p.row_of_column(c1), p.row_of_column(c2)) +=
                  (e1 == 0 ? p.G_a[c1] : p.G_b[c1]).dot(e2 == 0 ? p.WG_a[c2] : p.WG_b[c2]);
      }
  if (!p.joint_rows.empty() && ncols > 0)
    for (int c1 = 0; c1 < ncols; ++c1)
      for (int c2 = 0; c2 < ncols; ++c2)
        M(p.row_of_column(c1), p.row_of_column(c2)) -= p.joint_coupling(c1, c2);
  if (slip_constants && p.directions > 0)  // a frictionless problem has no slip rows
    for (int i = 0; i < p.contacts(); ++i) {
      const int base = i * p.block_size(), s = base + p.directions + 1;
      for (int k = 1; k <= p.directions; ++k) {
        M(base + k, s) = 1.0;
        M(s, base + k) = -1.0;
      }
      M(s, base) = p.mu[static_cast<std::size_t>(i)];
    }
  return M;
}

struct Assembled {
  ContactProblem problem;
  int bodies = 0;
  int rows_before_slack = 0;  // PEG: the rows of (6.1) before the groups' slack rows
};

// The scene stepped `steps` times, then its next problem assembled as the simulator does.
Assembled assemble_after(const std::filesystem::path& file, int steps, const Settings* change) {
  Scene scene = load_scene(file);
  if (change) scene.settings = *change;
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int k = 0; k < steps; ++k) sim.step();
  const State before = sim.state();
  const StepReport& r = sim.step();
  Assembled a;
  a.bodies = static_cast<int>(sim.model().bodies.size());
  std::vector<int> primaries;
  assemble_constraint_problem(sim.model(), before, sim.settings(), r.contacts, r.constraints,
                              primaries, a.problem);
  ContactProblem plain;
  assemble_stewart_trinkle(sim.model(), before, sim.settings(), r.contacts, primaries, plain);
  a.rows_before_slack = plain.lcp.size();
  return a;
}

bool same_bits(const MatX& a, const MatX& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

// The problem's M holds its nonzeros only, rows ascending, and equals the definition.
void expect_definition(const Assembled& a, bool slip_constants, const std::string& what) {
  const ContactProblem& p = a.problem;
  ASSERT_TRUE(m_is_sparse(p.lcp)) << what;
  EXPECT_EQ(p.lcp.M.size(), 0) << what << ": no dense M";
  const SparseMatX& S = p.lcp.S;
  ASSERT_TRUE(S.isCompressed()) << what;
  for (Eigen::Index j = 0; j < S.outerSize(); ++j) {
    Eigen::Index last = -1;
    for (SparseMatX::InnerIterator it(S, j); it; ++it) {
      EXPECT_GT(it.row(), last) << what << ", column " << j;
      EXPECT_NE(it.value(), 0.0) << what << ", column " << j;
      last = it.row();
    }
  }
  const int n0 = a.rows_before_slack;
  const MatX M = MatX(S).topLeftCorner(n0, n0);
  ContactProblem head = p;  // the definition reads the columns of (6.1) only
  head.lcp.q.conservativeResize(n0);
  EXPECT_TRUE(same_bits(M, definition_m(head, a.bodies, slip_constants))) << what;
}

using test::kScenes;

TEST(SparseAssembly, Stack10sMIsItsDefinitionBitForBit) {
  const Assembled a = assemble_after(kScenes / "stack10.json", 3, nullptr);
  EXPECT_EQ(a.problem.lcp.size(), 360);
  EXPECT_EQ(a.problem.lcp.S.nonZeros(),
            (definition_m(a.problem, a.bodies, true).array() != 0.0).count());
  expect_definition(a, true, "stack10");
}

TEST(SparseAssembly, APileOfTwentyCubesGivesItsDefinitionBitForBit) {
  const Assembled a =
      assemble_after(std::filesystem::path(PEGSIM_TESTDATA_DIR) / "pour20_pile.json", 1, nullptr);
  ASSERT_GT(a.problem.lcp.size(), 800);
  // About 5 % of the entries: a dense M would be 20 times the size.
  EXPECT_LT(a.problem.lcp.S.nonZeros(), a.problem.lcp.size() * a.problem.lcp.size() / 10);
  expect_definition(a, true, "pour20 pile");
}

TEST(SparseAssembly, JointsAndLimitsGiveTheirDefinitionBitForBit) {
  const Assembled cart = assemble_after(kScenes / "rolling_cart.json", 60, nullptr);
  ASSERT_FALSE(cart.problem.joint_rows.empty());
  ASSERT_GT(cart.problem.contacts(), 0);
  expect_definition(cart, true, "rolling_cart");
  const Assembled stops = assemble_after(kScenes / "prismatic_limits.json", 150, nullptr);
  ASSERT_FALSE(stops.problem.limit_rows.empty());
  expect_definition(stops, true, "prismatic_limits");
}

TEST(SparseAssembly, TheNcpAndPlanarProblemsGiveTheirDefinitionBitForBit) {
  Scene stack = load_scene(kScenes / "stack10.json");
  Settings ncp = stack.settings;
  ncp.formulation = Formulation::Ncp;
  ncp.solver = "fischer-newton";
  ncp.fallbacks = {"path"};
  expect_definition(assemble_after(kScenes / "stack10.json", 2, &ncp), false, "stack10, ncp");
  expect_definition(assemble_after(kScenes / "box_stack_2d.json", 40, nullptr), true,
                    "box_stack_2d");
}

// PEG's slack rows (4.44), (4.45) join the sparse M after (6.1)'s rows and columns.
TEST(SparseAssembly, PegSlackRowsFollowTheStandardRows) {
  Scene scene = load_scene(kScenes / "cascading_polyhedra.json");
  Settings peg = scene.settings;
  peg.contact_model = ContactModel::Peg;
  int with_slacks = 0;
  for (int steps : {60, 120, 180, 240}) {
    const Assembled a = assemble_after(kScenes / "cascading_polyhedra.json", steps, &peg);
    expect_definition(a, true, "cascading_polyhedra, PEG, step " + std::to_string(steps));
    const int n0 = a.rows_before_slack, n = a.problem.lcp.size();
    if (n == n0) continue;
    ++with_slacks;
    // E_I1: each slack row has 1 on the diagonal of its group's slack block.
    for (int row = n0; row < n; ++row) EXPECT_EQ(m_entry(a.problem.lcp, row, row), 1.0);
  }
  EXPECT_GT(with_slacks, 0) << "no step with an I-constraint: pick other steps";
}

// The mixed form (joints as free rows, (2.34)/(2.35)) is held by its nonzeros: [A Y; Y_r M_c]
// with M_c the contacts' M without the joints' Schur complement, which the Schur form's M
// spreads over every pair of force rows. M_c is its definition bit for bit, and the mixed form
// is what it was when built densely from the Schur form, M_c = M + Y_r A^-1 Y, to rounding.
TEST(SparseAssembly, TheMixedFormKeepsTheContactsSparse) {
  for (const char* name : {"rolling_cart.json", "prismatic_limits.json"}) {
    Scene scene = load_scene(kScenes / name);
    Settings mixed = scene.settings;
    mixed.formulation = Formulation::MixedLcp;
    mixed.solver = "path";
    Assembled a = assemble_after(kScenes / name, 60, &mixed);
    ContactProblem& p = a.problem;
    const int m = static_cast<int>(p.joint_rows.size()), n = p.lcp.size();
    ASSERT_GT(m, 0) << name;
    ASSERT_GT(n, 0) << name;
    assemble_mixed_lcp(p);
    ASSERT_TRUE(m_is_sparse(p.mixed)) << name;
    const MatX K(p.mixed.S);
    EXPECT_EQ(K.topLeftCorner(m, m), p.joint_gram) << name;
    EXPECT_EQ(K.bottomLeftCorner(n, m), p.row_joint_coupling) << name;
    ContactProblem contacts = p;  // the definition without the joints' share
    contacts.joint_rows.clear();
    EXPECT_TRUE(same_bits(K.bottomRightCorner(n, n), definition_m(contacts, a.bodies, true)))
        << name;
    MatX schur(p.lcp.S);  // the dense construction it replaces
    const MatX back = p.row_joint_coupling * p.joint_A.solve(p.joint_Y);
    for (int col = 0; col < static_cast<int>(p.G_a.size()); ++col) {
      EXPECT_EQ(K.col(m + p.row_of_column(col)).head(m), p.joint_Y.col(col)) << name;
      schur.col(p.row_of_column(col)) += back.col(col);
    }
    EXPECT_LE((K.bottomRightCorner(n, n) - schur).cwiseAbs().maxCoeff(),
              1e-12 * schur.cwiseAbs().maxCoeff())
        << name;
    // rolling_cart's wheels touch the ground apart: only the joints couple their contacts
    // (measured: 4336 entries in M_c against the Schur form's 16 624, of 144 x 144).
    const auto contact_entries = (K.bottomRightCorner(n, n).array() != 0.0).count();
    if (std::string(name) == "rolling_cart.json")
      EXPECT_LT(2 * contact_entries, p.lcp.S.nonZeros()) << name;
    else
      EXPECT_LE(contact_entries, p.lcp.S.nonZeros()) << name;
  }
}

}  // namespace
}  // namespace pegsim
