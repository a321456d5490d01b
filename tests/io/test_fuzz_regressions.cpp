// Inputs the fuzzers (fuzz/, docs/robustness.md) found defects with, kept in
// tests/io/data/fuzz/<target>/: each must now be read, or refused with the reader's own error
// naming the file, exactly as the fuzz target requires (it is replayed there under ASan too).
#include <gtest/gtest.h>

#include <exception>
#include <filesystem>
#include <functional>
#include <string>

#include "io/fclib_problem.hpp"
#include "io/poly_file.hpp"
#include "io/run_file_error.hpp"
#include "io/run_reader.hpp"
#include "io/scene.hpp"
#include "io/siconos_lcp.hpp"
#include "io/siconos_mlcp.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;

// Reads every file of data/fuzz/<target> with `read`; `refusal` says whether an exception is
// the reader's own (and then its message must start with the file's path).
void replay(const std::string& target, const std::function<void(const fs::path&)>& read,
            const std::function<bool(const std::exception&)>& refusal) {
  const fs::path dir = fs::path(PEGSIM_SOURCE_DIR) / "tests/io/data/fuzz" / target;
  if (!fs::is_directory(dir)) return;  // nothing found for this reader
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    SCOPED_TRACE(e.path().string());
    try {
      read(e.path());
    } catch (const std::exception& error) {
      EXPECT_TRUE(refusal(error)) << "not the reader's own error: " << error.what();
      EXPECT_EQ(std::string(error.what()).rfind(e.path().string(), 0), 0u) << error.what();
    }
  }
}

template <typename Error>
bool is(const std::exception& e) {
  return dynamic_cast<const Error*>(&e) != nullptr;
}

TEST(FuzzRegressions, EveryFoundInputIsReadOrRefusedWithTheReadersError) {
  replay(
      "scene", [](const fs::path& f) { load_scene(f); }, is<SceneError>);
  replay(
      "poly", [](const fs::path& f) { read_poly_file(f); }, is<SceneError>);
  replay(
      "run_file",
      [](const fs::path& f) {
        const RunReader reader(f);
        (void)reader.frames(0, reader.frame_count());
        (void)reader.model();
      },
      is<RunFileError>);
  replay(
      "siconos_lcp", [](const fs::path& f) { read_siconos_lcp(f); }, is<ProblemFileError>);
  replay(
      "siconos_mlcp", [](const fs::path& f) { read_siconos_mlcp(f); }, is<ProblemFileError>);
  replay(
      "fclib", [](const fs::path& f) { read_fclib_local(f); }, is<ProblemFileError>);
}

}  // namespace
}  // namespace pegsim
