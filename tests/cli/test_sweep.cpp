// Parameter sweeps (docs/sweeps.md): the sweep file's checks, the points and their random
// draws, a sweep's physics against the closed form, and the machinery's promises: the same
// results whatever the workers, shards or interruptions.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli/experiments/pour_trial.hpp"
#include "cli/sweep/sweep_results.hpp"
#include "cli/sweep/sweep_runner.hpp"
#include "cli/sweep/sweep_slurm.hpp"
#include "cli/sweep/sweep_store.hpp"
#include "io/table_file.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path temp_dir(const std::string& tag) {
  const fs::path d =
      fs::temp_directory_path() / ("pegsim-sweep-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string scene(const std::string& name) {
  return std::string(PEGSIM_SOURCE_DIR) + "/scenes/" + name + ".json";
}

// Writes `sweep` as <dir>/sweep.json and loads it.
Sweep write_sweep(const fs::path& dir, const json& sweep) {
  std::ofstream(dir / "sweep.json") << sweep.dump(2);
  return load_sweep(dir / "sweep.json");
}

std::string error_of(const std::string& text) {
  try {
    parse_sweep(text, "s.json");
  } catch (const SweepError& e) {
    return e.what();
  }
  return "";
}

// The block of scenes/sliding_block.json on its 30 degree incline, for several mu.
json incline_sweep() {
  return {{"name", "incline"},
          {"scene", scene("sliding_block")},
          {"duration", 1.0},
          {"parameters",
           {{{"name", "mu"},
             {"set", {"body.block.mu", "body.incline.mu"}},
             {"values", {0.1, 0.2, 0.3, 0.4, 0.7}}},
            {{"name", "h"}, {"set", "settings.h"}, {"values", {0.001, 0.002}}}}},
          {"metrics", {"max_penetration", {{"final_pose", "block"}}}}};
}

// A small pour: eight polygons for 2 s, two models, two step sizes, two seeds.
json pour_sweep() {
  return {{"name", "pour"},
          {"generator", {{"name", "polygon_pour"}, {"bodies", 8}, {"duration", 2.0}}},
          {"stop", {{"speed_above", 100}, {"below_static", true}}},
          {"parameters",
           {{{"name", "model"}, {"set", "settings.contact_model"}, {"values", {"sm", "peg"}}},
            {{"name", "h"}, {"set", "settings.h"}, {"values", {0.008, 0.016}}},
            {{"name", "seed"}, {"set", "seed"}, {"range", {{"from", 0}, {"to", 1}}}}}},
          {"metrics", {"mean_overlap", "sm_trap_steps", "max_problem_size"}}};
}

SweepRunReport run(const Sweep& s, const fs::path& out, int jobs, int shard = 0, int shards = 1,
                   std::function<bool()> stop = {}) {
  SweepRunOptions o;
  o.out = out;
  o.jobs = jobs;
  o.shard = shard;
  o.shards = shards;
  o.stop = std::move(stop);
  return run_sweep(s, o);
}

