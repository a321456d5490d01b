// What `run` writes is never lost or wrong without saying so (issue 28 item 6): every write is
// checked, one path is not used for two outputs, a failed run removes the files it created, and
// SIGINT / SIGTERM end the run with its files flushed and its summary printed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli_runner.hpp"
#include "io/run_reader.hpp"

namespace {

namespace fs = std::filesystem;
using pegsim::test::cli;

std::string scene(const std::string& name) {
  return pegsim::test::scene_file(name);
}

fs::path temp_dir() {
  return pegsim::test::process_temp_dir("cli-outputs");
}

TEST(CliOutputs, AFailedWriteIsAnErrorNotACompletedRun) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this machine";
  const auto r = cli("run " + scene("hello_world") + " --steps 200 --csv /dev/full --force");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("/dev/full: cannot be written (No space left on device)"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("completed"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists("/dev/full"));  // a file that existed is never removed
}

TEST(CliOutputs, OnePathForTwoOutputsIsRefusedAndNothingIsCreated) {
  const fs::path dir = temp_dir(), same = dir / "same.out";
  fs::remove(same);
  auto r = cli("run " + scene("hello_world") + " --steps 3 --record " + same.string() + " --csv " +
               same.string() + " --force");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--csv and --record name the same file"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(same));
  // An existing run file refuses the run before the CSV is created.
  const fs::path existing = dir / "existing.h5", csv = dir / "new.csv";
  std::ofstream(existing) << "mine";
  fs::remove(csv);
  r = cli("run " + scene("hello_world") + " --steps 3 --csv " + csv.string() + " --record " +
          existing.string());
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_FALSE(fs::exists(csv));
  std::string kept;
  std::getline(std::ifstream(existing), kept);
  EXPECT_EQ(kept, "mine");
  fs::remove_all(dir);
}

// pour20 for 100 s, stopped by a signal after a second: exit status 128 + signal, the summary
// printed, and every frame the run took is in the run file and the CSV.
TEST(CliOutputs, ASignalEndsTheRunWithItsFilesWholeAndASummary) {
  for (int signal : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(signal);
    const fs::path dir = temp_dir(), run = dir / "run.h5", csv = dir / "run.csv",
                   out = dir / "out.txt";
    fs::remove(run);
    fs::remove(csv);
    const std::string args = scene("pour20");
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      std::freopen(out.c_str(), "w", stdout);
      execl(PEGSIM_CLI, PEGSIM_CLI, "run", args.c_str(), "--duration", "100", "--record",
            run.c_str(), "--csv", csv.c_str(), "--quiet", static_cast<char*>(nullptr));
      _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(child, signal);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
    std::ifstream printed(out);
    const std::string text((std::istreambuf_iterator<char>(printed)), {});
    EXPECT_NE(text.find(signal == SIGTERM ? "interrupted by SIGTERM" : "interrupted by SIGINT"),
              std::string::npos)
        << text;
    const pegsim::RunReader reader(run);
    std::ifstream rows(csv);
    std::int64_t lines = 0;
    for (std::string line; std::getline(rows, line);) ++lines;
    EXPECT_GT(reader.frame_count(), 1);
    EXPECT_EQ(reader.frame_count(), lines - 1);  // the header, then frame 0 onwards
    fs::remove_all(dir);
  }
}

}  // namespace
