// Siconos MLCP test-problem files (tests/data/siconos-mlcp/NOTICE.md): both storage forms, their
// agreement, and the errors for malformed files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "io/siconos_mlcp.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;

const fs::path kSet = fs::path(PEGSIM_TESTDATA_DIR) / "siconos-mlcp";

// n (equalities) and m (complementarity rows) as the files' headers give them.
const std::map<std::string, std::pair<int, int>> kSizes = {{"Buck2", {20, 12}},
                                                           {"BuckConverter", {20, 12}},
                                                           {"BuckFirstStep", {20, 12}},
                                                           {"PDSym", {3, 4}},
                                                           {"PD", {3, 4}},
                                                           {"RCD", {2, 1}},
                                                           {"RLCD", {6, 2}},
                                                           {"Rectangular", {1, 1}},
                                                           {"deudeu", {1, 1}},
                                                           {"diodeBridge20", {11, 20}},
                                                           {"diodeBridge40", {21, 40}},
                                                           {"diodeBridge", {3, 4}},
                                                           {"m2n1", {1, 2}},
                                                           {"m3n2", {2, 3}},
                                                           {"relay2", {4, 2}},
                                                           {"relay3", {4, 2}}};

TEST(SiconosMlcp, ReadsEveryFileOfTheSetWithItsFreeRowsFirst) {
  for (const auto& [name, nm] : kSizes) {
    const Lcp mcp = read_siconos_mlcp(kSet / (name + "_mlcp.dat"));
    const auto [n, m] = nm;
    ASSERT_EQ(mcp.size(), n + m) << name;
    EXPECT_EQ(mcp.free_rows(), n) << name;
    for (int i = 0; i < n + m; ++i) {
      EXPECT_EQ(mcp.lower(i), i < n ? -INFINITY : 0.0) << name << " row " << i;
      EXPECT_EQ(mcp.upper(i), INFINITY) << name;
    }
  }
}

// m3n2 by hand from its A, B, C, D lines: M = [A C; D B], q = [a; b] (the block form agrees).
TEST(SiconosMlcp, M3n2HoldsTheMatricesOfItsFile) {
  const Lcp mcp = read_siconos_mlcp(kSet / "m3n2_mlcp.dat");
  MatX M(5, 5);
  M << 2, 1, 1, 2, 3,   //
      2, 3, 4, 5, 6,    //
      -2, -2, 2, 1, 1,  //
      1, 0, 1, 2, 1,    //
      0, 1, 1, 1, 2;
  VecX q(5);
  q << -9, -19, -1, -9, -2;
  EXPECT_EQ(mcp.M, M);
  EXPECT_EQ(mcp.q, q);
}

TEST(SiconosMlcp, MalformedFilesNameTheFileAndTheExpectation) {
  const fs::path dir =
      fs::temp_directory_path() / ("pegsim-mlcp-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Case {
    const char* file;
    std::string text;
    std::string says;
  };
  // deudeu (n = m = 1) in both forms; the B entry of the A, B, C, D form changed to 7.
  const std::string deudeu_block = "1\n1\n1\n1\n0 1 2\n0 1\n0\n2\n2\n2 2\n1 0\n-1 1\n-1 1\n";
  const std::vector<Case> cases = {
      {"empty.dat", "", "expected isStorageType1 (0 or 1), but the file ends there"},
      {"neither.dat", "0\n0\n1\n1\n", "expected isStorageType1 or isStorageType2 to be 1"},
      {"blocks.dat", "1\n0\n1\n1\n0 3\n", "the next of blocksRows (increasing up to n + m = 2"},
      {"equalities.dat", "1\n0\n1\n1\n0 1 2\n1 1\n", "expected the equality blocks to hold n = 1"},
      {"truncated.dat", "0\n1\n1\n1\n1\n1\n", "expected 1 entries of C, the file ends after 0"},
      {"differ.dat", deudeu_block + "1\n7\n-1\n1\n-1\n0\n",
       "the block form (M, q) and the A, B, C, D form to hold the same problem"},
  };
  for (const Case& c : cases) {
    const fs::path f = dir / c.file;
    std::ofstream(f) << c.text;
    try {
      read_siconos_mlcp(f);
      ADD_FAILURE() << c.file << ": no error";
    } catch (const ProblemFileError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(f.string()), std::string::npos) << what;
      EXPECT_NE(what.find(c.says), std::string::npos) << c.file << ": " << what;
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pegsim