TEST(SweepFile, ErrorsNameTheFileThePointerAndWhatWasExpected) {
  EXPECT_EQ(error_of("{").rfind("s.json: not JSON: ", 0), 0u);
  EXPECT_EQ(error_of(R"({"scene": "a.json", "parameters": [], "colour": 1})")
                .rfind("s.json: /colour: expected no field \"colour\" here", 0),
            0u);
  EXPECT_NE(error_of(R"({"parameters": []})").find("either \"scene\""), std::string::npos);
  EXPECT_NE(error_of(R"({"generator": {"name": "box"}, "parameters": []})")
                .find("/generator/name: expected one of the generators polygon_pour"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"scene": "a.json", "parameters": [{"name": "h", "set": "settings.h"}]})")
          .find("/parameters/0: expected exactly one of \"values\", \"range\" and \"uniform\""),
      std::string::npos);
  EXPECT_NE(error_of(R"({"scene": "a.json", "parameters": [{"name": "s", "set": "seed",
                        "values": [1]}]})")
                .find("/parameters/0/set: expected a target \"duration\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scene": "a.json", "parameters": [{"name": "h", "set": "settings.h",
                        "range": {"from": 2, "to": 1}}]})")
                .find("/parameters/0/range/to: expected a number >= \"from\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scene": "a.json", "parameters": [], "metrics": ["speed"]})")
                .find("/metrics/0: expected one of the figures"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scene": "a.json", "parameters": [{"name": "h", "set": "settings.h",
                        "values": [1]}], "plots": [{"metric": "steps", "x": "mu"}]})")
                .find("/plots/0/x: expected the name of a numeric axis parameter"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"scene": "a.json", "parameters": [{"name": "steps", "values": [1]}]})")
                .find("/parameters/0/name: expected a name no other column has"),
            std::string::npos);
}

TEST(SweepFile, TheInputsTheFuzzerFoundDefectsWithAreRefusedWithASweepError) {
  // tests/io/data/fuzz/sweep (docs/robustness.md): each refused naming its file.
  const fs::path dir = fs::path(PEGSIM_SOURCE_DIR) / "tests/io/data/fuzz/sweep";
  int files = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    ++files;
    try {
      load_sweep(e.path());
    } catch (const SweepError& error) {
      EXPECT_EQ(std::string(error.what()).rfind(e.path().string(), 0), 0u) << error.what();
    }
  }
  EXPECT_GT(files, 0);
}

TEST(SweepFile, AValueTheSceneRefusesIsReportedBeforeAnythingRuns) {
  const fs::path dir = temp_dir("refused");
  json s = incline_sweep();
  s["parameters"][0]["values"] = {0.3, -1.0};
  try {
    run(write_sweep(dir, s), dir / "out", 1);
    FAIL() << "a negative mu ran";
  } catch (const SweepError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("sweep.json: point 0: "), std::string::npos) << what;
    EXPECT_NE(what.find("/bodies/0/mu: expected a friction coefficient >= 0"), std::string::npos)
        << what;
    EXPECT_NE(what.find("(parameter 'mu' = -1.0)"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
  s = incline_sweep();
  s["parameters"][0]["set"] = "body.brick.mu";
  EXPECT_THROW(run(write_sweep(dir, s), dir / "out", 1), SweepError);
  s = incline_sweep();
  s["metrics"][1] = {{"final_pose", "brick"}};
  try {
    run(write_sweep(dir, s), dir / "out", 1);
    FAIL() << "a metric of no body ran";
  } catch (const SweepError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "/metrics/1: expected a body of the scene, it has none named 'brick'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST(SweepPoints, TheAxesCountInMixedRadixAndRandomDrawsDependOnThePointAlone) {
  const Sweep s = parse_sweep(R"({"scene": "a.json", "seed": 7, "parameters": [
      {"name": "a", "values": [1, 2, 3]},
      {"name": "mu", "set": "body.b.mu", "uniform": [0.2, 0.4]},
      {"name": "b", "range": {"from": 0, "to": 1, "count": 5}}]})",
                              "s.json");
  EXPECT_EQ(s.point_count(), 15);
  const SweepPoint p = sweep_point(s, 7);  // a = 2 (7 / 5 = 1), b = 0.5 (7 % 5 = 2)
  EXPECT_EQ(p.values[0], 2);
  EXPECT_EQ(p.values[2], 0.5);
  const double mu = p.values[1].get<double>();
  EXPECT_GE(mu, 0.2);
  EXPECT_LT(mu, 0.4);
  EXPECT_EQ(mu, sweep_point(s, 7).values[1].get<double>());
  EXPECT_EQ(mu, random_draw(7, 7, 1, 0.2, 0.4));
  EXPECT_NE(mu, sweep_point(s, 8).values[1].get<double>());
  // The draws fill their range evenly: the mean of 10^4 is 0.3 to within 3 standard errors.
  double sum = 0.0;
  for (long long k = 0; k < 10000; ++k) sum += random_draw(7, k, 1, 0.2, 0.4);
  EXPECT_NEAR(sum / 10000, 0.3, 3 * 0.2 / std::sqrt(12.0 * 10000));
}

