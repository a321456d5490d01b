// `pegsim-cli experiment`: the runner's file handling and the momentum experiment of the
// thesis §5.4 against its invariant (total momentum 3.0 kg m/s, final speed 3.0 / 3.67 m/s).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "cli/experiments/experiment.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("pegsim-experiments-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  ~TempDir() { fs::remove_all(path); }
};

ExperimentOptions options(const TempDir& dir) {
  ExperimentOptions o;
  o.out_dir = dir.path;
  o.scenes_dir = PEGSIM_SOURCE_SCENES;
  o.reduced = true;
  return o;
}

TEST(Experiments, EveryExperimentHasANameASectionAndARunner) {
  ASSERT_FALSE(experiments().empty());
  for (const Experiment& e : experiments()) {
    EXPECT_FALSE(e.name.empty());
    EXPECT_NE(e.section.find("§"), std::string::npos) << e.name;
    EXPECT_TRUE(e.run) << e.name;
    EXPECT_EQ(find_experiment(e.name), &e);
  }
  EXPECT_EQ(find_experiment("no-such-experiment"), nullptr);
}

// Thesis §5.4, Fig. 5.27: every impact is inelastic and the total momentum is conserved.
// Under LNC the aligned blocks' corners may pass each other's faces (max(psi) >= 0 holds on
// the top face's plane; LNC has no X-constraint to stop it, Fig. 4.4), so the blocks do not
// end at one common speed there. Nor under the corrective method: its impacts are not
// inelastic, since an overlap psi is undone at -psi / h (§5.2.3) and the blocks bounce apart
// (measured: total momentum kept to 9e-16, speeds 1.25 m/s off the common one).
TEST(Experiments, MomentumRowKeepsTheTotalMomentumUnderEveryModel) {
  TempDir dir;
  const nlohmann::json s = run_experiment(*find_experiment("momentum_row"), options(dir));
  EXPECT_NEAR(s["total_momentum"].get<double>(), 3.0, 1e-12);
  EXPECT_NEAR(s["final_speed"].get<double>(), 3.0 / 3.67, 1e-12);
  ASSERT_FALSE(s["models"].empty());
  for (const auto& [model, figures] : s["models"].items()) {
    EXPECT_LE(figures["max_total_momentum_error"].get<double>(), 1e-9) << model;
    if (model != "lnc" && model != "corrective") {
      EXPECT_LE(figures["max_final_speed_error"].get<double>(), 1e-6) << model;
    }
    EXPECT_EQ(figures["failed_steps"].get<int>(), 0) << model;
  }
  for (const char* f : {"momentum_row.csv", "momentum_row.svg", "momentum_row.json"})
    EXPECT_TRUE(fs::exists(dir.path / f)) << f;
  // The CSV has one row per step and model after its header, with the total in column 3.
  std::ifstream csv(dir.path / "momentum_row.csv");
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  EXPECT_EQ(header.rfind("model,time,total,", 0), 0u) << header;
  EXPECT_NE(first.find(",3,"), std::string::npos) << first;
}

TEST(Experiments, AnEarlierRunIsNotReplacedWithoutForce) {
  TempDir dir;
  ExperimentOptions o = options(dir);
  const Experiment& e = *find_experiment("momentum_row");
  run_experiment(e, o);
  const auto before = fs::last_write_time(dir.path / "momentum_row.csv");
  EXPECT_THROW(run_experiment(e, o), ExperimentError);
  EXPECT_EQ(fs::last_write_time(dir.path / "momentum_row.csv"), before);
  o.force = true;
  EXPECT_NO_THROW(run_experiment(e, o));
}

