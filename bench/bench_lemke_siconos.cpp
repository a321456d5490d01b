// Lemke's method (cold start) on each problem of Siconos' LCP test set: <problem> without the
// report's timing and history (SolverOptions::timed and history off: no clock read and no
// residual per pivot, as Siconos' driver keeps neither) and <problem>/timed with both, as a
// simulation step's solve has them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/solvers/lemke.hpp"
#include "io/siconos_lcp.hpp"

#include "bench_main.hpp"

namespace {

using namespace pegsim;

void solve_problem(benchmark::State& bench, const Lcp& lcp, bool timed) {
  LemkeSolver lemke;
  SolverOptions options;
  options.timed = timed;
  options.history = timed;
  SolveReport report;
  VecX z;
  for (auto _ : bench) {
    report = lemke.solve(lcp, z, options);
    benchmark::DoNotOptimize(z.data());
  }
  bench.counters["n"] = lcp.size();
  bench.counters["pivots"] = report.iterations;
  bench.counters["solved"] = report.solved();
}

}  // namespace

void pegsim::bench::register_all() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(PEGSIM_TESTDATA_DIR) / "siconos-lcp"))
    if (entry.path().extension() == ".dat") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files)
    for (bool timed : {false, true})
      benchmark::RegisterBenchmark((file.stem().string() + (timed ? "/timed" : "")).c_str(),
                                   solve_problem, read_siconos_lcp(file), timed)
          ->Unit(benchmark::kMicrosecond);
}
