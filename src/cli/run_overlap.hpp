// `pegsim-cli overlap`: the overlap error of every frame of a run file (thesis §5.2.3-5.2.4,
// the total overlap between all body pairs), from the recorded poses and geometry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/metrics/overlap.hpp"
#include "io/run_reader.hpp"

namespace pegsim::cli {

struct FrameOverlap {
  std::int64_t frame = 0;
  double time = 0.0;
  OverlapTotals totals;
  bool planar = false;  // a 2D run: the totals are areas, m^2
};

// The unit of an overlap figure: "m^2" in a planar (2D) model, where it is an area, else "m^3".
const char* overlap_unit(bool planar);

// The largest overlap of any one body pair over a run (the `run` summary, `info`): contact
// models measure only enforced contacts' gaps, so bodies that pass through each other without
// a contact (two aligned cubes under LNC) show here and nowhere else. Frame 0, the initial
// state, is taken into the maximum but not counted as a step.
struct PairOverlapRecord {
  bool planar = false;               // areas (m^2), else volumes (m^3)
  double max_pair = 0.0;             // the largest single pair's overlap
  std::int64_t step = 0;             // where it was first reached (0: the initial state)
  double time = 0.0;                 // s
  long long steps = 0;               // steps seen (frames after the first)
  long long steps_with_overlap = 0;  // steps ending with some measured pair overlapping
  int max_unmeasured = 0;            // most interpenetrating pairs without an exact formula
                                     // (sphere-polytope, circle-polygon) in one frame
  // The total over all pairs (the thesis' overlap error, §5.2.3): summed over the steps (the
  // pours' per-trial error is total_sum / steps) and its largest after a step.
  double total_sum = 0.0, max_total = 0.0;

  // The totals (metrics/overlap.hpp) of the state after `step` (0: the initial state).
  void add(std::int64_t step, double time, const OverlapTotals& totals);
};

nlohmann::json overlap_json(const PairOverlapRecord& r);
// "max overlap      9.9e-01 m^3 (one body pair) at step 50 (t = 0.5 s); 48 of 100 steps with
// overlap" and, when some pair was not measured, a second line saying so; each line starts
// with `indent` and the label padded to `label_width`.
std::string overlap_lines(const PairOverlapRecord& r, const std::string& indent, int label_width);

// Every frame's exact overlap (metrics/overlap.hpp), in frame order.
std::vector<FrameOverlap> run_overlap(const RunReader& reader);
// The same, reduced to the largest pair's overlap (for `info`).
PairOverlapRecord run_pair_overlap(const RunReader& reader);

// Prints the summary (largest total and its frame, mean, pairs not measured) and, unless
// `csv` is given, one line per frame; with `csv`, writes one row per frame there instead
// (std::runtime_error naming it if it exists and !overwrite, or cannot be written).
void report_overlap(std::ostream& out, const std::string& run_file,
                    const std::vector<FrameOverlap>& frames, const std::filesystem::path& csv,
                    bool overwrite);

}  // namespace pegsim::cli