TEST(SweepPoints, TargetsSetOffsetAndTurnTheScenesFields) {
  const fs::path dir = temp_dir("targets");
  const Sweep s = write_sweep(
      dir,
      {{"scene", scene("sliding_block")},
       {"parameters",
        {{{"name", "dx"}, {"set", "body.block.position.0"}, {"offset", true}, {"values", {0.25}}},
         {{"name", "vz"}, {"set", "body.block.velocity.2"}, {"offset", true}, {"values", {-1.5}}},
         {{"name", "yaw"}, {"set", "body.block.turn.z"}, {"scale", M_PI / 180}, {"values", {90}}},
         {{"name", "h"}, {"set", "settings.h"}, {"values", {0.004}}}}}});
  const SweepBase base = load_sweep_base(s);
  const json scene_json = point_scene_json(s, base, sweep_point(s, 0));
  const json& block = scene_json["bodies"][1];
  EXPECT_DOUBLE_EQ(block["position"][0].get<double>(), -0.0625 + 0.25);
  EXPECT_EQ(block["velocity"], json({0.0, 0.0, -1.5}));  // none in the scene: zeros, then -1.5
  EXPECT_EQ(scene_json["settings"]["h"], 0.004);
  // The scene's orientation (30 degrees about -y) turned by 90 degrees about world z.
  const Quat q(block["orientation"][0].get<double>(), block["orientation"][1].get<double>(),
               block["orientation"][2].get<double>(), block["orientation"][3].get<double>());
  const Quat expected = Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ())) *
                        Quat(Eigen::AngleAxisd(M_PI / 6, -Vec3::UnitY()));
  EXPECT_NEAR(q.angularDistance(expected), 0.0, 1e-12);
  fs::remove_all(dir);
}

TEST(SweepPoints, TargetsInAMalformedSceneAreRefusedWithTheirReason) {
  const Sweep s = parse_sweep(R"({"scene": "a.json", "parameters": [
      {"name": "yaw", "set": "body.box.turn.z", "values": [0.5]},
      {"name": "x", "set": "body.box.position.7", "values": [1]}]})",
                              "s.json");
  SweepBase base;
  auto error = [&](const json& scene) {
    base.scene = scene;
    try {
      point_scene_json(s, base, sweep_point(s, 0));
    } catch (const SweepError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({{"bodies", {{{"name", 5}}}}}).find("the scene has no body named 'box'"),
            std::string::npos);
  EXPECT_NE(error({{"bodies", {{{"name", "box"}, {"orientation", {{"angle", "x"}}}}}}})
                .find("expected the body's orientation as [w, x, y, z] or {axis, angle}"),
            std::string::npos);
  EXPECT_NE(error({{"bodies", {{{"name", "box"}, {"orientation", {0, 0, 0, 0}}}}}})
                .find("expected the body's orientation to be a rotation"),
            std::string::npos);
  EXPECT_NE(error({{"dimension", "two"}, {"bodies", {{{"name", "box"}, {"position", {0, 0, 1}}}}}})
                .find("s.json: parameter 'x' sets 'body.box.position.7': /bodies/0/position: has "
                      "no component 7 (3 components)"),
            std::string::npos);
}

