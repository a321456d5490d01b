// Issue 27 item 4: the `run` summary, `info` and their --json report the largest overlap of any
// body pair, which sees bodies passing through each other that no enforced contact measures.
// Two equal, aligned cubes driven head-on into each other pass through under LNC (its
// I-constraints are per vertex, and the coinciding vertices make none) while the maximum
// penetration stays 0; two unit cubes placed d apart inside each other overlap d m^3 exactly.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using pegsim::test::cli;

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("pegsim-cli-overlap-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

// Two unit cubes on the x axis, centres at -/+ x, moving toward each other at v m/s each;
// gravity off, so nothing but their contact acts.
fs::path two_cubes(const std::string& name, double x, double v, const std::string& settings) {
  const fs::path file = temp_dir() / (name + ".json");
  std::ofstream(file) << R"({"name": ")" << name << R"(", "duration": 1,
    "settings": {"h": 0.01, "gravity": [0, 0, 0])"
                      << settings << R"(},
    "bodies": [
      {"name": "left", "shape": {"type": "cube", "edge": 1}, "position": [)"
                      << -x << R"(, 0, 0], "velocity": [)" << v << R"(, 0, 0], "mass": 1},
      {"name": "right", "shape": {"type": "cube", "edge": 1}, "position": [)"
                      << x << R"(, 0, 0], "velocity": [)" << -v << R"(, 0, 0], "mass": 1}
    ]})";
  return file;
}

nlohmann::json run_json(const std::string& args) {
  const auto r = cli("run " + args + " --quiet --json");
  EXPECT_EQ(r.status, 0) << r.out;
  return nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

TEST(RunOverlapReport, LncHeadOnCubesPassThroughAndTheSummarySaysSo) {
  // 0.1 m apart, closing at 4 m/s: they meet in step 3 and are fully inside each other
  // (centres together) by step 28, far beyond any contact's reach.
  const fs::path scene = two_cubes("head_on", 0.55, 2.0, "");
  const fs::path run = temp_dir() / "head_on.h5";
  fs::remove(run);
  const nlohmann::json j =
      run_json(scene.string() + " --contact-model lnc --steps 40 --force --record " + run.string());
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["contact_model"], "lnc");
  // Only enforced contacts are measured, and none was.
  EXPECT_EQ(j["max_penetration"].get<double>(), 0.0);
  const nlohmann::json& o = j["overlap"];
  EXPECT_EQ(o["measure"], "volume");
  EXPECT_EQ(o["unit"], "m^3");
  EXPECT_GT(o["max_pair"].get<double>(), 0.9) << o;  // a whole cube's volume is 1 m^3
  EXPECT_LE(o["max_pair"].get<double>(), 1.0 + 1e-9) << o;
  EXPECT_GT(o["step"].get<int>(), 0);
  EXPECT_NEAR(o["time"].get<double>(), 0.01 * o["step"].get<int>(), 1e-12);
  EXPECT_GE(o["steps_with_overlap"].get<int>(), 30) << o;
  EXPECT_LT(o["steps_with_overlap"].get<int>(), 40) << o;  // not before they meet
  EXPECT_EQ(o["max_unmeasured_pairs"], 0);

  // The text summary says it too, in m^3, beside the penetration.
  auto r = cli("run " + scene.string() + " --contact-model lnc --steps 40 --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("max penetration  0.000e+00 m"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max overlap      9."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" m^3 (one body pair's volume) at step "), std::string::npos) << r.out;

  // `info` finds the same figure in the recorded poses.
  r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json info = nlohmann::json::parse(r.out)["overlap"];
  EXPECT_DOUBLE_EQ(info["max_pair"].get<double>(), o["max_pair"].get<double>());
  EXPECT_EQ(info["step"], o["step"]);
  EXPECT_EQ(info["steps_with_overlap"], o["steps_with_overlap"]);
  EXPECT_EQ(info["unit"], "m^3");
  r = cli("info " + run.string());
  EXPECT_NE(r.out.find("  max overlap     9."), std::string::npos) << r.out;
}

