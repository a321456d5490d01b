// Step time at scale: the peer engines' comparison scenes (bench/scenes: stacks of 5-40 cubes,
// piles of 10-80 cubes dropped into a 4 m box) under the default settings, exact, and under the
// interactive preset (<scene>/interactive). Per scene the whole run is timed step by step: the
// median and the slowest step (a pile's stalls), their ratio, the stages' shares, the pivots
// (or sweeps) a solve, the steps no solver answered and the deepest penetration of an enforced
// contact.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/settings_preset.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

#include "bench_main.hpp"

namespace {

using namespace pegsim;

void run_scene(benchmark::State& bench, const std::string& name, const std::string& preset) {
  Scene scene =
      load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "bench" / "scenes" / (name + ".json"));
  if (!preset.empty()) apply_preset(preset, scene.settings);
  Simulator sim(scene.model, scene.initial, scene.settings);
  StepTimings spent;
  double penetration = 0.0;
  std::vector<double> step_seconds;
  step_seconds.reserve(static_cast<std::size_t>(bench.max_iterations));
  long long solves = 0, pivots = 0, unsolved = 0, rows = 0;
  for (auto _ : bench) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepReport& r = sim.step();
    step_seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    spent.detect += r.timings.detect;
    spent.formulate += r.timings.formulate;
    spent.solve += r.timings.solve;
    penetration = std::max(penetration, r.max_penetration);
    if (r.problem_size == 0) continue;
    ++solves;
    pivots += r.solve.iterations;
    rows += r.problem_size;
    unsolved += !r.solve.solved() && !r.iteration_budget_spent;
  }
  const auto per_step_us = [](double seconds) {
    return benchmark::Counter(1e6 * seconds, benchmark::Counter::kAvgIterations);
  };
  bench.counters["detect_us"] = per_step_us(spent.detect);
  bench.counters["formulate_us"] = per_step_us(spent.formulate);
  bench.counters["solve_us"] = per_step_us(spent.solve);
  bench.counters["max_penetration_mm"] = 1e3 * penetration;
  std::vector<double> sorted = step_seconds;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[sorted.size() / 2], slowest = sorted.back();
  bench.counters["median_step_us"] = 1e6 * median;
  bench.counters["max_step_us"] = 1e6 * slowest;
  bench.counters["max_over_median"] = median > 0.0 ? slowest / median : 0.0;
  bench.counters["pivots_per_solve"] = solves ? double(pivots) / double(solves) : 0.0;
  bench.counters["rows_per_solve"] = solves ? double(rows) / double(solves) : 0.0;
  bench.counters["unsolved"] = double(unsolved);
}

}  // namespace

void pegsim::bench::register_all() {
  // Stacks stand for their 10 s; piles are timed over their 3 s (300 steps of h = 0.01 s).
  for (const auto& [name, steps] : {std::pair<const char*, int>{"stack5", 1000},
                                    {"stack10", 1000},
                                    {"stack20", 1000},
                                    {"stack40", 1000},
                                    {"pile10", 300},
                                    {"pile20", 300},
                                    {"pile40", 300},
                                    {"pile80", 300}})
    for (const std::string preset : {"", "interactive"})
      benchmark::RegisterBenchmark(
          (std::string(name) + (preset.empty() ? "" : "/" + preset)).c_str(), run_scene,
          std::string(name), preset)
          ->Unit(benchmark::kMicrosecond)
          ->Iterations(steps)
          ->Repetitions(1);
}
