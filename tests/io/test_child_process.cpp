// run_in_child (child_process.hpp): the caller survives whatever the work does to its process
// (a crash, exit(), an exception) and learns which it was; an answer comes back byte for byte.
#include <gtest/gtest.h>

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "io/child_process.hpp"

namespace pegsim {
namespace {

TEST(ChildProcess, AnAnswerComesBackByteForByte) {
  std::string bytes(200000, '\0');  // more than a pipe holds at once
  for (std::size_t k = 0; k < bytes.size(); ++k) bytes[k] = static_cast<char>(k * 7919 % 256);
  const ChildOutcome got = run_in_child([&] { return bytes; }, 10);
  EXPECT_EQ(got.end, ChildOutcome::End::answered);
  EXPECT_EQ(got.text, bytes);
  EXPECT_EQ(run_in_child([] { return std::string(); }, 10).end, ChildOutcome::End::answered);
}

TEST(ChildProcess, AnExceptionComesBackAsItsMessage) {
  const ChildOutcome got =
      run_in_child([]() -> std::string { throw std::runtime_error("file.hdf5: bad"); }, 10);
  EXPECT_EQ(got.end, ChildOutcome::End::threw);
  EXPECT_EQ(got.text, "file.hdf5: bad");
}

TEST(ChildProcess, ACrashOrAnExitEndsTheChildNotTheCaller) {
  const ChildOutcome crash = run_in_child(
      []() -> std::string {
        std::raise(SIGSEGV);
        return "after the crash";
      },
      10);
  EXPECT_EQ(crash.end, ChildOutcome::End::died);
  EXPECT_EQ(crash.text.rfind("crashed with signal " + std::to_string(SIGSEGV), 0), 0u)
      << crash.text;
  const ChildOutcome exited = run_in_child([]() -> std::string { std::exit(1); }, 10);
  EXPECT_EQ(exited.end, ChildOutcome::End::died);
  EXPECT_EQ(exited.text, "exited with status 1");
  const ChildOutcome aborted = run_in_child([]() -> std::string { std::abort(); }, 10);
  EXPECT_EQ(aborted.end, ChildOutcome::End::died);
  EXPECT_EQ(aborted.text.rfind("crashed with signal " + std::to_string(SIGABRT), 0), 0u)
      << aborted.text;
}

TEST(ChildProcess, WorkThatDoesNotFinishInTimeIsEnded) {
  const ChildOutcome got = run_in_child(
      []() -> std::string {
        while (true) ::pause();
      },
      1);
  EXPECT_EQ(got.end, ChildOutcome::End::died);
  EXPECT_EQ(got.text, "did not finish within 1 s");
}

}  // namespace
}  // namespace pegsim
