// pegsim-cli info / export / overlap on a run with known SM traps and a known overlap: two
// cubes corner to corner (two traps every step, thesis Fig. 4.1 in 3D and Fig. 5.2) and a cube
// sunk 1 cm into the ground (overlap 1 x 1 x 0.01 m^3 in frame 0, which the Stewart-Trinkle
// gap term psi / h removes in one step).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using pegsim::test::cli;

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("pegsim-cli-traps-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

// Recorded once for the three tests.
fs::path record_run() {
  static const fs::path run = [] {
    const fs::path scene = temp_dir() / "traps.json";
    std::ofstream(scene) << R"({"name": "traps", "duration": 0.05,
    "settings": {"h": 0.01, "gravity": [0, 0, 0]},
    "bodies": [
      {"name": "ground", "shape": {"type": "plane"}, "position": [0, 0, 0]},
      {"name": "sunk", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 0.49], "mass": 1},
      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [5, 0, 2], "static": true},
      {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [6.01, 1.01, 3.01], "mass": 1}
    ]})";
    const fs::path run = temp_dir() / "traps.h5";
    const auto r = cli("run " + scene.string() + " --quiet --force --record " + run.string());
    EXPECT_EQ(r.status, 0) << r.out;
    return run;
  }();
  return run;
}

TEST(CliTraps, InfoCountsTheTrapsOfEveryStep) {
  const fs::path run = record_run();
  auto r = cli("info " + run.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out)["sm_traps"];
  EXPECT_EQ(j["recorded"], true);
  EXPECT_EQ(j["total"], 10);
  EXPECT_EQ(j["per_step_max"], 2);
  EXPECT_EQ(j["steps_with_traps"], 5);
  EXPECT_DOUBLE_EQ(j["per_step_mean"].get<double>(), 2.0);
  r = cli("info " + run.string());
  EXPECT_NE(r.out.find("SM traps        10 (per step mean 2.00, max 2; 5 steps with traps)"),
            std::string::npos)
      << r.out;
}

TEST(CliTraps, ExportWritesOneRowPerTrap) {
  const fs::path run = record_run();
  const fs::path dir = temp_dir() / "export";
  fs::remove_all(dir);
  ASSERT_EQ(cli("export " + run.string() + " --csv " + dir.string()).status, 0);
  std::ifstream traps(dir / "sm_traps.csv");
  std::string line;
  std::getline(traps, line);
  EXPECT_EQ(line, "frame,time,body,feature,index,other_body,facets,contacts");
  int rows = 0;
  while (std::getline(traps, line)) {
    ++rows;
    // a's vertex against b's faces, or b's vertex against a's: three faces each.
    EXPECT_TRUE(line.find(",a,vertex,") != std::string::npos ||
                line.find(",b,vertex,") != std::string::npos)
        << line;
    EXPECT_EQ(std::count(line.begin(), line.end(), ';'), 4) << line;
  }
  EXPECT_EQ(rows, 10);
}

TEST(CliOverlap, PrintsEachFramesOverlapAndTheMaximum) {
  const fs::path run = record_run();
  const fs::path csv = temp_dir() / "overlap.csv";
  fs::remove(csv);
  auto r = cli("overlap " + run.string() + " --csv " + csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("max overlap     1.000000e-02 m^3 at frame 0"), std::string::npos) << r.out;
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "frame,time,overlap_volume,max_pair_volume,overlapping_pairs,unmeasured_pairs");
  std::vector<double> volume;
  while (std::getline(in, line)) {
    std::stringstream s(line);
    std::string field;
    for (int c = 0; c < 3; ++c) std::getline(s, field, ',');
    volume.push_back(std::stod(field));
  }
  ASSERT_EQ(volume.size(), 6u);
  EXPECT_NEAR(volume[0], 0.01, 1e-15);
  for (std::size_t k = 1; k < volume.size(); ++k) EXPECT_LT(volume[k], 1e-12) << k;
  // The CSV is never replaced without --force; without --csv every frame is printed.
  EXPECT_EQ(cli("overlap " + run.string() + " --csv " + csv.string()).status, 2);
  r = cli("overlap " + run.string());
  EXPECT_NE(r.out.find("    0      0.0000    1.000000e-02      1           0"), std::string::npos)
      << r.out;
  EXPECT_EQ(cli("overlap " + (temp_dir() / "missing.h5").string()).status, 2);
}

}  // namespace
