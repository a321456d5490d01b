// `pegsim-cli compare-solvers`: re-solves recorded complementarity problems with every solver
// and compares them (RPIsim user guide §8; docs/solver-comparison.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace pegsim::cli {

struct CompareOptions {
  std::string file;                        // run file with problems, or SDS file
  std::optional<std::int64_t> first, end;  // frames [first, end); unset: from start / to end
  std::string csv, svg;                    // outputs, "" for none
  bool force = false;
};

// Parses "a:b", "a:", ":b" or "a" (frame a only); throws UsageError naming --frames.
void parse_frame_range(const std::string& text, CompareOptions& options);

// Runs the comparison, prints the table to `out`; returns the exit status (0). Bad input
// throws UsageError or RunFileError naming the file or argument.
int compare_solvers(const CompareOptions& options, std::ostream& out);

}  // namespace pegsim::cli
