// pegsim-cli end to end: run, validate, the summary, exit codes, and file safety.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;

struct Result {
  int status = -1;
  std::string out;  // stdout and stderr together
};

Result cli(const std::string& args) {
  const std::string cmd = std::string(PEGSIM_CLI) + " " + args + " 2>&1";
  Result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), pipe)) r.out.append(buf.data(), n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

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

TEST(Cli, RunTextSummaryNamesEveryFigure) {
  Result r = cli("run " + scene("hello_world") + " --duration 0.2 --quiet");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* key : {"steps", "simulated time", "wall time", "real-time factor",
                          "contacts/step", "solver failures", "fallbacks", "max penetration",
                          "final state"})
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

TEST(Cli, ValidateAcceptsEveryShippedScene) {
  for (const auto& entry : fs::directory_iterator(fs::path(PEGSIM_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    Result r = cli("validate " + entry.path().string());
    EXPECT_EQ(r.status, 0) << entry.path() << "\n" << r.out;
  }
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

}  // namespace
