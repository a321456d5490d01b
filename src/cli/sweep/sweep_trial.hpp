// One point of a sweep run: its scene stepped for the run length under the sweep's stop rules,
// the metrics collected (the run summary's figures, final poses, predicates), and its run file
// kept when asked.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/sweep/sweep_point.hpp"

namespace pegsim::cli {

struct PointResult {
  long long point = 0;
  std::vector<double> values;  // Sweep::metric_columns, in order; NaN where undefined
  std::string stop_reason;     // empty when the run reached its end
  double seconds = 0.0;        // wall clock of the whole point (scene, run, metrics)
};

// Runs one point. `stop` is asked between steps: when it says so the point is abandoned
// (nullopt) and leaves nothing behind. `run_file`: where to record the run (written to
// "<file>.part" and renamed when complete), empty for none.
std::optional<PointResult> run_point(const Sweep& sweep, const SweepBase& base, long long index,
                                     const std::filesystem::path& run_file,
                                     const std::function<bool()>& stop);

}  // namespace pegsim::cli
