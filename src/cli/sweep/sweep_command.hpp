// `pegsim-cli sweep`: run a sweep (or a shard of it), `sweep merge` shards' folders, `sweep
// slurm` write the batch scripts for a cluster (docs/sweeps.md, docs/cli.md).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace pegsim::cli {

// `argv`: the arguments after "sweep". `stop`: whether SIGINT/SIGTERM arrived. Returns the exit
// status; throws UsageError on bad arguments and SweepError on bad sweep input.
int sweep_command(const std::vector<std::string>& argv, const std::function<bool()>& stop,
                  std::ostream& out);

}  // namespace pegsim::cli
