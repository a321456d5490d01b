// Step time of the pouring experiments (thesis §5.2.3 polygon_pour, §5.2.4 polyhedra_pour;
// issue 6) per contact model and solver: seed 0, h = 0.01, the scenes the experiments
// generate (src/cli/experiments/pour_scene.hpp). The counter solve_ms is the mean solve time
// per step (StepTimings::solve), the figure the issue compares with the thesis' 0.97 ms for
// PEG on polyhedra_pour (MATLAB + PATH).
#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <utility>

#include "cli/experiments/pour_scene.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

#include "bench_main.hpp"

namespace {

using namespace pegsim;

constexpr double kH = 0.01;
// polygon_pour pours a body every 0.25 s, polyhedra_pour every 0.5 s: from 2.5 s on, ten
// polygons or five polyhedra lie in the box and more keep falling onto them.
constexpr int kWarmupSteps = 250;

Scene pour(int dimension, const std::string& model) {
  cli::PourSetup setup =
      dimension == 2 ? cli::polygon_pour_setup(0, kH) : cli::polyhedra_pour_setup(0, kH);
  setup.contact_model = model;
  return parse_scene(cli::pour_scene(setup).dump(), "generated pour scene", ".");
}

// The state after the warm-up, with the experiments' own chain (lemke, then pgs), computed
// once per scene and model so that every solver times the same steps.
const State& warmed_up(int dimension, const std::string& model) {
  static std::map<std::pair<int, std::string>, State> cache;
  const auto key = std::make_pair(dimension, model);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Scene scene = pour(dimension, model);
  scene.settings.on_failure = FailurePolicy::Continue;
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int i = 0; i < kWarmupSteps; ++i) sim.step();
  return cache.emplace(key, sim.state()).first->second;
}

void step_pour(benchmark::State& bench, int dimension, const std::string& model,
               const std::string& solver) {
  Scene scene = pour(dimension, model);
  scene.settings.solver = solver;
  scene.settings.fallbacks.clear();
  // A step the solver leaves unsolved goes on with its best answer and is counted.
  scene.settings.on_failure = FailurePolicy::Continue;
  Simulator sim(scene.model, warmed_up(dimension, model), scene.settings);
  long long size = 0, unsolved = 0;
  double solve = 0.0;
  for (auto _ : bench) {
    const StepReport& r = sim.step();
    size += r.problem_size;
    solve += r.timings.solve;
    unsolved += r.problem_size > 0 && !r.solve.solved();
  }
  using benchmark::Counter;
  bench.counters["lcp_size"] = Counter(double(size), Counter::kAvgIterations);
  bench.counters["solve_ms"] = Counter(1e3 * solve, Counter::kAvgIterations);
  bench.counters["unsolved"] = double(unsolved);
}

}  // namespace

void pegsim::bench::register_all() {
  for (const int dimension : {2, 3})
    for (const char* model : {"sm", "peg", "lnc", "corrective"})
      for (const char* solver : {"lemke", "path", "pgs"}) {
        const std::string name = std::string(dimension == 2 ? "polygon_pour/" : "polyhedra_pour/") +
                                 model + "/" + solver;
        benchmark::RegisterBenchmark(name.c_str(), step_pour, dimension, std::string(model),
                                     std::string(solver))
            ->Unit(benchmark::kMillisecond)
            ->Iterations(std::string(solver) == "pgs" ? 20 : 100);  // from step 251 (2.5 s)
      }
}
