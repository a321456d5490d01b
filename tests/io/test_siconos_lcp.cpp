// Siconos LCP test-problem files (tests/data/siconos-lcp/NOTICE.md): dense column-major and
// sparse-block storage, and the errors for malformed files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "io/siconos_lcp.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;

const fs::path kSet = fs::path(PEGSIM_TESTDATA_DIR) / "siconos-lcp";

// The table of NOTICE.md: problem -> n.
const std::map<std::string, int> kSizes = {
    {"lcp_mmc", 26},
    {"lcp_deudeu", 2},
    {"lcp_deudeu_block", 2},
    {"lcp_trivial", 9},
    {"lcp_trivial_block", 9},
    {"lcp_ortiz", 4},
    {"lcp_ortiz_block", 4},
    {"lcp_exp_murty", 6},
    {"lcp_exp_murty2", 6},
    {"lcp_CPS_1", 2},
    {"lcp_CPS_2", 3},
    {"lcp_CPS_3", 4},
    {"lcp_CPS_4", 4},
    {"lcp_CPS_4bis", 4},
    {"lcp_CPS_5", 2},
    {"lcp_Pang_isolated_sol", 3},
    {"lcp_Pang_isolated_sol_perturbed", 3},
    {"lcp_inf_sol_perturbed", 3},
    {"lcp_enum_fails", 9},
    {"lcp_tobenna", 40},
};

Lcp problem(const std::string& name) {
  return read_siconos_lcp(kSet / (name + ".dat"));
}

// A per-process temporary directory, removed with its files at the end of the test.
struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("pegsim-siconos-test-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(dir); }
  ~TempDir() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name) << text;
    return dir / name;
  }
};

std::string error_of(const fs::path& file) {
  try {
    read_siconos_lcp(file);
  } catch (const ProblemFileError& e) {
    return e.what();
  }
  return "no error";
}

// Every file listed in NOTICE.md exists and has the documented size, M n x n and q n.
TEST(SiconosLcp, EveryProblemOfTheTableHasItsDocumentedSize) {
  for (const auto& [name, n] : kSizes) {
    const Lcp lcp = problem(name);
    EXPECT_EQ(lcp.size(), n) << name;
    EXPECT_EQ(lcp.M.rows(), n) << name;
    EXPECT_EQ(lcp.M.cols(), n) << name;
    EXPECT_TRUE(lcp.M.allFinite() && lcp.q.allFinite()) << name;
    EXPECT_TRUE(lcp.block_starts.empty()) << name;
  }
}

// Every .dat in the directory reads, including problems added beside the original 20 later.
TEST(SiconosLcp, EveryFileOfTheDirectoryReads) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kSet)) {
    if (entry.path().extension() != ".dat") continue;
    ++files;
    EXPECT_NO_THROW(read_siconos_lcp(entry.path())) << entry.path();
  }
  EXPECT_GE(files, static_cast<int>(kSizes.size()));
}

// Each text line of a dense file is one COLUMN of M: lcp_CPS_3's lines
//   "0 0 10 30", "0 0 20 15", "10 30 0 0", "20 15 0 0"
// give M(2,0) = 10, M(3,0) = 30, M(0,3) = 20, M(1,3) = 15 (row reading would swap them).
TEST(SiconosLcp, DenseMatrixIsColumnMajor) {
  const Lcp cps3 = problem("lcp_CPS_3");
  MatX expected(4, 4);
  expected << 0, 0, 10, 20,  //
      0, 0, 30, 15,          //
      10, 20, 0, 0,          //
      30, 15, 0, 0;
  EXPECT_EQ(cps3.M, expected);
  EXPECT_EQ(cps3.q, VecX::Constant(4, -1.0));

  // lcp_ortiz, first line "3 -1 0 0": M(1,0) = -1 while M(0,1) = 1 (second line "1 2 1 0").
  const Lcp ortiz = problem("lcp_ortiz");
  EXPECT_EQ(ortiz.M(1, 0), -1.0);
  EXPECT_EQ(ortiz.M(0, 1), 1.0);
  EXPECT_EQ(ortiz.M(3, 2), 1.0);   // third line "0 1 3 1"
  EXPECT_EQ(ortiz.M(2, 3), -1.0);  // fourth line "-1 1 -1 2"

  // Murty's example: lines "1 0 0 0 0 0", "2 1 0 0 0 0", ... make M upper triangular.
  const Lcp murty = problem("lcp_exp_murty2");
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(murty.M(i, j), i == j ? 1.0 : (i < j ? 2.0 : 0.0)) << i << "," << j;
  VecX q(6);
  q << -126, -124, -120, -112, -96, -64;
  EXPECT_EQ(murty.q, q);
}

