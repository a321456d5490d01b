// Siconos LCP test problems (.dat), read as Siconos' linearComplementarity_newFromFile does
// (format: tests/data/siconos-lcp/NOTICE.md). Whitespace-separated, in this order:
//   n                      problem size
//   storage size0 size1    0 = dense, 1 = sparse block (SBM); size0 = size1 = n
//   dense: size0 size1 again, then the n*n entries of M COLUMN-MAJOR (one text line per column)
//   SBM:   nbblocks, then (if nbblocks > 0) block row and column counts, cumulative block row
//          and column sizes, filled1 = block rows + 1, filled2 = nbblocks, the block row
//          pointers, the block column indices, and each block as its number followed by its
//          entries column-major
//   q                      n numbers; anything after q is a free-text comment
#include "io/siconos_lcp.hpp"

#include "io/siconos_reader.hpp"

namespace pegsim {

Lcp read_siconos_lcp(const std::filesystem::path& file) {
  siconos::Reader r(file);
  const int n = r.integer("the problem size n", 1, siconos::kMaxSize);
  const int storage = r.integer("the storage flag 0 (dense) or 1 (sparse block)", 0, 1);
  const std::string dims = "the matrix dimension n = " + std::to_string(n);
  r.expect(n, dims + " (size0)");
  r.expect(n, dims + " (size1)");
  Lcp lcp;
  lcp.M = storage == 0 ? r.dense(n, n, "n = " + std::to_string(n)) : r.sparse_block(n);
  const std::vector<double> q = r.numbers(n, "entries of q");
  lcp.q = Eigen::Map<const VecX>(q.data(), n);
  return lcp;  // tokens left over are the trailing comment
}

}  // namespace pegsim
