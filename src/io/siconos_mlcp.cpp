// Siconos MLCP test problems (.dat), read as Siconos' mixedLinearComplementarity_newFromFile
// does (format: tests/data/siconos-mlcp/NOTICE.md). Whitespace-separated, in this order:
//   isStorageType1 isStorageType2 n m
//   type 1: blocksRows (0, ..., n + m: cumulative row offsets), blocksIsComp (one 0/1 per
//           block), M as a NumericsMatrix (storage flag, size0, size1, then as in the LCP
//           files), q (size1 numbers)
//   type 2: A (n x n), B (m x m), C (n x m), D (m x n), each row by row, then a (n), b (m)
//   anything after is free text (some files append a reference solution)
#include "io/siconos_mlcp.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "io/siconos_reader.hpp"

namespace pegsim {
namespace {

// An MCP row that is an equation, or a complementarity row on [0, inf).
void set_row(Lcp& mcp, int row, bool complementary) {
  mcp.lower(row) = complementary ? 0.0 : -INFINITY;
  mcp.upper(row) = INFINITY;
}

MatX rows_of(siconos::Reader& r, int rows, int cols, const std::string& what) {
  const std::vector<double> v = r.numbers(std::int64_t{rows} * cols, "entries of " + what);
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      v.data(), rows, cols);
}

VecX vector_of(siconos::Reader& r, int size, const std::string& what) {
  const std::vector<double> v = r.numbers(size, "entries of " + what);
  return Eigen::Map<const VecX>(v.data(), size);
}

}  // namespace

Lcp read_siconos_mlcp(const std::filesystem::path& file) {
  siconos::Reader r(file);
  const int type1 = r.integer("isStorageType1 (0 or 1)", 0, 1);
  const int type2 = r.integer("isStorageType2 (0 or 1)", 0, 1);
  if (!type1 && !type2)
    throw ProblemFileError(file.string() +
                           ": expected isStorageType1 or isStorageType2 to be 1, both are 0");
  const int n = r.integer("n, the number of equalities", 0, siconos::kMaxSize);
  const int m = r.integer("m, the number of complementarity rows", 0, siconos::kMaxSize - n);
  const int size = n + m;
  if (size == 0) throw ProblemFileError(file.string() + ": expected n + m >= 1, both are 0");

  Lcp block_form;
  bool have_block_form = false;
  if (type1) {
    std::vector<int> starts{r.integer("blocksRows starting at 0", 0, 0)};
    while (starts.back() < size)
      starts.push_back(r.integer(
          "the next of blocksRows (increasing up to n + m = " + std::to_string(size) + ")",
          starts.back() + 1, size));
    block_form.lower.resize(size);
    block_form.upper.resize(size);
    int equalities = 0;
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      const bool comp = r.integer("blocksIsComp of block " + std::to_string(b) + " (0 or 1)", 0, 1);
      for (int row = starts[b]; row < starts[b + 1]; ++row) set_row(block_form, row, comp);
      if (!comp) equalities += starts[b + 1] - starts[b];
    }
    if (equalities != n)
      throw ProblemFileError(file.string() + ": expected the equality blocks to hold n = " +
                             std::to_string(n) + " rows, they hold " + std::to_string(equalities));
    const int storage = r.integer("the storage flag of M, 0 (dense) or 1 (sparse block)", 0, 1);
    const int rows = r.integer("size0, the rows of M", 1, siconos::kMaxSize);
    const int cols = r.integer("size1, the columns of M", 1, siconos::kMaxSize);
    if (storage == 1 && (rows != size || cols != size))
      throw ProblemFileError(file.string() + ": expected a sparse-block M of n + m = " +
                             std::to_string(size) + " rows and columns");
    const MatX M = storage == 0
                       ? r.dense(rows, cols, std::to_string(rows) + " x " + std::to_string(cols))
                       : r.sparse_block(size);
    const VecX q = vector_of(r, cols, "q");  // Siconos reads size1 of them
    if (rows == size && cols == size) {
      block_form.M = M;
      block_form.q = q;
      have_block_form = true;
    } else if (!type2) {
      throw ProblemFileError(file.string() + ": expected M of n + m = " + std::to_string(size) +
                             " rows and columns, it is " + std::to_string(rows) + " x " +
                             std::to_string(cols) + " (and there is no A, B, C, D form)");
    }
  }
  if (!type2) return block_form;

  Lcp abcd;
  abcd.M.resize(size, size);
  abcd.q.resize(size);
  abcd.lower.resize(size);
  abcd.upper.resize(size);
  abcd.M.topLeftCorner(n, n) = rows_of(r, n, n, "A");
  abcd.M.bottomRightCorner(m, m) = rows_of(r, m, m, "B");
  abcd.M.topRightCorner(n, m) = rows_of(r, n, m, "C");
  abcd.M.bottomLeftCorner(m, n) = rows_of(r, m, n, "D");
  abcd.q.head(n) = vector_of(r, n, "a");
  abcd.q.tail(m) = vector_of(r, m, "b");
  for (int row = 0; row < size; ++row) set_row(abcd, row, row >= n);
  if (!have_block_form) return abcd;

  // Both forms: the same problem only if the blocks are [equalities; complementarity] in order.
  const double scale = 1.0 + std::max(abcd.M.cwiseAbs().maxCoeff(), abcd.q.cwiseAbs().maxCoeff());
  const bool same = block_form.lower == abcd.lower &&
                    (block_form.M - abcd.M).cwiseAbs().maxCoeff() <= 1e-12 * scale &&
                    (block_form.q - abcd.q).cwiseAbs().maxCoeff() <= 1e-12 * scale;
  if (!same)
    throw ProblemFileError(file.string() +
                           ": expected the block form (M, q) and the A, B, C, D form to hold the "
                           "same problem, they differ");
  return block_form;
}

}  // namespace pegsim