TEST(SweepPhysics, ABlockOnAnInclineSlidesAsCoulombSaysAtEveryMu) {
  const fs::path dir = temp_dir("incline");
  const Sweep s = write_sweep(dir, incline_sweep());
  const SweepRunReport r = run(s, dir / "out", 2);
  ASSERT_TRUE(r.complete);
  const TableFile t = read_table_file(dir / "out" / "results.h5");
  auto column = [&](const std::string& name) {
    for (const TableColumn& c : t.columns)
      if (c.name == name) return c.numbers;
    ADD_FAILURE() << "no column " << name;
    return std::vector<double>{};
  };
  const std::vector<double> mu = column("mu"), h = column("h"), x = column("block.x"),
                            pen = column("max_penetration"), done = column("finished");
  ASSERT_EQ(mu.size(), 10u);
  const double g = 9.81, theta = M_PI / 6, x0 = -0.0625, T = 1.0;
  for (std::size_t k = 0; k < mu.size(); ++k) {
    EXPECT_EQ(done[k], 1.0);
    // Down the slope at a = g (sin - mu cos) while tan 30 > mu, else at rest; semi-implicit
    // Euler covers a T (T + h) / 2 in T.
    const double a = std::max(0.0, g * (std::sin(theta) - mu[k] * std::cos(theta)));
    const double s_along = a * T * (T + h[k]) / 2;
    EXPECT_NEAR(x[k], x0 - s_along * std::cos(theta), 1e-9) << "mu " << mu[k] << " h " << h[k];
    EXPECT_LT(pen[k], 1e-9);
  }
  fs::remove_all(dir);
}

TEST(SweepPhysics, TheStopRulesStopAFallingBallWhenItIsFastAndNeverForWantOfStaticBodies) {
  // A ball falling from rest with no static body: after step k (semi-implicit Euler) it moves
  // at g h k, past 5 m/s first at k = ceil(5 / (g h)) = 51; `below_static` never stops it.
  const fs::path dir = temp_dir("stops");
  std::ofstream(dir / "ball.json") << R"({"name": "ball", "duration": 1, "settings": {"h": 0.01},
      "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.1}}]})";
  json j = {{"scene", (dir / "ball.json").string()},
            {"stop", {{"speed_above", 5.0}, {"below_static", true}}},
            {"parameters", {{{"name", "h"}, {"set", "settings.h"}, {"values", {0.01}}}}},
            {"metrics", {"max_speed", {{"final_pose", "ball"}}}}};
  ASSERT_TRUE(run(write_sweep(dir, j), dir / "fast", 1).complete);
  SweepManifest m = read_manifest(dir / "fast");
  PointResult r = read_points(dir / "fast", m.columns.size()).at(0);
  EXPECT_EQ(r.values[0], 0.0);  // finished
  EXPECT_EQ(r.values[1], 51.0);
  EXPECT_EQ(r.stop_reason.rfind("exploded at step 51: ball moves at 5.00", 0), 0u) << r.stop_reason;
  EXPECT_NEAR(r.values[3], 9.81 * 0.01 * 51, 1e-12);
  // Slower than any limit: the whole second, and the fall g h^2 k (k + 1) / 2.
  j["stop"]["speed_above"] = 100.0;
  ASSERT_TRUE(run(write_sweep(dir, j), dir / "slow", 1).complete);
  m = read_manifest(dir / "slow");
  r = read_points(dir / "slow", m.columns.size()).at(0);
  EXPECT_EQ(r.values[0], 1.0);
  EXPECT_EQ(r.values[1], 100.0);
  EXPECT_NEAR(r.values[6], -9.81 * 0.01 * 0.01 * 100 * 101 / 2, 1e-12);  // ball.z
  fs::remove_all(dir);
}

