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
// end at one common speed there.
TEST(Experiments, MomentumRowKeepsTheTotalMomentumUnderEveryModel) {
  TempDir dir;
  const nlohmann::json s = run_experiment(*find_experiment("momentum_row"), options(dir));
  EXPECT_NEAR(s["total_momentum"].get<double>(), 3.0, 1e-12);
  EXPECT_NEAR(s["final_speed"].get<double>(), 3.0 / 3.67, 1e-12);
  ASSERT_FALSE(s["models"].empty());
  for (const auto& [model, figures] : s["models"].items()) {
    EXPECT_LE(figures["max_total_momentum_error"].get<double>(), 1e-9) << model;
    if (model != "lnc") {
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
