#include "cli/sweep/sweep_slurm.hpp"

#include <sys/stat.h>

#include <fstream>

#include "cli/sweep/sweep_spec.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;

// A word for the shell, in single quotes.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string header(const SlurmOptions& o, const std::string& name, const std::string& log) {
  std::string s = "#!/bin/bash\n";
  s += "#SBATCH --job-name=" + name + "\n";
  s += "#SBATCH --output=" + (o.out / "slurm" / log).string() + "\n";
  s += "#SBATCH --chdir=" + o.out.string() + "\n";
  if (!o.partition.empty()) s += "#SBATCH --partition=" + o.partition + "\n";
  if (!o.time_limit.empty()) s += "#SBATCH --time=" + o.time_limit + "\n";
  return s;
}

}  // namespace

std::string slurm_array_script(const SlurmOptions& o) {
  std::string s = header(o, "pegsim-sweep", "shard-%a.log");
  s += "#SBATCH --array=0-" + std::to_string(o.tasks - 1) + "\n";
  s += "#SBATCH --ntasks=1\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(o.cpus_per_task) + "\n";
  s += "# One shard of the sweep: the points whose index % " + std::to_string(o.tasks) +
       " is this task's (pegsim-cli reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT).\n";
  s += "# A task that is requeued or run again skips the points its log already holds.\n";
  s += "set -euo pipefail\n";
  s += "exec " + quoted(o.program.string()) + " sweep " + quoted(o.sweep_file.string()) +
       " --out " + quoted(o.out.string()) + " --jobs " + std::to_string(o.cpus_per_task) +
       " --quiet\n";
  return s;
}

std::string slurm_merge_script(const SlurmOptions& o) {
  std::string s = header(o, "pegsim-sweep-merge", "merge.log");
  s += "#SBATCH --ntasks=1\n";
  s += "#SBATCH --cpus-per-task=1\n";
  s += "# After every shard: the results table and plots of the whole sweep.\n";
  s += "set -euo pipefail\n";
  s += "exec " + quoted(o.program.string()) + " sweep merge " + quoted(o.out.string()) + " --out " +
       quoted(o.out.string()) + "\n";
  return s;
}

std::string slurm_submit_script(const SlurmOptions& o) {
  const std::string dir = (o.out / "slurm").string();
  std::string s = "#!/bin/bash\n";
  s += "# Submits the sweep's array job and the merge job that waits for all of it.\n";
  s += "set -euo pipefail\n";
  s += "array=$(sbatch --parsable " + quoted(dir + "/sweep.sbatch") + ")\n";
  s += "array=${array%%;*}\n";
  s += "merge=$(sbatch --parsable --dependency=afterok:\"$array\" " +
       quoted(dir + "/merge.sbatch") + ")\n";
  s += "merge=${merge%%;*}\n";
  s += "echo \"submitted array job $array (" + std::to_string(o.tasks) +
       " shards) and merge job $merge\"\n";
  return s;
}

std::vector<fs::path> write_slurm_scripts(const SlurmOptions& o) {
  const fs::path dir = o.out / "slurm";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw SweepError(dir.string() + ": cannot be created: " + ec.message());
  const std::vector<std::pair<std::string, std::string>> files = {
      {"sweep.sbatch", slurm_array_script(o)},
      {"merge.sbatch", slurm_merge_script(o)},
      {"submit.sh", slurm_submit_script(o)}};
  std::vector<fs::path> written;
  for (const auto& [name, text] : files) {
    const fs::path file = dir / name;
    {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out.flush()) throw SweepError(file.string() + ": cannot be written");
    }
    ::chmod(file.c_str(), 0755);
    written.push_back(file);
  }
  return written;
}

}  // namespace pegsim::cli
