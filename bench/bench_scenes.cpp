// Step time of the shipped benchmark scenes (stack10, pour20) per solver, and of the jointed
// scenes rolling_cart (four wheels on revolute joints rolling on the ground) and powerball_arm
// (six PD-controlled joints with joint correction); seed 001's examples under the
// geometrically implicit formulation.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

#include "bench_main.hpp"

namespace {

using namespace pegsim;

// Times steps of a scene with one solver, after `warmup` steps to reach its typical state
// (for pour20: bodies in the air vs. piled up change the cost; the step range is the argument),
// under the scene's formulation (`formulation` empty) or the one named.
void step_scene(benchmark::State& bench, const std::string& name, const std::string& solver,
                int warmup, const std::string& formulation) {
  Scene scene = load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes" / (name + ".json"));
  scene.settings.solver = solver;
  if (!formulation.empty() && !parse_formulation(formulation, scene.settings.formulation)) {
    bench.SkipWithError(("unknown formulation " + formulation).c_str());
    return;
  }
  // A step no solver answers would be retried from the same state; time the run as it goes on
  // with the best answer instead, and count such steps.
  scene.settings.on_failure = FailurePolicy::Continue;
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int i = 0; i < warmup; ++i) sim.step();
  long long contacts = 0, size = 0, failures = 0;
  StepTimings spent;  // per stage, summed over the timed steps
  // Wall time of each step: a pile's steps range from no pivot to hundreds, so the median says
  // what a typical step costs and the mean what a run costs.
  std::vector<double> step_seconds;
  step_seconds.reserve(static_cast<std::size_t>(bench.max_iterations));
  for (auto _ : bench) {
    const auto t0 = std::chrono::steady_clock::now();
    const StepReport& r = sim.step();
    step_seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    contacts += static_cast<long long>(r.contacts.size());
    size += r.problem_size;
    failures += r.problem_size > 0 && !r.solve.solved();  // steps that solved nothing are fine
    spent.detect += r.timings.detect;
    spent.formulate += r.timings.formulate;
    spent.solve += r.timings.solve;
    spent.integrate += r.timings.integrate;
  }
  // Where a step's time goes (wall, µs per step): the solve and the overhead around it.
  const auto per_step_us = [](double seconds) {
    return benchmark::Counter(1e6 * seconds, benchmark::Counter::kAvgIterations);
  };
  bench.counters["detect_us"] = per_step_us(spent.detect);
  bench.counters["formulate_us"] = per_step_us(spent.formulate);
  bench.counters["solve_us"] = per_step_us(spent.solve);
  bench.counters["integrate_us"] = per_step_us(spent.integrate);
  bench.counters["contacts"] =
      benchmark::Counter(double(contacts), benchmark::Counter::kAvgIterations);
  bench.counters["lcp_size"] = benchmark::Counter(double(size), benchmark::Counter::kAvgIterations);
  bench.counters["unsolved"] = double(failures);
  if (!step_seconds.empty()) {
    auto middle = step_seconds.begin() + step_seconds.size() / 2;
    std::nth_element(step_seconds.begin(), middle, step_seconds.end());
    bench.counters["median_step_us"] = 1e6 * *middle;
  }
}

}  // namespace

void pegsim::bench::register_all() {
  for (const char* solver : {"lemke", "pgs", "nncg"}) {
    benchmark::RegisterBenchmark((std::string("stack10/") + solver).c_str(), step_scene,
                                 std::string("stack10"), std::string(solver), 10, std::string())
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(300);
  }
  // pour20: the steps from 1.5 s to 4.5 s, once most cubes have landed.
  benchmark::RegisterBenchmark("pour20/lemke", step_scene, std::string("pour20"),
                               std::string("lemke"), 150, std::string())
      ->Unit(benchmark::kMicrosecond)
      ->Iterations(300);
  // rolling_cart from 1 s, once the cart rolls; powerball_arm over its first 3 s.
  benchmark::RegisterBenchmark("rolling_cart/lemke", step_scene, std::string("rolling_cart"),
                               std::string("lemke"), 100, std::string())
      ->Unit(benchmark::kMicrosecond)
      ->Iterations(300);
  // The same steps with the joints as free rows of an MCP (held sparse) for the PATH-style solver.
  benchmark::RegisterBenchmark("rolling_cart/mixed-lcp/path", step_scene,
                               std::string("rolling_cart"), std::string("path"), 100,
                               std::string("mixed-lcp"))
      ->Unit(benchmark::kMicrosecond)
      ->Iterations(300);
  benchmark::RegisterBenchmark("powerball_arm/lemke", step_scene, std::string("powerball_arm"),
                               std::string("lemke"), 0, std::string())
      ->Unit(benchmark::kMicrosecond)
      ->Iterations(300);
  // Seed 001's examples under the geometrically implicit formulation (its own solver): the
  // rolling disc, the sphere on two spheres over its first 3 s (both contacts), and the disc on
  // the quasi-rigid ground from 0.3 s (on the shell); Example 2 under Stewart-Trinkle beside it.
  for (const auto& [scene, warmup] : {std::pair<const char*, int>{"rolling_disc", 0},
                                      {"sphere_on_spheres", 0},
                                      {"quasi_rigid_disc", 3000}})
    benchmark::RegisterBenchmark((std::string(scene) + "/geometrically-implicit").c_str(),
                                 step_scene, std::string(scene), std::string("lemke"), warmup,
                                 std::string())
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(300);
  benchmark::RegisterBenchmark("sphere_on_spheres/stewart-trinkle/lemke", step_scene,
                               std::string("sphere_on_spheres"), std::string("lemke"), 0,
                               std::string("stewart-trinkle"))
      ->Unit(benchmark::kMicrosecond)
      ->Iterations(300);
  // The pile target of seed 001's issue: twenty spheres falling into a box and piling up, the
  // first 0.8 s (the implicit step stops later on this pile), under both formulations.
  for (const char* formulation : {"stewart-trinkle", "geometrically-implicit"})
    benchmark::RegisterBenchmark((std::string("sphere_pile/") + formulation).c_str(), step_scene,
                                 std::string("sphere_pile"), std::string("lemke"), 0,
                                 std::string(formulation))
        ->Unit(benchmark::kMicrosecond)
        ->Iterations(80);
}
