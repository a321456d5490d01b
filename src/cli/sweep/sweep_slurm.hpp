// `pegsim-cli sweep slurm`: the batch scripts that run a sweep on a Slurm cluster: an array job
// of N tasks, each running one shard (`pegsim-cli sweep --shard` reads SLURM_ARRAY_TASK_ID
// and SLURM_ARRAY_TASK_COUNT) into one folder on the shared file system, and a merge job that
// depends on the whole array and writes the results; submit.sh submits both.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pegsim::cli {

struct SlurmOptions {
  std::filesystem::path sweep_file;  // absolute
  std::filesystem::path out;         // the sweep's folder, absolute
  std::filesystem::path program;     // pegsim-cli, absolute
  int tasks = 1;                     // array tasks (shards)
  int cpus_per_task = 1;             // each shard's --jobs
  std::string partition;             // empty: the cluster's default
  std::string time_limit;            // empty: the partition's default
};

// The text of the array job, the merge job and the submit script.
std::string slurm_array_script(const SlurmOptions& o);
std::string slurm_merge_script(const SlurmOptions& o);
std::string slurm_submit_script(const SlurmOptions& o);

// Writes <out>/slurm/{sweep.sbatch, merge.sbatch, submit.sh}; returns them.
std::vector<std::filesystem::path> write_slurm_scripts(const SlurmOptions& o);

}  // namespace pegsim::cli
