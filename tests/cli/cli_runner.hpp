// Runs pegsim-cli (PEGSIM_CLI) as a process and captures what it prints and its exit status.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace pegsim::test {

struct CliResult {
  int status = -1;
  std::string out;  // stdout and stderr together
};

inline CliResult cli(const std::string& args) {
  const std::string cmd = std::string(PEGSIM_CLI) + " " + args + " 2>&1";
  CliResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), pipe)) r.out.append(buf.data(), n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

// A shipped scene's path, scenes/NAME.json in the source tree.
inline std::string scene_file(const std::string& name) {
  return std::string(PEGSIM_SOURCE_DIR) + "/scenes/" + name + ".json";
}

// A folder of this test process's own under the system's temporary folder, created.
inline std::filesystem::path process_temp_dir(const std::string& tag) {
  const std::filesystem::path d =
      std::filesystem::temp_directory_path() / ("pegsim-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace pegsim::test