TEST(RunOverlapReport, CubesThatNeverTouchReportZero) {
  // Moving apart from 1 m between their faces.
  const fs::path scene = two_cubes("apart", 1.0, -1.0, "");
  const fs::path run = temp_dir() / "apart.h5";
  fs::remove(run);
  const nlohmann::json j =
      run_json(scene.string() + " --contact-model lnc --steps 20 --force --record " + run.string());
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["overlap"]["max_pair"].get<double>(), 0.0);
  EXPECT_EQ(j["overlap"]["steps_with_overlap"], 0);
  EXPECT_EQ(j["overlap"]["step"], 0);
  auto r = cli("run " + scene.string() + " --steps 20 --quiet");
  EXPECT_NE(r.out.find("max overlap      0 m^3 (no body pair overlaps in any step)"),
            std::string::npos)
      << r.out;
  r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out)["overlap"]["max_pair"].get<double>(), 0.0);
}

TEST(RunOverlapReport, UnitCubesPlacedDInsideEachOtherOverlapDCubicMetres) {
  // Centres 1 - d apart along x, at rest: the intersection is a d x 1 x 1 box. The initial
  // state counts (step 0); Stewart-Trinkle's gap term then pushes them apart.
  const double d = 0.1;
  const fs::path scene = two_cubes("placed", (1.0 - d) / 2, 0.0, "");
  const nlohmann::json j = run_json(scene.string() + " --steps 1");
  ASSERT_TRUE(j.is_object());
  EXPECT_NEAR(j["overlap"]["max_pair"].get<double>(), d * 1.0 * 1.0, 1e-12) << j["overlap"];
  EXPECT_EQ(j["overlap"]["step"], 0);
  EXPECT_EQ(j["overlap"]["time"].get<double>(), 0.0);
  // Anitescu-Potra has no gap term: at rest they stay d inside each other after the step.
  const nlohmann::json ap = run_json(scene.string() + " --steps 1 --formulation anitescu-potra");
  ASSERT_TRUE(ap.is_object());
  EXPECT_NEAR(ap["overlap"]["max_pair"].get<double>(), d, 1e-12);
  EXPECT_EQ(ap["overlap"]["steps_with_overlap"], 1);
}

TEST(RunOverlapReport, PlanarRunsReportAnAreaInSquareMetres) {
  // Two unit squares d inside each other: the overlap is a d x 1 rectangle, d m^2.
  const double d = 0.25;
  const fs::path scene = temp_dir() / "squares.json";
  std::ofstream(scene) << R"({"name": "squares", "dimension": 2, "duration": 0.01,
    "settings": {"h": 0.01, "gravity": [0, 0]},
    "bodies": [
      {"name": "left", "shape": {"type": "rectangle", "size": [1, 1]}, "position": [)"
                       << -(1.0 - d) / 2 << R"(, 0], "mass": 1},
      {"name": "right", "shape": {"type": "rectangle", "size": [1, 1]}, "position": [)"
                       << (1.0 - d) / 2 << R"(, 0], "mass": 1}
    ]})";
  const fs::path run = temp_dir() / "squares.h5";
  fs::remove(run);
  const nlohmann::json j = run_json(scene.string() + " --steps 1 --force --record " + run.string());
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["overlap"]["measure"], "area");
  EXPECT_EQ(j["overlap"]["unit"], "m^2");
  EXPECT_NEAR(j["overlap"]["max_pair"].get<double>(), d, 1e-12);
  auto r = cli("run " + scene.string() + " --steps 1 --quiet");
  EXPECT_NE(r.out.find("max overlap      2.500e-01 m^2 (one body pair's area) at step 0"),
            std::string::npos)
      << r.out;
  r = cli("info " + run.string());
  EXPECT_NE(r.out.find("  max overlap     2.500e-01 m^2 (one body pair's area) at step 0"),
            std::string::npos)
      << r.out;
}

}  // namespace
