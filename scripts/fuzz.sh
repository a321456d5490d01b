#!/usr/bin/env bash
# Runs pegsim's libFuzzer targets (fuzz/) on the readers of user input, each for SECONDS
# (default 30), seeded with the shipped scenes, meshes, problem files and freshly recorded runs.
# Builds the sanitize preset (clang, ASan + UBSan) first. Prints one line per target: inputs
# tried, corpus size, and what was found; exits 1 if any target found a crash, a hang (an input
# taking > 10 s, a scene > 60 s), an out-of-memory or a leak, naming the input that reproduces it.
#
#   scripts/fuzz.sh            30 s per target (what CI runs)
#   scripts/fuzz.sh 600        10 minutes per target
#   scripts/fuzz.sh 60 scene   one target (scene, poly, run_file, sweep, siconos_lcp, siconos_mlcp,
#                              fclib)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
only=${2:-}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 2; }

scripts/install-deps.sh
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize

build=build/sanitize
work=$build/fuzz
mkdir -p "$work"
# An allocation no machine could hold fails as it does without the sanitizer (malloc returns
# null, new throws), so a reader that asks for one is tested on how it handles the failure.
export ASAN_OPTIONS=abort_on_error=1:detect_stack_use_after_return=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0

# Seeds: every shipped input of each kind (copied, so the fuzzers never write next to them).
seed() {  # seed TARGET FILES...
  local dir=$work/seeds/$1
  shift
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$@" "$dir/"
}
seed scene scenes/*.json tests/data/*.json
seed poly resources/meshes/*.poly tests/io/data/*.poly
seed sweep sweeps/*.json
seed siconos_lcp tests/data/siconos-lcp/*.dat
seed siconos_mlcp tests/data/siconos-mlcp/*.dat
rm -rf "$work/seeds/fclib" "$work/seeds/run_file"
mkdir -p "$work/seeds/fclib" "$work/seeds/run_file"
if [ -x "$build/fuzz/make_fclib_seeds" ]; then
  "$build/fuzz/make_fclib_seeds" "$work/seeds/fclib"
fi
# Short recorded runs: 3D with contacts, SM traps and problems; 2D; joints.
cli=$build/src/cli/pegsim-cli
"$cli" run scenes/hello_world.json --steps 12 --record-problems --quiet \
  --record "$work/seeds/run_file/hello_world.h5" >/dev/null
"$cli" run scenes/triangle_drop.json --steps 12 --quiet \
  --record "$work/seeds/run_file/triangle_drop.h5" >/dev/null
"$cli" run scenes/double_pendulum.json --steps 8 --quiet \
  --record "$work/seeds/run_file/double_pendulum.h5" >/dev/null

# Scene keys and values as a dictionary: mutations then speak the schema.
grep -oh '"[A-Za-z_0-9.-]*"' scenes/*.json | sort -u | sed 's/"/\\"/g; s/.*/"&"/' >"$work/scene.dict"
grep -oh '"[A-Za-z_0-9.-]*"' sweeps/*.json | sort -u | sed 's/"/\\"/g; s/.*/"&"/' >"$work/sweep.dict"

found=0
printf '%-14s %8s %12s %8s  %s\n' target seconds inputs corpus result
for target in scene poly run_file sweep siconos_lcp siconos_mlcp fclib; do
  [ -n "$only" ] && [ "$only" != "$target" ] && continue
  corpus=$work/corpus/$target
  artifacts=$work/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  dict=()
  [ "$target" = scene ] && dict=(-dict="$work/scene.dict")
  [ "$target" = sweep ] && dict=(-dict="$work/sweep.dict")
  # Memory is bounded by what is resident (2.5 GB); one allocation may reserve up to 64 GB,
  # as libhdf5 does untouched for the size a damaged header claims (a 4 GB realloc in
  # H5C_protect, refused later by its checksum).
  # The inputs earlier defects were found with are replayed first (tests/io/data/fuzz).
  dirs=("$corpus" "$work/seeds/$target")
  [ -d "tests/io/data/fuzz/$target" ] && dirs+=("tests/io/data/fuzz/$target")
  log=$work/$target.log
  status=0
  # A scene's three steps may run every solver to its cap (fuzz/fuzz_scene.cpp): up to 20 s
  # under the sanitizers, so a hang there is an input past a minute; elsewhere past 10 s.
  timeout=10
  [ "$target" = scene ] && timeout=60
  "$build/fuzz/fuzz_$target" "${dict[@]}" -max_total_time="$seconds" -timeout="$timeout" \
    -rss_limit_mb=2560 -malloc_limit_mb=65536 -seed=1 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "${dirs[@]}" >"$log" 2>&1 || status=$?
  inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  size=$(find "$corpus" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    result="nothing found"
  else
    found=1
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    kind=$(grep -m1 -oE 'ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer): [a-z-]+|runtime error|pegsim fuzz: .*' "$log" || echo "exit $status")
    result="FOUND: $kind; input: ${artifact:-none written}; log: $log"
  fi
  printf '%-14s %8s %12s %8s  %s\n' "$target" "$seconds" "${inputs:-?}" "$size" "$result"
done
exit $found