// The free text after q ("Remark 4.1.14 CPS 2009 / set of solution is z_1 + z_2 = 1") is a
// comment: q is read and the rest ignored.
TEST(SiconosLcp, TextAfterQIsIgnored) {
  const Lcp cps1 = problem("lcp_CPS_1");
  EXPECT_EQ(cps1.M, MatX::Ones(2, 2));
  EXPECT_EQ(cps1.q, VecX::Constant(2, -1.0));
}

// The sparse-block files hold exactly the same problem as their dense twins.
TEST(SiconosLcp, BlockFilesEqualTheirDenseTwinsExactly) {
  for (const std::string name : {"lcp_deudeu", "lcp_ortiz", "lcp_trivial"}) {
    const Lcp dense = problem(name), block = problem(name + "_block");
    EXPECT_EQ(block.M, dense.M) << name;
    EXPECT_EQ(block.q, dense.q) << name;
  }
  // And the values, not just the agreement: lcp_trivial is diag(1..9), q = -1.
  const Lcp trivial = problem("lcp_trivial_block");
  EXPECT_EQ(trivial.M, VecX::LinSpaced(9, 1.0, 9.0).asDiagonal().toDenseMatrix());
  EXPECT_EQ(trivial.q, VecX::Constant(9, -1.0));
}

// A small valid dense file for the malformed variants below: M = [2 1; 0 3] (column-major).
const std::string kHeader = "2\n0\n2\n2\n2\t2\n";

// Each malformed file gives a ProblemFileError naming the file and what was expected.
TEST(SiconosLcp, MalformedFilesNameTheFileAndTheExpectation) {
  struct Case {
    const char* file;
    std::string text;
    const char* says;
  };
  const Case cases[] = {
      {"empty.dat", "", "expected the problem size n, but the file ends there"},
      {"truncated.dat", "4\n0\n4\n4\n4 4\n1 2 3\n4 5 6\n7\n",
       "expected 16 matrix entries, the file ends after 7"},
      {"no_q.dat", kHeader + "2 0\n1 3\n", "expected 2 entries of q, the file ends after 0"},
      {"short_q.dat", kHeader + "2 0\n1 3\n-1\n", "expected 2 entries of q, the file ends after 1"},
      {"storage.dat", "2\n3\n2\n2\n",
       "line 2: expected the storage flag 0 (dense) or 1 "
       "(sparse block) (an integer in [0, 1]), got '3'"},
      {"zero_n.dat", "0\n0\n0\n0\n0 0\n", "line 1: expected the problem size n"},
      {"negative_n.dat", "-3\n0\n", "got '-3'"},
      {"real_n.dat", "2.5\n0\n", "line 1: expected the problem size n"},
      {"huge_n.dat", "999999999\n0\n", "expected the problem size n (an integer in [1, 5000])"},
      {"mismatch.dat", "2\n0\n3\n2\n",
       "line 3: expected the matrix dimension n = 2 (size0), got '3'"},
      {"mismatch2.dat", "2\n0\n2\n2\n2 3\n",
       "line 5: expected the dense dimension n = 2 (size1 "
       "again), got '3'"},
      {"word.dat", kHeader + "2 zero\n1 3\n-1 -1\n",
       "line 6: expected a finite number (matrix entries: 2 of 4), got 'zero'"},
      {"trailing_junk.dat", kHeader + "2 0x\n1 3\n-1 -1\n", "got '0x'"},
      {"nan.dat", kHeader + "2 0\n1 3\n-1 nan\n",
       "line 8: expected a finite number (entries of q: 2 of 2), got 'nan'"},
      {"inf.dat", kHeader + "2 0\ninf 3\n-1 -1\n", "got 'inf'"},
      {"overflow.dat", kHeader + "2 0\n1 3\n1e999 -1\n", "got '1e999'"},
      // Sparse block: 2 x 2 blocks of size 1 (cumulative sizes 1 2).
      {"sbm_sizes.dat", "2\n1\n2\n2\n1\n2\n2\n1 1\n",
       "line 8: expected cumulative block row sizes strictly increasing (they are cumulative), "
       "got '1'"},
      {"sbm_last.dat", "2\n1\n2\n2\n1\n1\n1\n3\n",
       "expected cumulative block row sizes 1 of 1 (an integer in [1, 2]), got '3'"},
      {"sbm_last_short.dat", "2\n1\n2\n2\n1\n1\n1\n1\n",
       "line 8: expected the last of the cumulative block row sizes to equal n = 2, got '1'"},
      {"sbm_filled1.dat", "2\n1\n2\n2\n1\n2\n2\n1 2\n1 2\n2\n",
       "expected filled1 = the number "
       "of block rows + 1 = 3, got '2'"},
      {"sbm_column.dat", "2\n1\n2\n2\n1\n2\n2\n1 2\n1 2\n3\n1\n0 1 1\n5\n",
       "expected block column indices 1 of 1 (an integer in [0, 1]), got '5'"},
      {"sbm_pointers.dat", "2\n1\n2\n2\n1\n2\n2\n1 2\n1 2\n3\n1\n0 1 0\n1\n",
       "expected block row pointers non-decreasing from 0 to nbblocks = 1, got '0'"},
      {"sbm_number.dat", "2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n7\n1 2 3 4\n-1 -1\n",
       "line 14: expected the block number 0, got '7'"},
      {"sbm_twice.dat", "2\n1\n2\n2\n2\n1\n1\n2\n2\n2\n2\n0 2\n0 0\n0\n1 2 3 4\n1\n1 2 3 4\n0 0\n",
       "expected each block once, but block (0, 0) comes again as block 1"},
      {"sbm_short_block.dat", "2\n1\n2\n2\n1\n1\n1\n2\n2\n2\n1\n0 1\n0\n0\n1 2 3\n",
       "expected 4 entries of block 0, the file ends after 3"},
  };
  const TempDir tmp;
  for (const Case& c : cases) {
    const std::string e = error_of(tmp.write(c.file, c.text));
    EXPECT_NE(e.find(std::string(c.file) + ": "), std::string::npos) << c.file << ": " << e;
    EXPECT_NE(e.find(c.says), std::string::npos) << c.file << ": " << e;
  }
}

