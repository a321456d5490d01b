// pegsim-cli end to end: run, validate, the summary, exit codes, and file safety.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/solver.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

namespace fs = std::filesystem;

using Result = pegsim::test::CliResult;
using pegsim::test::cli;

std::string scene(const std::string& name) {
  return std::string(PEGSIM_SOURCE_DIR) + "/scenes/" + name + ".json";
}

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("pegsim-cli-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

TEST(Cli, RunPrintsAJsonSummaryWithTheFinalState) {
  Result r = cli("run " + scene("hello_world") + " --steps 50 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["steps"], 50);
  EXPECT_TRUE(j["completed"].get<bool>());
  EXPECT_NEAR(j["simulated_seconds"].get<double>(), 50 * j["h"].get<double>(), 1e-12);
  EXPECT_EQ(j["solver_failures"], 0);
  EXPECT_LE(j["max_penetration"].get<double>(), 1e-6);
  ASSERT_FALSE(j["bodies"].empty());
  EXPECT_EQ(j["bodies"][0]["orientation"].size(), 4u);
  EXPECT_GT(j["contacts_per_step"].get<double>(), 0.0);
}

// The scene of seed 001's Example 1 runs under its formulation, geometrically-implicit: every
// step answered by the semismooth Newton method, the disc's energy kept (16.56 J with the
// potential of its centre at 1 m), no penetration.
TEST(Cli, TheRollingDiscSceneRunsGeometricallyImplicit) {
  Result r = cli("run " + scene("rolling_disc") + " --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["formulation"], "geometrically-implicit");
  EXPECT_EQ(j["answered_by"]["mcp-newton"], 1000);
  EXPECT_EQ(j["unsolved_steps"], 0);
  EXPECT_NEAR(j["energy"]["end"].get<double>(), 6.75 + 9.81, 1e-6);
  EXPECT_NEAR(j["energy"]["max"].get<double>(), 6.75 + 9.81, 1e-6);
  EXPECT_LE(j["max_penetration"].get<double>(), 1e-9);
  EXPECT_NEAR(j["bodies"][1]["position"][0].get<double>(), -30.0, 1e-6);
}

// The smooth shapes as shipped: every step solved on the surfaces themselves, none ending with
// a body inside another (nor their tessellations overlapping), the energy never above its
// start, and the egg still on the ground between its smallest and largest semi-axis high.
TEST(Cli, TheSmoothShapesSceneRunsWithoutPenetrationOrEnergyGain) {
  Result r = cli("run " + scene("smooth_shapes") + " --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["formulation"], "geometrically-implicit");
  EXPECT_EQ(j["answered_by"]["mcp-newton"], 800);
  EXPECT_EQ(j["unsolved_steps"], 0);
  EXPECT_LE(j["max_penetration"].get<double>(), 1e-9);
  EXPECT_EQ(j["overlap"]["steps_with_overlap"], 0);
  EXPECT_LE(j["energy"]["max"].get<double>(), j["energy"]["start"].get<double>());
  const double z = j["bodies"][1]["position"][2].get<double>();
  EXPECT_GE(z, 0.3 - 1e-9);
  EXPECT_LE(z, 0.6);
}

// Seed 001's Example 3 as shipped: after the core impact at 0.3355 s the disc stays between
// the core (q_y = 0.95) and its apex 1.0774 m, and never ends a step inside the deformed ground.
TEST(Cli, TheQuasiRigidDiscSceneBouncesBetweenTheCoreAndItsApex) {
  Result r = cli("run " + scene("quasi_rigid_disc") + " --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["answered_by"]["mcp-newton"], 15000);
  EXPECT_EQ(j["unsolved_steps"], 0);
  EXPECT_LE(j["max_penetration"].get<double>(), 1e-9);
  const double y = j["bodies"][1]["position"][1].get<double>();
  EXPECT_GE(y, 0.95 - 1e-9);
  EXPECT_LE(y, 1.07742);
}

// Seed 001's Example 2 as shipped: 450 steps answered, no penetration, and at 4.5 s the ball
// has left both fixed spheres (the paper: contact 1 at 3.2 s, contact 2 at 3.6 s).
TEST(Cli, TheSphereOnSpheresSceneEndsWithTheBallGone) {
  Result r = cli("run " + scene("sphere_on_spheres") + " --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["answered_by"]["mcp-newton"], 450);
  EXPECT_LE(j["max_penetration"].get<double>(), 1e-9);
  const auto& p = j["bodies"][2]["position"];
  const pegsim::Vec3 x(p[0].get<double>(), p[1].get<double>(), p[2].get<double>());
  EXPECT_GT(x.norm(), 11.0 + 0.5);
  EXPECT_GT((x - pegsim::Vec3(0.0, 11.4, 0.0)).norm(), 10.0 + 0.5);
}

TEST(Cli, RunTextSummaryNamesEveryFigure) {
  Result r = cli("run " + scene("hello_world") + " --duration 0.2 --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* key :
       {"steps", "simulated time", "wall time", "real-time factor", "contacts/step",
        "solver failures", "fallbacks", "max penetration", "final state"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in\n" << r.out;
}

TEST(Cli, SettingsOverridesAreApplied) {
  Result r = cli("run " + scene("hello_world") +
                 " --steps 10 --h 0.005 --solver pgs --fallbacks lemke --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["h"].get<double>(), 0.005);
  EXPECT_EQ(j["solver"], "pgs");
}

TEST(Cli, BadArgumentsGiveAClearErrorAndStatus2) {
  Result r = cli("run " + scene("hello_world") + " --h -1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--h"), std::string::npos) << r.out;
  r = cli("run " + scene("hello_world") + " --solver nope");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("nope"), std::string::npos) << r.out;
  r = cli("run " + scene("hello_world") + " --steps 5 --duration 1");
  EXPECT_EQ(r.status, 2);
  r = cli("frobnicate");
  EXPECT_EQ(r.status, 2);
  r = cli("run /no/such/scene.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("/no/such/scene.json"), std::string::npos) << r.out;
}

// --time-budget: a budget no solve can meet (1 ns) makes steps go on with the best answer
// found, and the summary counts them with their largest residual; a negative one is refused.
TEST(Cli, StepsOverTheTimeBudgetAreCountedAsApproximate) {
  Result r = cli("run " + scene("stack10") + " --steps 20 --time-budget 1e-9 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["over_budget_steps"].get<long long>(), 0) << r.out;
  EXPECT_LE(j["over_budget_steps"].get<long long>(), j["unsolved_steps"].get<long long>());
  EXPECT_GT(j["unsolved_max_residual"].get<double>(), 1e-10) << r.out;
  r = cli("run " + scene("stack10") + " --steps 20 --time-budget 1e-9 --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("time budget      "), std::string::npos) << r.out;
  r = cli("run " + scene("stack10") + " --steps 5 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["over_budget_steps"], 0);
  r = cli("run " + scene("stack10") + " --time-budget -1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--time-budget"), std::string::npos) << r.out;
}

// --preset interactive: pgs-contact alone, its sweep budget's steps counted as approximate with
// their residual; options beside it override it; an unknown preset is refused by name.
TEST(Cli, TheInteractivePresetCountsItsBudgetSteps) {
  Result r = cli("run " + scene("stack10") + " --steps 20 --preset interactive --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["solver"], "pgs-contact");
  EXPECT_EQ(j["answered_by"]["pgs-contact"], 20) << r.out;
  EXPECT_GT(j["iteration_budget_steps"].get<long long>(), 10) << r.out;
  EXPECT_GT(j["unsolved_max_residual"].get<double>(), 1e-10) << r.out;
  EXPECT_EQ(j["over_budget_steps"], 0);
  r = cli("run " + scene("stack10") + " --steps 5 --preset interactive --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("iteration budget 5 steps went on after 20 iterations"), std::string::npos)
      << r.out;
  r = cli("run " + scene("stack10") +
          " --steps 5 --preset interactive --solver lemke --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["solver"], "lemke");
  EXPECT_EQ(j["iteration_budget_steps"], 0);
  r = cli("run " + scene("stack10") + " --preset fast");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--preset: expected one of exact, interactive"), std::string::npos) << r.out;
}

// --contacts-per-pair: the interactive preset keeps four contacts per cube interface (stack10's
// cubes turn a little under its approximate impulses, and two turned faces touch at up to eight
// points); 0 keeps them all; a negative count is refused by name.
TEST(Cli, ContactsPerPairCutsTheEnforcedContacts) {
  Result r = cli("run " + scene("stack10") + " --steps 200 --preset interactive --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_LE(nlohmann::json::parse(r.out)["enforced_per_step"].get<double>(), 40.0) << r.out;
  r = cli("run " + scene("stack10") +
          " --steps 200 --preset interactive --contacts-per-pair 0 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_GT(nlohmann::json::parse(r.out)["enforced_per_step"].get<double>(), 60.0) << r.out;
  r = cli("run " + scene("stack10") + " --steps 1 --contacts-per-pair -1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--contacts-per-pair: expected an integer >= 0"), std::string::npos)
      << r.out;
}

TEST(Cli, VersionIsTheProjects) {
  for (const char* flag : {"--version", "version"}) {
    const Result r = cli(flag);
    EXPECT_EQ(r.status, 0) << flag;
    EXPECT_EQ(r.out, std::string("pegsim-cli ") + PEGSIM_VERSION + "\n") << flag;
  }
}

// `pegsim-cli COMMAND --help` prints the usage, which holds every command's options.
TEST(Cli, HelpAfterACommandPrintsTheUsage) {
  for (const char* command : {"run", "validate", "info", "compare-solvers", "experiment"}) {
    const Result r = cli(std::string(command) + " --help");
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_EQ(r.out.rfind("usage: pegsim-cli", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("--cone-orientation"), std::string::npos) << r.out;
  }
  EXPECT_EQ(cli("frobnicate --help").status, 2);
}

// Several primaries per I-constraint (thesis (4.10)-(4.13)): a needle's tip 2 mm above the
// edge of a wedge whose faces meet at 120 degrees, moving at (0.6/sqrt3, 0, -1.2) m/s with no
// gravity (tests/engine/dynamics/test_primary_search.cpp solves it by hand). The thesis'
// primary, the top face, takes 0.4 N s and leaves the tip 6 mm behind it; the search moves the
// impulse to the slanted face (0.2 N s), the run summary counts it.
TEST(Cli, SeveralPrimariesAreSearchedAndCounted) {
  const fs::path file = temp_dir() / "needle_over_wedge.json";
  std::ofstream(file) << R"({"settings": {"gravity": [0, 0, 0], "contact_model": "peg",
      "epsilon": 0.02},
    "bodies": [
      {"name": "wedge", "static": true, "mu": 0, "position": [-0.36666666666666667, 0, -0.46188021535170065],
       "shape": {"type": "hull", "points": [[-1, -0.5, 0], [0, -0.5, 0], [0.5, -0.5, -0.8660254037844386],
         [-1, -0.5, -0.8660254037844386], [-1, 0.5, 0], [0, 0.5, 0], [0.5, 0.5, -0.8660254037844386],
         [-1, 0.5, -0.8660254037844386]]}},
      {"name": "needle", "mass": 1, "inertia": [1e9, 1e9, 1e9], "mu": 0,
       "position": [0, 0, 0.752], "velocity": [0.34641016151377546, 0, -1.2],
       "shape": {"type": "hull", "points": [[0, 0, 0], [-0.1, -0.1, 1], [-0.1, 0.1, 1],
         [0.1, -0.1, 1], [0.1, 0.1, 1]]}}]})";
  Result r = cli("run " + file.string() + " --steps 1 --primaries several --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["primaries"], "several");
  EXPECT_EQ(j["primary_search"]["steps"], 1);
  EXPECT_EQ(j["primary_search"]["leaves"], 2);
  EXPECT_EQ(j["primary_search"]["steps_moved"], 1);
  EXPECT_EQ(j["primary_search"]["steps_unresolved"], 0);
  const auto v = j["bodies"][1]["velocity"];
  EXPECT_NEAR(v[0].get<double>(), 0.6 / std::sqrt(3.0) + 0.1 * std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(v[2].get<double>(), -1.1, 1e-9);

  r = cli("run " + file.string() + " --steps 1 --json --quiet");  // the thesis' choice
  ASSERT_EQ(r.status, 0) << r.out;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["primaries"], "largest-gap");
  EXPECT_FALSE(j.contains("primary_search"));
  EXPECT_NEAR(j["bodies"][1]["velocity"][2].get<double>(), -0.8, 1e-9);

  r = cli("run " + file.string() + " --steps 1 --primaries several --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("primary search   1 steps, 2 LCPs"), std::string::npos) << r.out;

  r = cli("run " + file.string() + " --primaries all");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--primaries: expected largest-gap or several, got 'all'"),
            std::string::npos)
      << r.out;
  r = cli("experiment momentum_row --primaries sometimes");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--primaries"), std::string::npos) << r.out;
}

// Formulation ncp (the quadratic cone, thesis (2.18)-(2.20)) from the command line and from a
// scene: taken with a solver that takes the NCP, refused with an LCP-only one (the default
// lemke) by a message naming the solvers that take it; LCP-only fallbacks are skipped.
TEST(Cli, NcpFormulationNeedsASolverThatTakesIt) {
  Result r = cli("run " + scene("hello_world") +
                 " --steps 20 --formulation ncp --solver fischer-newton --fallbacks lemke,path"
                 " --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["solver_failures"], 0);
  EXPECT_LE(j["max_penetration"].get<double>(), 1e-6);
  r = cli("run " + scene("hello_world") + " --steps 5 --formulation ncp");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("'lemke' solves only LCPs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fischer-newton"), std::string::npos) << r.out;

  const fs::path ncp = temp_dir() / "ncp.json";
  std::ofstream(ncp) << R"({"settings": {"formulation": "ncp", "solver": "path",
    "fallbacks": ["lemke", "fixed-point"]}, "bodies": [
    {"name": "ground", "shape": {"type": "plane"}},
    {"name": "box", "shape": {"type": "cube", "edge": 0.5}, "position": [0, 0, 0.3]}]})";
  r = cli("validate " + ncp.string());
  EXPECT_EQ(r.status, 0) << r.out;
  r = cli("run " + ncp.string() + " --steps 20 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["solver_failures"], 0);
  const fs::path lcp_only = temp_dir() / "ncp_lemke.json";
  std::ofstream(lcp_only) << R"({"settings": {"formulation": "ncp", "solver": "pgs",
    "fallbacks": ["fischer-newton"]}, "bodies": [{"name": "ground", "shape": {"type": "plane"}}]})";
  r = cli("validate " + lcp_only.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("ncp_lemke.json: /settings/solver: expected a solver that takes the NCP"),
            std::string::npos)
      << r.out;
}

// --solver and --formulation take every name of the engine's registries, and the summary says
// which were used. A box hinged to the world along its bottom edge rests on the ground: joint
// rows (free rows under mixed-lcp) and frictional contact in one problem. A solver that takes
// LCPs only is refused the NCP with status 2; the others run five steps (a method that cannot
// solve this problem, such as the fixed point on a frictional one, still runs: on_failure
// continue). An unknown formulation is named with the expected ones.
TEST(Cli, EverySolverAndFormulationIsTakenByName) {
  const fs::path hinged = temp_dir() / "hinged_box.json";
  std::ofstream(hinged) << R"({"bodies": [
    {"name": "ground", "shape": {"type": "plane"}},
    {"name": "box", "shape": {"type": "cube", "edge": 1.0}, "position": [0, 0, 0.5]}],
    "joints": [{"name": "hinge", "type": "revolute", "body_b": "box", "anchor": [-0.5, 0, 0],
                "axis": [0, 1, 0]}]})";
  const std::vector<std::string> ncp_solvers{"fixed-point", "minmap-newton", "fischer-newton",
                                             "path"};
  for (const std::string& formulation : pegsim::formulation_names())
    for (const std::string& solver : pegsim::solver_names()) {
      const std::string what = solver + " on " + formulation;
      const Result r =
          cli("run " + hinged.string() + " --steps 5 --formulation " + formulation + " --solver " +
              solver + " --fallbacks none --on-failure continue --json --quiet");
      const bool takes_ncp =
          std::find(ncp_solvers.begin(), ncp_solvers.end(), solver) != ncp_solvers.end();
      if (formulation == "geometrically-implicit") {  // a hinged box: neither is smooth-only
        EXPECT_EQ(r.status, 2) << what << "\n" << r.out;
        EXPECT_NE(r.out.find("formulation geometrically-implicit takes no joints"),
                  std::string::npos)
            << what << "\n"
            << r.out;
        continue;
      }
      if (formulation == "ncp" && !takes_ncp) {
        EXPECT_EQ(r.status, 2) << what << "\n" << r.out;
        EXPECT_NE(r.out.find("'" + solver + "' solves only LCPs"), std::string::npos)
            << what << "\n"
            << r.out;
        continue;
      }
      ASSERT_EQ(r.status, 0) << what << "\n" << r.out;
      const auto j = nlohmann::json::parse(r.out);
      EXPECT_EQ(j["solver"], solver) << what;
      EXPECT_EQ(j["formulation"], formulation) << what;
      EXPECT_EQ(j["steps"], 5) << what;
      EXPECT_EQ(j["answered_by"].begin().key(), solver) << what;
    }
  const Result r = cli("run " + hinged.string() + " --formulation lcp");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--formulation: expected one of stewart-trinkle, anitescu-potra, "
                       "mixed-lcp, ncp, geometrically-implicit, got 'lcp'"),
            std::string::npos)
      << r.out;
}

TEST(Cli, ValidateAcceptsEveryShippedScene) {
  for (const auto& entry : fs::directory_iterator(fs::path(PEGSIM_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    Result r = cli("validate " + entry.path().string());
    EXPECT_EQ(r.status, 0) << entry.path() << "\n" << r.out;
  }
}

// A robot file opens as a scene; a copy away from its package finds its meshes through
// --package-path, and without it says where it looked and what to give.
TEST(Cli, ARobotFileRunsWithItsPackagePath) {
  const fs::path tutorial = fs::path(PEGSIM_SOURCE_DIR) / "tests/data/robots";
  const fs::path lone = temp_dir() / "lone_robot";
  fs::create_directories(lone);
  fs::copy_file(tutorial / "urdf_tutorial/urdf/07-physics.urdf", lone / "physics.urdf",
                fs::copy_options::overwrite_existing);
  Result r = cli("validate " + (lone / "physics.urdf").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("\"package://urdf_tutorial/meshes/l_finger.dae\" was not found"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("--package-path"), std::string::npos) << r.out;
  r = cli("run " + (lone / "physics.urdf").string() + " --package-path " + tutorial.string() +
          " --steps 20 --quiet --json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"right_gripper\""), std::string::npos) << r.out;
}

TEST(Cli, ValidateRejectsABadSceneNamingTheField) {
  const fs::path bad = temp_dir() / "bad.json";
  std::ofstream(bad) << R"({"bodies": [{"name": "a", "shape": {"type": "sphere", "radius": -1}}]})";
  Result r = cli("validate " + bad.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("bad.json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/bodies/0/shape/radius"), std::string::npos) << r.out;
}

TEST(Cli, CsvHasOneRowPerStepAndIsNeverOverwrittenWithoutForce) {
  const fs::path csv = temp_dir() / "traj.csv";
  fs::remove(csv);
  Result r = cli("run " + scene("hello_world") + " --steps 20 --quiet --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream in(csv);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 1 + 21);  // header, step 0, 20 steps
  const auto size = fs::file_size(csv);
  r = cli("run " + scene("hello_world") + " --steps 5 --quiet --csv " + csv.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--force"), std::string::npos) << r.out;
  EXPECT_EQ(fs::file_size(csv), size);
  r = cli("run " + scene("hello_world") + " --steps 5 --quiet --force --csv " + csv.string());
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST(Cli, RecordThenInfoReportsTheRun) {
  const fs::path run = temp_dir() / "run.h5";
  fs::remove(run);
  Result r =
      cli("run " + scene("hello_world") + " --steps 40 --quiet --json --record " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto summary = nlohmann::json::parse(r.out);
  r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scene"], "hello_world");
  EXPECT_EQ(j["frames"], 41);
  EXPECT_EQ(j["steps"], 40);
  EXPECT_DOUBLE_EQ(j["h"].get<double>(), summary["h"].get<double>());
  EXPECT_NEAR(j["duration"].get<double>(), summary["simulated_seconds"].get<double>(), 1e-12);
  EXPECT_EQ(j["solves"], summary["solves"]);
  EXPECT_EQ(j["answered_by"], summary["answered_by"]);
  EXPECT_EQ(j["solver_failures"], summary["solver_failures"]);
  EXPECT_EQ(j["contacts_per_step_max"], summary["max_contacts"]);
  EXPECT_DOUBLE_EQ(j["contacts_per_step_mean"].get<double>(),
                   summary["contacts_per_step"].get<double>());
  EXPECT_DOUBLE_EQ(j["max_penetration"].get<double>(), summary["max_penetration"].get<double>());
  EXPECT_DOUBLE_EQ(j["residual_max"].get<double>(), summary["max_residual"].get<double>());
  EXPECT_EQ(j["approximate_steps"], 0);
  r = cli("info " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* key : {"hello_world", "frames", "contacts/step", "solves", "solver failures",
                          "fallbacks", "iterations", "residual", "max penetration"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in\n" << r.out;
  EXPECT_EQ(r.out.find("approximate"), std::string::npos) << r.out;
}

// A run under the interactive preset: info counts the steps its sweep budget left approximate,
// as the run's summary did, with the same largest residual.
TEST(Cli, InfoCountsTheApproximateStepsOfARecordedRun) {
  const fs::path run = temp_dir() / "interactive.h5";
  fs::remove(run);
  Result r = cli("run " + scene("stack10") +
                 " --steps 10 --preset interactive --quiet --json --record " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto summary = nlohmann::json::parse(r.out);
  ASSERT_GT(summary["iteration_budget_steps"].get<long long>(), 0);
  r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["approximate_steps"], summary["iteration_budget_steps"]);
  EXPECT_DOUBLE_EQ(j["approximate_max_residual"].get<double>(),
                   summary["unsolved_max_residual"].get<double>());
  r = cli("info " + run.string());
  EXPECT_NE(r.out.find("approximate     "), std::string::npos) << r.out;
}

// A run whose h and solver change mid-run (as the GUI may do): info lists each change.
TEST(Cli, InfoListsSettingsChanges) {
  const fs::path run = temp_dir() / "changes.h5";
  fs::remove(run);
  {
    pegsim::Scene sc = pegsim::load_scene(scene("hello_world"));
    pegsim::Simulator sim(sc.model, sc.initial, sc.settings);
    pegsim::RunWriter writer(run, pegsim::make_run_header(sc, sim.model(), sim.settings(), "test"),
                             sim.state());
    sim.add_observer(&writer);
    pegsim::Settings s = sc.settings;
    for (int k = 0; k < 30; ++k) {
      if (k == 10) {
        s.h /= 2;
        sim.set_settings(s);
      }
      if (k == 20) {
        s.solver = "pgs";
        sim.set_settings(s);
      }
      sim.step();
    }
    writer.close();
  }
  Result r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["settings_changes"].size(), 2u) << r.out;
  EXPECT_EQ(j["settings_changes"][0]["frame"], 11);
  EXPECT_DOUBLE_EQ(j["settings_changes"][0]["h"].get<double>(), j["h"].get<double>() / 2);
  EXPECT_EQ(j["settings_changes"][1]["frame"], 21);
  EXPECT_EQ(j["settings_changes"][1]["solver"], "pgs");
  r = cli("info " + run.string());
  EXPECT_NE(r.out.find("settings from   frame 21"), std::string::npos) << r.out;
}

TEST(Cli, RecordNeverReplacesAFileWithoutForce) {
  const fs::path run = temp_dir() / "keep.h5";
  std::ofstream(run) << "keep";
  Result r = cli("run " + scene("hello_world") + " --steps 5 --quiet --record " + run.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(run.string()), std::string::npos) << r.out;
  EXPECT_EQ(fs::file_size(run), 4u);
  r = cli("run " + scene("hello_world") + " --steps 5 --quiet --force --record " + run.string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(cli("info " + run.string()).status, 0);
}

TEST(Cli, InfoOnABadFileNamesItAndExits2) {
  const fs::path bad = temp_dir() / "bad.h5";
  std::ofstream(bad) << "not hdf5";
  Result r = cli("info " + bad.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(bad.string() + ": not an HDF5 file"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;  // one line, no stack
}

// 2D scenes run, record, inspect and export like 3D ones.
TEST(Cli, PlanarSceneRunsRecordsAndExports) {
  const fs::path run = temp_dir() / "planar.h5";
  const fs::path dir = temp_dir() / "planar-export";
  fs::remove(run);
  fs::remove_all(dir);
  Result r =
      cli("run " + scene("box_stack_2d") + " --steps 150 --quiet --json --record " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["steps"], 150);
  r = cli("info " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("box_stack_2d"), std::string::npos) << r.out;
  r = cli("export " + run.string() + " --csv " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::exists(dir / "box9.csv"));
  r = cli("run " + scene("box_stack_2d") + " --steps 1 --friction-directions 7");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--friction-directions: expected 2 in a 2D scene"), std::string::npos)
      << r.out;
}

TEST(Cli, ExportWritesTrajectoriesAndContacts) {
  const fs::path run = temp_dir() / "export.h5";
  const fs::path dir = temp_dir() / "export";
  fs::remove(run);
  fs::remove_all(dir);
  Result r = cli("run " + scene("hello_world") + " --steps 30 --quiet --record " + run.string() +
                 " --csv " + (temp_dir() / "export-traj.csv").string() + " --force");
  ASSERT_EQ(r.status, 0) << r.out;
  r = cli("export " + run.string() + " --csv " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  // The cube's trajectory equals the run's own --csv columns, row for row.
  std::ifstream cube(dir / "cube.csv"), traj(temp_dir() / "export-traj.csv");
  std::string header, line, want;
  std::getline(cube, header);
  EXPECT_EQ(header, "frame,time,x,y,z,qw,qx,qy,qz,fx,fy,fz,tx,ty,tz");
  std::getline(traj, want);
  int rows = 0;
  while (std::getline(cube, line) && std::getline(traj, want)) {
    // run --csv: step,time,ground.(7),cube.(7); export: frame,time,(7)
    std::vector<std::string> a, b;
    std::stringstream sa(line), sb(want);
    for (std::string f; std::getline(sa, f, ',');) a.push_back(f);
    for (std::string f; std::getline(sb, f, ',');) b.push_back(f);
    ASSERT_EQ(a.size(), 15u);
    ASSERT_EQ(b.size(), 16u);
    for (int c = 0; c < 7; ++c) EXPECT_EQ(std::stod(a[2 + c]), std::stod(b[9 + c])) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 31);
  std::ifstream contacts(dir / "contacts.csv");
  std::getline(contacts, header);
  EXPECT_EQ(header.rfind("frame,time,body_a,body_b,", 0), 0u) << header;
  EXPECT_EQ(header.substr(header.rfind(',') + 1), "duplicate_of") << header;
  int contact_rows = 0;
  while (std::getline(contacts, line)) ++contact_rows;
  EXPECT_GT(contact_rows, 0);
  r = cli("export " + run.string() + " --csv " + dir.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--force"), std::string::npos) << r.out;
  EXPECT_EQ(cli("export " + run.string() + " --csv " + dir.string() + " --force").status, 0);
}

// The run summary gives each joint's maximum and final constraint error, the same figures the
// engine's step reports hold.
TEST(Cli, RunSummaryGivesEachJointsMaximumAndFinalError) {
  Result r = cli("run " + scene("double_pendulum") + " --steps 300 --json --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["joints"].size(), 2u);
  const pegsim::Scene sc = pegsim::load_scene(scene("double_pendulum"));
  pegsim::Simulator sim(sc.model, sc.initial, sc.settings);
  double worst[2] = {0.0, 0.0}, worst_angle[2] = {0.0, 0.0};
  for (int k = 0; k < 300; ++k) {
    const pegsim::StepReport& rep = sim.step();
    for (int i = 0; i < 2; ++i) {
      worst[i] = std::max(worst[i], rep.joints[i].position_error);
      worst_angle[i] = std::max(worst_angle[i], rep.joints[i].angle_error);
    }
  }
  for (int i = 0; i < 2; ++i) {
    const auto& joint = j["joints"][i];
    EXPECT_EQ(joint["name"], sc.model.joints[i].name);
    EXPECT_EQ(joint["max_position_error"].get<double>(), worst[i]);
    EXPECT_EQ(joint["final_position_error"].get<double>(),
              sim.last_report().joints[i].position_error);
    EXPECT_EQ(joint["max_angle_error"].get<double>(), worst_angle[i]);
    EXPECT_EQ(joint["final_angle_error"].get<double>(), sim.last_report().joints[i].angle_error);
    EXPECT_GT(worst[i], 0.0);
    EXPECT_GT(worst_angle[i], 0.0);
  }
  Result text = cli("run " + scene("double_pendulum") + " --steps 10 --quiet");
  EXPECT_NE(text.out.find("joint errors"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("shoulder"), std::string::npos) << text.out;
}

}  // namespace

namespace {

// `experiment polygon_pour --write-scene FILE`: one trial's generated scene (thesis §5.2.3),
// a scene `validate` accepts and that runs; never replacing a file without --force.
TEST(Cli, ExperimentWritesAGeneratedSceneThatValidatesAndRuns) {
  const fs::path file = temp_dir() / "pour.json";
  fs::remove(file);
  Result r = cli("experiment polygon_pour --write-scene " + file.string() + " --seed 2 --h 0.02");
  ASSERT_EQ(r.status, 0) << r.out;
  r = cli("validate " + file.string());
  EXPECT_EQ(r.status, 0) << r.out;
  r = cli("run " + file.string() + " --duration 0.6 --json");  // three polygons by then
  ASSERT_EQ(r.status, 0) << r.out;
  const auto size = fs::file_size(file);
  r = cli("experiment polygon_pour --write-scene " + file.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--force"), std::string::npos) << r.out;
  EXPECT_EQ(fs::file_size(file), size);
  r = cli("experiment momentum_row --write-scene " + file.string() + " --force");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("generates none"), std::string::npos) << r.out;
  r = cli("experiment polygon_pour --write-scene " + file.string() + " --force --seed -1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--seed"), std::string::npos) << r.out;
}

// The X-constraint guard in the run summary: from tests/data/polyhedra_pour_thrown.json (a
// polyhedra pour's pile under PEG with several primaries) the first two steps' answers add 276
// and 25 times the energy their overlaps need (tests/cli/test_cross_constraint_guard.cpp); both
// are refused and solved without their X-constraints.
TEST(Cli, RunSummaryCountsStepsWhoseXConstraintsWereDropped) {
  const fs::path file = fs::path(PEGSIM_TESTDATA_DIR) / "polyhedra_pour_thrown.json";
  const std::string run = "run " + file.string() + " --steps 2 --quiet";
  Result r = cli(run + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["cross_energy_steps"], 2);
  EXPECT_EQ(j["dropped_cross_steps"], 2);
  r = cli(run);
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string line =
      "X dropped        2 steps, solved without their X-constraints (0 unsatisfiable with them, 2 "
      "whose";
  EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
}

}  // namespace
