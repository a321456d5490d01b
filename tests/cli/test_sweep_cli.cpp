// `pegsim-cli sweep`, `sweep merge` and `sweep slurm` as a user runs them: the messages and exit
// statuses of bad input, and shards merged on the command line into a single run's files.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_runner.hpp"

namespace pegsim::test {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Six points of the sliding block: three mu, two step sizes.
fs::path write_sweep(const fs::path& dir) {
  const fs::path file = dir / "incline.json";
  std::ofstream(file) << R"({"name": "incline", "scene": ")" << scene_file("sliding_block")
                      << R"(", "duration": 0.5, "parameters": [
      {"name": "mu", "set": ["body.block.mu", "body.incline.mu"], "values": [0.1, 0.3, 0.7]},
      {"name": "h", "set": "settings.h", "values": [0.005, 0.01]}],
    "metrics": [{"final_pose": "block"}]})";
  return file;
}

TEST(SweepCli, BadArgumentsAndFilesAreRefusedWithTheirReason) {
  const fs::path dir = process_temp_dir("sweep-cli-bad");
  const fs::path sweep = write_sweep(dir);
  CliResult r = cli("sweep " + sweep.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("sweep: expected --out DIR"), std::string::npos) << r.out;
  r = cli("sweep " + sweep.string() + " --out " + (dir / "o").string() + " --shard 3/3");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--shard: expected i/N with 0 <= i < N, got '3/3'"), std::string::npos)
      << r.out;
  r = cli("sweep " + (dir / "missing.json").string() + " --out " + (dir / "o").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("missing.json: cannot be read"), std::string::npos) << r.out;
  r = cli("sweep slurm " + sweep.string() + " --out " + (dir / "o").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("expected --array N"), std::string::npos) << r.out;
  r = cli("sweep merge " + dir.string() + " --out " + (dir / "o").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("not a sweep folder (no sweep.json)"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(SweepCli, ListPrintsThePointsWithoutRunningThem) {
  const fs::path dir = process_temp_dir("sweep-cli-list");
  const std::string sweep = write_sweep(dir).string();
  CliResult r = cli("sweep " + sweep + " --list");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("point,mu,h\n0,0.1,0.005\n1,0.1,0.01\n2,0.3,0.005\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("5,0.7,0.01\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("incline: 6 of 6 points"), std::string::npos) << r.out;
  r = cli("sweep " + sweep + " --list --shard 1/2");
  EXPECT_NE(r.out.find("point,mu,h\n1,0.1,0.01\n3,0.3,0.01\n5,0.7,0.01\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // the file
  fs::remove_all(dir);
}

TEST(SweepCli, ShardsMergedOnTheCommandLineGiveTheSingleRunsFiles) {
  const fs::path dir = process_temp_dir("sweep-cli-merge");
  const std::string sweep = write_sweep(dir).string();
  CliResult r = cli("sweep " + sweep + " --out " + (dir / "one").string() + " --jobs 1");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("sweep incline: 6 of 6 points; ran 6 (0 done before) on 1 worker"),
            std::string::npos)
      << r.out;
  for (int i = 0; i < 2; ++i) {
    r = cli("sweep " + sweep + " --out " + (dir / ("s" + std::to_string(i))).string() +
            " --shard " + std::to_string(i) + "/2 --quiet");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("holds this shard's points"), std::string::npos) << r.out;
  }
  // One shard alone: the missing points are named.
  r = cli("sweep merge " + (dir / "s0").string() + " --out " + (dir / "m").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("the folders hold 3 of 6 points (missing 1, 3, 5)"), std::string::npos)
      << r.out;
  r = cli("sweep merge " + (dir / "s0").string() + " " + (dir / "s1").string() + " --out " +
          (dir / "m").string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* f : {"results.csv", "results.h5"})
    EXPECT_EQ(read(dir / "m" / f), read(dir / "one" / f)) << f;
  // Merged into one of the inputs: that folder then holds every point itself.
  r = cli("sweep merge " + (dir / "s0").string() + " " + (dir / "s1").string() + " --out " +
          (dir / "s0").string());
  ASSERT_EQ(r.status, 0) << r.out;
  r = cli("sweep " + sweep + " --out " + (dir / "s0").string());
  EXPECT_NE(r.out.find("ran 0 (6 done before)"), std::string::npos) << r.out;
  EXPECT_EQ(read(dir / "s0" / "results.csv"), read(dir / "one" / "results.csv"));
  // The Slurm scripts name this program, the sweep and the folder.
  r = cli("sweep slurm " + sweep + " --array 3 --out " + (dir / "cluster").string());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string array = read(dir / "cluster" / "slurm" / "sweep.sbatch");
  EXPECT_NE(array.find("#SBATCH --array=0-2"), std::string::npos) << array;
  EXPECT_NE(array.find(fs::canonical(PEGSIM_CLI).string()), std::string::npos) << array;
  EXPECT_TRUE(fs::exists(dir / "cluster" / "sweep.json"));
  r = cli("sweep slurm " + sweep + " --array 7 --out " + (dir / "c7").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--array 7 is more shards than the 6 points"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pegsim::test
