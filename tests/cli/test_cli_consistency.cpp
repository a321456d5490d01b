// Issue 27 item 5: the command line agrees with scene files and says what it knows. The
// friction directions are checked by one rule, with one message, on --friction-directions and
// in scene files; `info` names the contact model and formulation and, per settings change,
// what changed; `run` counts SM traps; `overlap --csv` names a 2D run's column an area.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

namespace fs = std::filesystem;
using pegsim::test::cli;

std::string scene(const std::string& name) {
  return pegsim::test::scene_file(name);
}

fs::path temp_dir() {
  return pegsim::test::process_temp_dir("cli-consistency");
}

// What follows "expected " in a one-line error.
std::string expected_part(const std::string& out) {
  const auto at = out.find("expected ");
  if (at == std::string::npos) return {};
  return out.substr(at, out.find_first_of(",\n", at) - at);
}

TEST(CliConsistency, FrictionDirectionsAreCheckedAsInSceneFiles) {
  // A 3D scene file with 2 directions is refused; so is the flag.
  const fs::path file = temp_dir() / "two_directions.json";
  std::ofstream(file) << R"({"settings": {"friction_directions": 2},
    "bodies": [{"name": "ground", "shape": {"type": "plane"}},
               {"name": "cube", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 0.5]}]})";
  const auto from_file = cli("validate " + file.string());
  EXPECT_EQ(from_file.status, 2) << from_file.out;
  EXPECT_NE(from_file.out.find("/settings/friction_directions: expected"), std::string::npos)
      << from_file.out;
  for (const char* n : {"1", "2"}) {
    const auto r =
        cli("run " + scene("hello_world") + " --steps 1 --quiet --friction-directions " + n);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find(std::string("--friction-directions: expected an integer number of "
                                     "directions from 3 to 64")),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(std::string("got '") + n + "'"), std::string::npos) << r.out;
    // The same words as the scene file's error.
    EXPECT_EQ(expected_part(r.out), expected_part(from_file.out)) << r.out << from_file.out;
  }
  for (const char* bad : {"0", "-3", "x", "3.5", ""}) {
    const auto r =
        cli("run " + scene("hello_world") + " --steps 1 --quiet --friction-directions=" + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.out;
    EXPECT_EQ(expected_part(r.out), expected_part(from_file.out)) << r.out;
  }
  EXPECT_EQ(
      cli("run " + scene("hello_world") + " --steps 1 --quiet --friction-directions 3").status, 0);
  // A 2D scene takes exactly 2, from a file or the flag, with one message.
  const auto r2 =
      cli("run " + scene("box_stack_2d") + " --steps 1 --quiet --friction-directions 7");
  EXPECT_EQ(r2.status, 2) << r2.out;
  EXPECT_NE(r2.out.find("--friction-directions: expected 2 in a 2D scene"), std::string::npos)
      << r2.out;
  EXPECT_EQ(
      cli("run " + scene("box_stack_2d") + " --steps 1 --quiet --friction-directions 2").status, 0);
}

TEST(CliConsistency, InfoNamesTheContactModelAndFormulation) {
  const fs::path run = temp_dir() / "lnc.h5";
  fs::remove(run);
  auto r = cli("run " + scene("hello_world") + " --steps 3 --quiet --contact-model lnc " +
               "--formulation anitescu-potra --record " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  r = cli("info " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("  settings        formulation anitescu-potra, contact model lnc, "
                       "solver lemke"),
            std::string::npos)
      << r.out;
  r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["formulation"], "anitescu-potra");
  EXPECT_EQ(j["contact_model"], "lnc");
  EXPECT_EQ(j["solver"], "lemke");
}

// The GUI may change settings between steps: each change's line says what changed.
TEST(CliConsistency, InfoSaysWhichSettingsChanged) {
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
        s.h = 0.005;
        s.contact_model = pegsim::ContactModel::Peg;
        sim.set_settings(s);
      }
      if (k == 20) {
        s.solver = "pgs";
        s.fallbacks = {"lemke", "psor"};
        sim.set_settings(s);
      }
      sim.step();
    }
    writer.close();
  }
  auto r = cli("info " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("  settings        formulation stewart-trinkle, contact model sm, "
                       "solver lemke\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  settings from   frame 11: h 0.01 -> 0.005, contact_model sm -> peg\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  settings from   frame 21: solver lemke -> pgs, fallbacks pgs -> "
                       "lemke,psor\n"),
            std::string::npos)
      << r.out;
  r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto changes = nlohmann::json::parse(r.out)["settings_changes"];
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0]["contact_model"], "peg");
  EXPECT_EQ(changes[0]["formulation"], "stewart-trinkle");
  EXPECT_EQ(changes[0]["changed"].size(), 2u) << changes[0];
  EXPECT_EQ(changes[0]["changed"]["h"]["from"].get<double>(), 0.01);
  EXPECT_EQ(changes[0]["changed"]["h"]["to"].get<double>(), 0.005);
  EXPECT_EQ(changes[0]["changed"]["contact_model"]["to"], "peg");
  EXPECT_EQ(changes[1]["changed"].size(), 2u) << changes[1];
  EXPECT_EQ(changes[1]["changed"]["solver"]["from"], "lemke");
  EXPECT_EQ(changes[1]["changed"]["fallbacks"]["to"], (nlohmann::json{"lemke", "psor"}));
}

// Two cubes corner to corner: two SM traps every step (as test_cli_traps_overlap's `info`).
TEST(CliConsistency, RunCountsSmTraps) {
  const fs::path file = temp_dir() / "traps.json";
  std::ofstream(file) << R"({"name": "traps", "duration": 0.05,
    "settings": {"h": 0.01, "gravity": [0, 0, 0]},
    "bodies": [
      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [5, 0, 2], "static": true},
      {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [6.01, 1.01, 3.01], "mass": 1}
    ]})";
  auto r = cli("run " + file.string() + " --quiet --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out)["sm_traps"];
  EXPECT_EQ(j["total"], 10);
  EXPECT_EQ(j["per_step_max"], 2);
  EXPECT_EQ(j["steps_with_traps"], 5);
  EXPECT_DOUBLE_EQ(j["per_step_mean"].get<double>(), 2.0);
  r = cli("run " + file.string() + " --quiet");
  EXPECT_NE(r.out.find("SM traps         10 (per step mean 2.00, max 2; 5 steps with traps)"),
            std::string::npos)
      << r.out;
  r = cli("run " + scene("hello_world") + " --steps 5 --quiet");
  EXPECT_NE(r.out.find("SM traps         0 (per step mean 0.00, max 0; 0 steps with traps)"),
            std::string::npos)
      << r.out;
}

TEST(CliConsistency, OverlapCsvNamesAreasInTwoDimensions) {
  const fs::path run = temp_dir() / "planar.h5";
  const fs::path csv = temp_dir() / "planar.csv";
  fs::remove(run);
  fs::remove(csv);
  auto r = cli("run " + scene("box_stack_2d") + " --steps 3 --quiet --record " + run.string());
  ASSERT_EQ(r.status, 0) << r.out;
  r = cli("overlap " + run.string() + " --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "frame,time,overlap_area,max_pair_area,overlapping_pairs,unmeasured_pairs");
  EXPECT_NE(r.out.find(" m^2 at frame "), std::string::npos) << r.out;
}

}  // namespace
