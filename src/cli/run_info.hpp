// `pegsim-cli info`: statistics of a recorded run, from its run file.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_overlap.hpp"
#include "io/run_reader.hpp"

namespace pegsim::cli {

struct RunFileStats {
  std::string scene;
  std::string program, created;
  std::int64_t frames = 0;  // frame 0 included
  std::int64_t bodies = 0;
  double h = 0.0;     // at the start of the run
  Settings settings;  // at the start of the run (formulation, contact model, ...)
  // Settings changed during the run (the frame each applies from), empty if they never did.
  std::vector<SettingsChange> settings_changes;
  double duration = 0.0;  // simulated time from the first frame to the last, s
  long long solves = 0;   // frames that solved an LCP (failed ones included)
  std::map<std::string, long long> answered_by;
  long long failures = 0, fallbacks = 0;
  double iterations_mean = 0.0;
  int iterations_max = 0;
  double residual_max = 0.0;  // over accepted answers
  // Accepted answers that were not solved to the tolerance (an iteration or time budget, or
  // on_failure continue): steps that went on approximately, with their largest residual.
  long long approximate = 0;
  double approximate_residual = 0.0;
  double contacts_mean = 0.0;  // per recorded step (frames after the first)
  long long contacts_max = 0;
  double max_penetration = 0.0;  // m, deepest enforced contact
  // The largest overlap of any body pair, from the recorded poses (also frame 0's).
  PairOverlapRecord overlap;
  // SM traps (thesis Fig. 5.13, 5.15): per recorded step; false/0 for files without them.
  bool has_sm_traps = false;
  long long sm_traps_total = 0, sm_traps_max = 0, sm_trap_steps = 0;  // steps with a trap
  double sm_traps_mean = 0.0;
};

// One setting that differs between two Settings: its scene-file name and both values (numbers,
// names, booleans; gravity and fallbacks as arrays).
struct SettingDifference {
  std::string name;
  nlohmann::json from, to;
};
// Every setting that differs from `before` to `after`, in the order of the scene format.
std::vector<SettingDifference> settings_differences(const Settings& before, const Settings& after);

RunFileStats run_file_stats(const RunReader& reader);
nlohmann::json stats_json(const RunFileStats& s);
void print_stats(std::ostream& out, const std::string& file, const RunFileStats& s);

}  // namespace pegsim::cli