TEST(SweepPhysics, APourPointIsTheExperimentsTrialBitForBit) {
  const fs::path dir = temp_dir("pour-trial");
  const Sweep s = write_sweep(dir, pour_sweep());
  ASSERT_TRUE(run(s, dir / "out", 2).complete);
  const SweepManifest m = read_manifest(dir / "out");
  const auto points = read_points(dir / "out", m.columns.size());
  ASSERT_EQ(points.size(), 8u);
  for (long long k : {1LL, 6LL}) {  // sm, h = 0.008, seed 1; peg, h = 0.016, seed 0
    const SweepPoint p = sweep_point(s, k);
    PourSetup setup =
        polygon_pour_setup(p.values[2].get<std::uint64_t>(), p.values[1].get<double>());
    setup.bodies = 8;
    setup.duration = 2.0;
    setup.contact_model = p.values[0].get<std::string>();
    const PourTrial t = run_pour_trial(setup, false);
    const PointResult& r = points.at(k);
    EXPECT_EQ(r.values[0], t.finished ? 1.0 : 0.0);
    EXPECT_EQ(r.values[1], t.steps);
    EXPECT_EQ(r.values[3], t.mean_overlap);  // finished, steps, end_time, mean_overlap
    EXPECT_EQ(r.values[4], t.steps_with_sm_traps);
    EXPECT_GT(t.mean_overlap, 0.0);
  }
  fs::remove_all(dir);
}

TEST(SweepPhysics, TheGearGraspSweepFindsTheExperimentsOutcomes) {
  // sweeps/gear_grasp.json on two cells of the experiment's reduced grid (x = 0, y = -4 and
  // 0 mm): the grasp by the outermost teeth from y = -4 mm, by the disc from 0
  // (test_experiments: outer_teeth, disc).
  const fs::path dir = temp_dir("gear");
  json j = json::parse(read(std::string(PEGSIM_SOURCE_DIR) + "/sweeps/gear_grasp.json"));
  j["scene"] = scene("gear_grasp");
  j["parameters"][0].erase("range");
  j["parameters"][0]["values"] = {-4, 0};
  j["parameters"][1].erase("range");
  j["parameters"][1]["values"] = {0};
  const Sweep s = write_sweep(dir, j);
  ASSERT_TRUE(run(s, dir / "out", 2).complete);
  const TableFile t = read_table_file(dir / "out" / "results.h5");
  std::map<std::string, std::vector<double>> c;
  for (const TableColumn& col : t.columns) c[col.name] = col.numbers;
  EXPECT_EQ(c["y_mm"], (std::vector<double>{-4, 0}));
  EXPECT_EQ(c["outer_teeth"], (std::vector<double>{1, 0}));
  EXPECT_EQ(c["finished"], (std::vector<double>{1, 1}));
  fs::remove_all(dir);
}

TEST(SweepFile, TheShippedSweepsLoadAndEveryValueMakesAScene) {
  for (const char* name : {"polygon_pour", "polyhedra_pour", "gear_grasp", "gear_grasp_full"}) {
    const Sweep s = load_sweep(std::string(PEGSIM_SOURCE_DIR) + "/sweeps/" + name + ".json");
    EXPECT_EQ(s.name, name);
    EXPECT_NO_THROW(check_sweep_points(s, load_sweep_base(s))) << name;
  }
  EXPECT_EQ(load_sweep(std::string(PEGSIM_SOURCE_DIR) + "/sweeps/polygon_pour.json").point_count(),
            640);
  EXPECT_EQ(
      load_sweep(std::string(PEGSIM_SOURCE_DIR) + "/sweeps/gear_grasp_full.json").point_count(),
      21 * 21 * 4);
}

