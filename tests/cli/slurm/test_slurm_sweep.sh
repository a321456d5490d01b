#!/usr/bin/env bash
# test_slurm_sweep.sh PEGSIM_CLI: the cluster path for real. Starts a one-node Slurm cluster
# (one_node_cluster.sh), writes a sweep's batch scripts with `pegsim-cli sweep slurm --array 4`,
# submits them with the generated submit.sh, waits for the array job and the merge job that
# depends on it, and checks that the merged results are the bytes a local run of the same
# sweep writes. Exits 77 (skipped, with the reason) where the daemons cannot run.
set -euo pipefail
cli=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
# A short folder: munge's socket path must stay under the unix socket limit.
work=$(mktemp -d /tmp/pegsim-slurm-XXXXXX)
cluster="$work/c"
mkdir -p "$cluster"
cleanup() {
  "$here/one_node_cluster.sh" stop "$cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# Eight points of a small polygon pour: two models, two step sizes, two seeds.
cat >"$work/sweep.json" <<'JSON'
{
  "name": "slurm_pour",
  "generator": {"name": "polygon_pour", "bodies": 6, "duration": 1.5},
  "stop": {"speed_above": 100, "below_static": true},
  "parameters": [
    {"name": "model", "set": "settings.contact_model", "values": ["sm", "peg"]},
    {"name": "h", "set": "settings.h", "values": [0.008, 0.016]},
    {"name": "seed", "set": "seed", "range": {"from": 0, "to": 1}}
  ],
  "metrics": ["mean_overlap", "sm_trap_steps", "max_problem_size", {"final_pose": "polygon0"}]
}
JSON

env_line=$("$here/one_node_cluster.sh" start "$cluster") || exit $?
eval "$env_line"
echo "cluster up: $SLURM_CONF"

"$cli" sweep "$work/sweep.json" --out "$work/local" --jobs 2 --quiet
"$cli" sweep slurm "$work/sweep.json" --array 4 --out "$work/cluster"
(cd "$work" && bash "$work/cluster/slurm/submit.sh")

# The merge job writes results.csv last of all; wait for it and for the queue to empty.
for _ in $(seq 1 240); do
  if [[ -f $work/cluster/results.csv ]] && [[ -z $(squeue -h 2>/dev/null) ]]; then break; fi
  sleep 0.5
done
squeue -h || true
for log in "$work"/cluster/slurm/*.log; do
  echo "--- $log"
  cat "$log"
done
[[ -f $work/cluster/results.csv ]] || { echo "FAIL: the merge job wrote no results in 120 s"; exit 1; }
shards=$(ls "$work"/cluster/points/shard-*-of-4.jsonl | wc -l)
[[ $shards == 4 ]] || { echo "FAIL: $shards shard logs, expected 4"; exit 1; }
for f in results.csv results.h5 mean_overlap_vs_h_by_model.svg; do
  cmp "$work/local/$f" "$work/cluster/$f" || { echo "FAIL: $f differs from the local run's"; exit 1; }
done
echo "the merged results of 4 Slurm shards equal the local run's: $(($(wc -l <"$work/cluster/results.csv") - 1)) points"
echo "1 passed, 0 failed"
