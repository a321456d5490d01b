// `pegsim-cli overlap`: the overlap error of every frame of a run file (thesis §5.2.3-5.2.4,
// the total overlap between all body pairs), from the recorded poses and geometry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <vector>

#include "engine/collision/overlap.hpp"
#include "io/run_reader.hpp"

namespace pegsim::cli {

struct FrameOverlap {
  std::int64_t frame = 0;
  double time = 0.0;
  OverlapTotals totals;
  bool planar = false;  // a 2D run: the totals are areas, m^2
};

// Every frame's exact overlap (collision/overlap.hpp), in frame order.
std::vector<FrameOverlap> run_overlap(const RunReader& reader);

// Prints the summary (largest total and its frame, mean, pairs not measured) and, unless
// `csv` is given, one line per frame; with `csv`, writes one row per frame there instead
// (std::runtime_error naming it if it exists and !overwrite, or cannot be written).
void report_overlap(std::ostream& out, const std::string& run_file,
                    const std::vector<FrameOverlap>& frames, const std::filesystem::path& csv,
                    bool overwrite);

}  // namespace pegsim::cli