TEST(SweepRun, WorkersShardsAndMergesWriteTheSameBytes) {
  const fs::path dir = temp_dir("shards");
  const Sweep s = write_sweep(dir, pour_sweep());
  ASSERT_TRUE(run(s, dir / "one", 1).complete);
  ASSERT_TRUE(run(s, dir / "two", 2).complete);
  // Three shards into their own folders, merged.
  for (int i = 0; i < 3; ++i) {
    const SweepRunReport r = run(s, dir / ("shard" + std::to_string(i)), 2, i, 3);
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.in_shard, i < 2 ? 3 : 2);
  }
  SweepManifest m = read_manifest(dir / "shard0");
  std::map<long long, PointResult> all;
  for (int i = 0; i < 3; ++i)
    for (auto& [k, r] : read_points(dir / ("shard" + std::to_string(i)), m.columns.size()))
      all.emplace(k, r);
  fs::create_directories(dir / "merged");
  open_sweep_dir(dir / "merged", m);
  write_sweep_results(manifest_sweep(m), m, all, dir / "merged");
  // Shards into one folder: the last to finish writes the results.
  EXPECT_FALSE(run(s, dir / "shared", 1, 0, 2).complete);
  EXPECT_FALSE(fs::exists(dir / "shared" / "results.csv"));
  EXPECT_TRUE(run(s, dir / "shared", 1, 1, 2).complete);
  for (const char* file : {"results.csv", "results.h5", "mean_overlap_vs_h_by_model.svg"}) {
    const std::string one = read(dir / "one" / file);
    EXPECT_FALSE(one.empty()) << file;
    EXPECT_EQ(read(dir / "two" / file), one) << file;
    EXPECT_EQ(read(dir / "merged" / file), one) << file;
    EXPECT_EQ(read(dir / "shared" / file), one) << file;
  }
  fs::remove_all(dir);
}

TEST(SweepRun, AnInterruptedSweepResumesWhereItStoppedAndEndsAsAnUninterruptedOne) {
  const fs::path dir = temp_dir("resume");
  const Sweep s = write_sweep(dir, pour_sweep());
  ASSERT_TRUE(run(s, dir / "whole", 1).complete);
  // Stop after three points: the point under way is abandoned, nothing half written stays.
  int asked = 0;
  const fs::path log = dir / "cut" / "points" / "local.jsonl";
  SweepRunReport r = run(s, dir / "cut", 1, 0, 1, [&] {
    ++asked;
    std::ifstream in(log);
    return std::count(std::istreambuf_iterator<char>(in), {}, '\n') >= 3;
  });
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.ran, 3);
  EXPECT_FALSE(fs::exists(dir / "cut" / "results.csv"));
  // A line cut short (a machine that died mid-write) is dropped and its point run again.
  std::ofstream(log, std::ios::app) << R"({"point": 5, "val)";
  r = run(s, dir / "cut", 2);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.resumed, 3);
  EXPECT_EQ(r.ran, 5);
  EXPECT_EQ(read(dir / "cut" / "results.csv"), read(dir / "whole" / "results.csv"));
  EXPECT_EQ(read(dir / "cut" / "results.h5"), read(dir / "whole" / "results.h5"));
  // Run again: nothing to do, the same results.
  r = run(s, dir / "cut", 2);
  EXPECT_EQ(r.ran, 0);
  EXPECT_EQ(r.resumed, 8);
  fs::remove_all(dir);
}

TEST(SweepRun, AFolderOfAnotherSweepOrOfOtherFilesIsRefused) {
  const fs::path dir = temp_dir("refuse");
  Sweep s = write_sweep(dir, incline_sweep());
  ASSERT_TRUE(run(s, dir / "out", 2).complete);
  json other = incline_sweep();
  other["duration"] = 0.5;
  try {
    run(write_sweep(dir, other), dir / "out", 1);
    FAIL() << "ran into another sweep's folder";
  } catch (const SweepError& e) {
    EXPECT_NE(std::string(e.what()).find("holds the results of another sweep"), std::string::npos);
  }
  fs::create_directories(dir / "mine");
  std::ofstream(dir / "mine" / "notes.txt") << "my notes";
  EXPECT_THROW(run(s, dir / "mine", 1), SweepError);
  EXPECT_EQ(read(dir / "mine" / "notes.txt"), "my notes");
  fs::remove_all(dir);
}