// The small valid files used as the base of the malformed ones do read (so the cases above fail
// for the reason they name), with a '+' sign accepted as C's %le does.
TEST(SiconosLcp, HandWrittenDenseAndBlockFilesRead) {
  const TempDir tmp;
  const Lcp dense = read_siconos_lcp(tmp.write("ok.dat", kHeader + "2 0\n+1 3\n-1 -1\n"));
  MatX M(2, 2);
  M << 2, 1, 0, 3;
  EXPECT_EQ(dense.M, M);
  EXPECT_EQ(dense.q, VecX::Constant(2, -1.0));
  // Two of the four 1x1 blocks: (0,0) = 2 and (1,0) = 5; nbblocks 0 is the zero matrix.
  const Lcp sbm = read_siconos_lcp(tmp.write(
      "ok_block.dat", "2\n1\n2\n2\n2\n2\n2\n1 2\n1 2\n3\n2\n0 1 2\n0 0\n0\n2\n1\n5\n-1 -1\n"));
  M << 2, 0, 5, 0;
  EXPECT_EQ(sbm.M, M);
  const Lcp zero = read_siconos_lcp(tmp.write("ok_zero.dat", "2\n1\n2\n2\n0\n-1 -1\n"));
  EXPECT_EQ(zero.M, MatX::Zero(2, 2));
  EXPECT_EQ(zero.q, VecX::Constant(2, -1.0));
}

// Cutting a file after any of its tokens (short of the end of q) gives a ProblemFileError naming
// the file, never a crash or another exception; the whole file reads.
TEST(SiconosLcp, EveryTruncationIsAnError) {
  const TempDir tmp;
  for (const std::string name : {"lcp_ortiz_block", "lcp_deudeu"}) {  // no text after q
    std::ifstream in(kSet / (name + ".dat"));
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::size_t> token_ends;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (!std::isspace(static_cast<unsigned char>(text[i])) &&
          (i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1]))))
        token_ends.push_back(i + 1);
    for (std::size_t k = 0; k < token_ends.size(); ++k) {
      const std::size_t cut = k == 0 ? 0 : token_ends[k - 1];  // keeps k tokens
      const fs::path file = tmp.write("cut.dat", text.substr(0, cut));
      const std::string e = error_of(file);
      EXPECT_NE(e.find("cut.dat: "), std::string::npos) << name << " cut after " << k << ": " << e;
    }
    EXPECT_EQ(error_of(tmp.write("whole.dat", text)), "no error") << name;
  }
}

// A missing file is named, with what was expected.
TEST(SiconosLcp, MissingFileIsNamed) {
  const std::string e = error_of(kSet / "nowhere.dat");
  EXPECT_NE(e.find("nowhere.dat"), std::string::npos) << e;
  EXPECT_NE(e.find("cannot open"), std::string::npos) << e;
}

}  // namespace
}  // namespace pegsim