TEST(Experiments, AnUnknownContactModelIsRefusedByName) {
  TempDir dir;
  ExperimentOptions o = options(dir);
  o.models = {"sm", "nonsense"};
  try {
    run_experiment(*find_experiment("momentum_row"), o);
    FAIL() << "expected an ExperimentError";
  } catch (const ExperimentError& e) {
    EXPECT_NE(std::string(e.what()).find("nonsense"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pegsim::cli

namespace pegsim::cli {
namespace {

double overlap_at(const nlohmann::json& s, const std::string& model, std::size_t i) {
  return s["models"][model]["by_h"][i]["overlap_median"].get<double>();
}

// Thesis §5.2.3 (Fig. 5.10b; journal Fig. 21): "the error with the standard model grows with
// the step size". Reduced form: seed 0, h = 0.004, 0.008, 0.016 s, 12 polygons over 3 s.
// Measured mean overlap per step: 3.3e-7, 1.5e-5, 2.3e-5 m^2; every polygon is ~0.14 m^2, so
// the error also stays below 1e-4 m^2 (no polygon sinks through another). Fig. 5.10b's
// comparison: "Predictably, the corrective method generates larger error for larger time
// steps" (measured 5.3e-5, 3.1e-4, 1.3e-3 m^2) and "PEG produced errors orders of magnitude
// smaller than the corrective method" (measured 7.8e-7, 5.9e-6, 2.7e-5 m^2: 49-67 times).
TEST(Experiments, PolygonPourOverlapGrowsWithTheStepSizeUnderTheStandardModel) {
  TempDir dir;
  ExperimentOptions o = options(dir);
  const nlohmann::json s = run_experiment(*find_experiment("polygon_pour"), o);
  ASSERT_EQ(s["step_sizes"].size(), 3u);
  EXPECT_LT(overlap_at(s, "sm", 0), overlap_at(s, "sm", 1));
  EXPECT_LT(overlap_at(s, "sm", 1), overlap_at(s, "sm", 2));
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_LT(overlap_at(s, "sm", i), 1e-4) << i;
    // SM traps occur in a pour (Fig. 5.13): some steps have one.
    EXPECT_GT(s["models"]["sm"]["by_h"][i]["steps_with_sm_traps_fraction_median"].get<double>(), 0.0);
    EXPECT_LT(10 * overlap_at(s, "peg", i), overlap_at(s, "corrective", i)) << i;
  }
  EXPECT_LT(overlap_at(s, "corrective", 0), overlap_at(s, "corrective", 1));
  EXPECT_LT(overlap_at(s, "corrective", 1), overlap_at(s, "corrective", 2));
  for (const char* f : {"polygon_pour.csv", "polygon_pour_steps.csv", "polygon_pour.svg",
                        "polygon_pour_traps.svg", "polygon_pour_solve.svg", "polygon_pour.json"})
    EXPECT_TRUE(fs::exists(dir.path / f)) << f;
}

// Thesis §5.2.4 (journal Fig. 24): "As the step size increases, the penetrations between
// polyhedra grow steadily larger with the standard contact model", and with the corrective
// method (Fig. 5.14b). Reduced form: seed 0, h = 0.005, 0.01, 0.02 s, 4 polyhedra over 2 s;
// measured 3.4e-10, 3.3e-8, 6.8e-6 m^3 (SM) and 2.8e-6, 9.8e-6, 7.0e-5 m^3 (corrective).
TEST(Experiments, PolyhedraPourOverlapGrowsWithTheStepSizeUnderTheStandardModel) {
  TempDir dir;
  ExperimentOptions o = options(dir);
  o.models = {"sm", "corrective"};
  const nlohmann::json s = run_experiment(*find_experiment("polyhedra_pour"), o);
  for (const char* model : {"sm", "corrective"}) {
    EXPECT_LT(overlap_at(s, model, 0), overlap_at(s, model, 1)) << model;
    EXPECT_LT(overlap_at(s, model, 1), overlap_at(s, model, 2)) << model;
    EXPECT_EQ(s["models"][model]["finished"].get<int>(), 3) << model;
  }
}

// Thesis §5.3, Fig. 5.25: one step of two blocks turning at 1 rad/s leaves 0.5 (1 - cos h)
// m^2 of overlap (tests/physics/test_rotation_error.cpp, here in 2D), the table's figures to
// the digits printed.
TEST(Experiments, RotationErrorMatchesTheThesisTable) {
  TempDir dir;
  const nlohmann::json s = run_experiment(*find_experiment("rotation_error"), options(dir));
  EXPECT_LT(s["max_error_vs_0.5(1-cos h)"].get<double>(), 1e-12);
  ASSERT_EQ(s["table"].size(), 6u);
  for (const auto& row : s["table"]) {
    const double thesis = row["thesis"].get<double>();
    // 1-3 significant digits printed: within half a unit of the last one (0.01 for h = 0.2).
    const double half_unit = thesis == 0.01 ? 5e-3 : thesis < 1e-4 ? 5e-7 : 5e-5;
    EXPECT_NEAR(row["measured"].get<double>(), thesis, half_unit) << row.dump();
    EXPECT_EQ(row["enforced_contacts"].get<int>(), 2);
  }
}

// The scene generator (§5.2.3: the hull of 10 random points in ±0.25 m per polygon): the same
// seed gives the same scene, another seed other bodies; every body but the container appears
// 0.25 s after the previous one.
TEST(Experiments, PourScenesAreSeededAndPourOneBodyPerInterval) {
  const Experiment& e = *find_experiment("polygon_pour");
  ASSERT_TRUE(e.scene);
  const nlohmann::json a = e.scene(3, 0.01), b = e.scene(3, 0.01), c = e.scene(4, 0.01);
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_NE(a.dump(), c.dump());
  ASSERT_EQ(a["bodies"].size(), 23u);  // floor, two walls, 20 polygons
  for (int i = 0; i < 20; ++i)
    EXPECT_DOUBLE_EQ(a["bodies"][3 + i]["appear_time"].get<double>(), 0.25 * i);
  const nlohmann::json p = find_experiment("polyhedra_pour")->scene(0, 0.01);
  ASSERT_EQ(p["bodies"].size(), 15u);  // five blocks, 10 polyhedra
  EXPECT_DOUBLE_EQ(p["bodies"][14]["appear_time"].get<double>(), 4.5);
  EXPECT_FALSE(find_experiment("momentum_row")->scene);
}

}  // namespace
}  // namespace pegsim::cli
