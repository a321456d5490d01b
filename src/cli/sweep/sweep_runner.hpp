// `pegsim-cli sweep`: runs a sweep's points (or one shard's) on local worker threads, longest
// first, appending each finished point to the folder's log; points already there are skipped,
// so an interrupted run resumes where it stopped. When the folder then holds every point of
// the sweep, it writes the results (sweep_results.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "cli/sweep/sweep_spec.hpp"

namespace pegsim::cli {

struct SweepRunOptions {
  std::filesystem::path out;
  int jobs = 1;                 // worker threads
  int shard = 0, shards = 1;    // run the points with index % shards == shard
  bool progress_bar = false;    // redraw a bar on stderr (a terminal)
  bool progress_lines = false;  // else a line on stderr per 10 % (a log file)
  std::function<bool()> stop;   // asked between steps: abandon the points under way
};

struct SweepRunReport {
  long long points = 0;    // in the whole sweep
  long long in_shard = 0;  // this shard's
  long long resumed = 0;   // of those, already in the folder
  long long ran = 0;       // run now
  double wall = 0.0;       // s
  double busy = 0.0;       // s: the points' own time, summed
  bool complete = false;   // the folder holds every point of the sweep (results written)
  bool interrupted = false;
  std::vector<std::filesystem::path> files;  // results written
};

SweepRunReport run_sweep(const Sweep& sweep, const SweepRunOptions& options);

// Worker threads: `requested` (at most 1024), else the CPUs Slurm gave the task
// (SLURM_CPUS_PER_TASK), else the machine's cores. Throws SweepError past 1024.
int worker_count(std::optional<long long> requested);

// `--shard i/N`, else SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT
// when both are set; false when neither gives one. Throws SweepError on a malformed value.
bool shard_from(const std::string& option, int& shard, int& shards);

}  // namespace pegsim::cli
