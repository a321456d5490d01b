// The token reader shared by the Siconos LCP and MLCP file readers (internal to src/io): numbers
// and integers with their line, and Siconos' NumericsMatrix (dense column-major or sparse block),
// every failure a ProblemFileError naming the file, the line and what was expected.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "io/siconos_lcp.hpp"

namespace pegsim::siconos {

// Lcp stores M dense: n is capped (M at most 200 MB) so a bad n cannot exhaust memory.
inline constexpr int kMaxSize = 5000;

struct Token {
  int line = 0;  // 1-based line in the file
  std::string text;
};

class Reader {
 public:
  explicit Reader(std::filesystem::path file) : file_(std::move(file)) { tokens_ = tokenize(); }

  [[noreturn]] void fail(const Token& at, const std::string& what) const {
    throw ProblemFileError(file_.string() + ": line " + std::to_string(at.line) + ": expected " +
                           what + ", got '" + at.text + "'");
  }

  [[noreturn]] void fail_at_end(const std::string& what) const {
    throw ProblemFileError(file_.string() + ": expected " + what + ", but the file ends there");
  }

  bool at_end() const { return next_ == tokens_.size(); }
  const Token& peek() const { return tokens_[next_]; }
  const std::filesystem::path& file() const { return file_; }

  std::vector<Token> tokenize() const {
    std::ifstream in(file_);
    if (!in)
      throw ProblemFileError(file_.string() +
                             ": expected a readable Siconos problem file (cannot "
                             "open it)");
    std::vector<Token> out;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
      std::istringstream words(text);
      for (std::string w; words >> w;) out.push_back({line, w});
    }
    return out;
  }

  const Token& next(const std::string& what) {
    if (next_ == tokens_.size()) fail_at_end(what);
    return tokens_[next_++];
  }

  // Fails before reading when fewer than `count` tokens remain, saying how many there are.
  void need(std::int64_t count, const std::string& what) const {
    const auto left = static_cast<std::int64_t>(tokens_.size() - next_);
    if (left < count)
      throw ProblemFileError(file_.string() + ": expected " + std::to_string(count) + " " + what +
                             ", the file ends after " + std::to_string(left));
  }

  // An integer in [lo, hi]; `what` names it for the error message.
  int integer(const std::string& what, int lo, int hi) {
    const Token& t = next(what);
    int x = 0;
    const char* end = t.text.data() + t.text.size();
    const auto [ptr, ec] = std::from_chars(t.text.data(), end, x);
    if (ec != std::errc() || ptr != end || x < lo || x > hi)
      fail(t, lo == hi ? what
                       : what + " (an integer in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "])");
    return x;
  }

  void expect(int value, const std::string& what) { integer(what, value, value); }

  std::vector<int> integers(int count, const std::string& what, int lo, int hi) {
    need(count, what);
    std::vector<int> out;
    for (int k = 0; k < count; ++k)
      out.push_back(
          integer(what + " " + std::to_string(k + 1) + " of " + std::to_string(count), lo, hi));
    return out;
  }

  std::vector<double> numbers(std::int64_t count, const std::string& what) {
    need(count, what);
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(count));
    for (std::int64_t k = 0; k < count; ++k) {
      const Token& t = tokens_[next_++];
      std::string_view s = t.text;
      if (s.starts_with('+') && !s.starts_with("+-")) s.remove_prefix(1);  // C's %le takes "+1"
      double x = 0.0;
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
      if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(x))
        fail(t, "a finite number (" + what + ": " + std::to_string(k + 1) + " of " +
                    std::to_string(count) + ")");
      out.push_back(x);
    }
    return out;
  }

  // The dense part of a NumericsMatrix after its header: size0 size1 again, then the entries
  // column-major (Eigen's default order too).
  // `dims` names the expected dimensions in messages ("n = 4").
  MatX dense(int rows, int cols, const std::string& dims) {
    expect(rows, "the dense dimension " + dims + " (size0 again)");
    expect(cols, "the dense dimension " + dims + " (size1 again)");
    const std::vector<double> m = numbers(std::int64_t{rows} * cols, "matrix entries");
    return Eigen::Map<const MatX>(m.data(), rows, cols);
  }

  // Cumulative sizes: strictly increasing, the last equal to n.
  std::vector<int> block_ends(int count, const std::string& what, int n) {
    const std::size_t at = next_;
    std::vector<int> ends = integers(count, what, 1, n);
    for (int k = 1; k < count; ++k)
      if (ends[k] <= ends[k - 1])
        fail(tokens_[at + k], what + " strictly increasing (they are cumulative)");
    if (ends.back() != n)
      fail(tokens_[next_ - 1], "the last of the " + what + " to equal n = " + std::to_string(n));
    return ends;
  }

  // CSR-like: the blocks of block row r are numbers row_ptr[r] .. row_ptr[r+1]-1.
  std::vector<int> row_pointers(int rows, int nbblocks) {
    const std::size_t at = next_;
    const std::vector<int> ptr = integers(rows + 1, "block row pointers", 0, nbblocks);
    for (int r = 0; r <= rows; ++r)
      if ((r == 0 ? ptr[r] != 0 : ptr[r] < ptr[r - 1]) || (r == rows && ptr[r] != nbblocks))
        fail(tokens_[at + r],
             "block row pointers non-decreasing from 0 to nbblocks = " + std::to_string(nbblocks));
    return ptr;
  }

  MatX sparse_block(int n) {
    MatX M = MatX::Zero(n, n);
    const int nbblocks = integer("the number of non-zero blocks", 0, kMaxSize * kMaxSize);
    if (nbblocks == 0) return M;  // Siconos reads nothing more of the matrix
    const int rows = integer("the number of block rows", 1, n);
    const int cols = integer("the number of block columns", 1, n);
    const std::vector<int> row_ends = block_ends(rows, "cumulative block row sizes", n);
    const std::vector<int> col_ends = block_ends(cols, "cumulative block column sizes", n);
    expect(rows + 1, "filled1 = the number of block rows + 1 = " + std::to_string(rows + 1));
    expect(nbblocks, "filled2 = the number of blocks = " + std::to_string(nbblocks));
    const std::vector<int> row_ptr = row_pointers(rows, nbblocks);
    const std::size_t col_index_at = next_;
    const std::vector<int> col_index = integers(nbblocks, "block column indices", 0, cols - 1);
    std::set<std::pair<int, int>> seen;
    for (int r = 0; r < rows; ++r)
      for (int b = row_ptr[r]; b < row_ptr[r + 1]; ++b) {
        const int c = col_index[b];
        if (!seen.emplace(r, c).second)
          fail(tokens_[col_index_at + b], "each block once, but block (" + std::to_string(r) +
                                              ", " + std::to_string(c) + ") comes again as block " +
                                              std::to_string(b));
        expect(b, "the block number " + std::to_string(b));
        const int r0 = r == 0 ? 0 : row_ends[r - 1], c0 = c == 0 ? 0 : col_ends[c - 1];
        const int h = row_ends[r] - r0, w = col_ends[c] - c0;
        const std::vector<double> v =
            numbers(std::int64_t{h} * w, "entries of block " + std::to_string(b));
        M.block(r0, c0, h, w) = Eigen::Map<const MatX>(v.data(), h, w);
      }
    return M;
  }

 private:
  std::filesystem::path file_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
};

}  // namespace pegsim::siconos
