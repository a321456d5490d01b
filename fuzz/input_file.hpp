// The fuzzers' bytes as a file: pegsim's readers take paths (they check that the input is a
// regular file of bounded size before reading it), so each input is written to one file of
// this process and read back through the same entry point a user's file takes.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace pegsim::fuzz {

// A path private to this process, with the extension the reader expects.
inline std::filesystem::path input_path(const std::string& extension) {
  const std::filesystem::path shm = "/dev/shm";
  const std::filesystem::path dir =
      std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
  return dir / ("pegsim-fuzz-" + std::to_string(::getpid()) + extension);
}

// Writes the input to `path`; aborts if it cannot (a fuzzer that silently reads nothing would
// report inputs as harmless).
inline void write_input(const std::filesystem::path& path, const std::uint8_t* data,
                        std::size_t size) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(data, 1, size, f) != size || std::fclose(f) != 0) {
    std::perror(path.c_str());
    std::abort();
  }
}

// Stops the fuzzer with a message: an exception of an unexpected type, or an answer that
// breaks a reader's promise, is a defect like a crash.
[[noreturn]] inline void defect(const std::string& what) {
  std::fprintf(stderr, "pegsim fuzz: %s\n", what.c_str());
  std::abort();
}

}  // namespace pegsim::fuzz