TEST(SweepRun, KeptRunsAreWholeRunFiles) {
  const fs::path dir = temp_dir("keep");
  json j = incline_sweep();
  j["keep_runs"] = true;
  j["parameters"][0]["values"] = {0.3};
  const Sweep s = write_sweep(dir, j);
  ASSERT_TRUE(run(s, dir / "out", 2).complete);
  for (const char* f : {"point-00000000.h5", "point-00000001.h5"}) {
    EXPECT_TRUE(fs::exists(dir / "out" / "runs" / f)) << f;
    EXPECT_FALSE(fs::exists(dir / "out" / "runs" / (std::string(f) + ".part")));
  }
  fs::remove_all(dir);
}

TEST(SweepResults, TheHdf5TableHoldsTheCsvsValuesAndTheSameTableGivesTheSameBytes) {
  const fs::path dir = temp_dir("table");
  TableFile t;
  t.attributes = {{"sweep", "x"}};
  t.columns = {{"point", false, {0, 1, 2}, {}},
               {"model", true, {}, {"sm", "peg", "corrective"}},
               {"body/x", false, {0.5, NAN, -1e300}, {}}};
  write_table_file(dir / "a.h5", t);
  ::sleep(1);  // a modification time would differ now
  write_table_file(dir / "b.h5", t);
  EXPECT_EQ(read(dir / "a.h5"), read(dir / "b.h5"));
  const TableFile back = read_table_file(dir / "a.h5");
  ASSERT_EQ(back.columns.size(), 3u);
  EXPECT_EQ(back.columns[1].texts, t.columns[1].texts);
  EXPECT_EQ(back.columns[2].name, "body/x");
  EXPECT_TRUE(std::isnan(back.columns[2].numbers[1]));
  EXPECT_EQ(back.columns[2].numbers[2], -1e300);
  fs::remove_all(dir);
}

TEST(SweepSlurm, TheScriptsRunOneShardATaskThenTheMergeAfterTheWholeArray) {
  SlurmOptions o;
  o.sweep_file = "/data/my sweep.json";
  o.out = "/scratch/out";
  o.program = "/usr/bin/pegsim-cli";
  o.tasks = 4;
  o.cpus_per_task = 2;
  o.partition = "short";
  const std::string array = slurm_array_script(o);
  EXPECT_NE(array.find("#SBATCH --array=0-3\n"), std::string::npos);
  EXPECT_NE(array.find("#SBATCH --cpus-per-task=2\n"), std::string::npos);
  EXPECT_NE(array.find("#SBATCH --partition=short\n"), std::string::npos);
  EXPECT_NE(array.find("exec '/usr/bin/pegsim-cli' sweep '/data/my sweep.json' --out "
                       "'/scratch/out' --jobs 2 --quiet\n"),
            std::string::npos);
  EXPECT_NE(slurm_merge_script(o).find("sweep merge '/scratch/out' --out '/scratch/out'"),
            std::string::npos);
  EXPECT_NE(slurm_submit_script(o).find("--dependency=afterok:\"$array\""), std::string::npos);
}

TEST(SweepShard, FromTheOptionOrSlurmsArrayVariables) {
  int i = -1, n = -1;
  EXPECT_TRUE(shard_from("2/5", i, n));
  EXPECT_EQ(i, 2);
  EXPECT_EQ(n, 5);
  EXPECT_THROW(shard_from("5/5", i, n), SweepError);
  EXPECT_THROW(shard_from("1-5", i, n), SweepError);
  ::setenv("SLURM_ARRAY_TASK_ID", "12", 1);
  ::setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
  ::setenv("SLURM_ARRAY_TASK_MIN", "10", 1);
  EXPECT_TRUE(shard_from("", i, n));
  EXPECT_EQ(i, 2);
  EXPECT_EQ(n, 4);
  ::setenv("SLURM_ARRAY_TASK_ID", "14", 1);
  EXPECT_THROW(shard_from("", i, n), SweepError);
  for (const char* v : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN"})
    ::unsetenv(v);
  EXPECT_FALSE(shard_from("", i, n));
}

}  // namespace
}  // namespace pegsim::cli
