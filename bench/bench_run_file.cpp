// Run files: the cost of recording stack10 (step time with and without a RunWriter, with and
// without its complementarity problems) and the
// time to read a random frame of a 100 000-frame file.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include <unistd.h>
#include <ctime>
#include <filesystem>
#include <random>

#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / ("pegsim-bench-" + std::to_string(::getpid()) + "-" + name);
}

Scene stack10() {
  return load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "stack10.json");
}

// Times what the stepping thread spends inside the writer's on_step (copying the report).
struct TimedObserver : StepObserver {
  StepObserver* inner = nullptr;
  double seconds = 0.0;
  std::vector<double> each;
  void on_step(const Model& m, const State& s, const StepReport& r) override {
    const auto t0 = std::chrono::steady_clock::now();
    inner->on_step(m, s, r);
    const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    seconds += dt;
    each.push_back(dt);
  }
};

// Step time of stack10 (Lemke), recording every step when `record` is set. The writer's
// background thread runs on the other core; what a step pays is the copy of its report.
void stack10_step(benchmark::State& bench, bool record, int level = 1, bool problems = false) {
  Scene scene = stack10();
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int i = 0; i < 10; ++i) sim.step();
  const fs::path file = temp_file("stack10.h5");
  std::optional<RunWriter> writer;
  TimedObserver timed;
  if (record) {
    RunWriterOptions o;
    o.overwrite = true;
    o.deflate_level = level;
    o.record_problems = problems;
    writer.emplace(file, make_run_header(scene, sim.model(), sim.settings(), "bench"), sim.state(),
                   o);
    timed.inner = &*writer;
    sim.add_observer(&timed);
  }
  // Process CPU (both threads) next to the benchmark's own figures, which are the main thread's.
  timespec c0{}, c1{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  for (auto _ : bench) sim.step();
  if (writer) writer->flush();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  const double cpu = double(c1.tv_sec - c0.tv_sec) + 1e-9 * double(c1.tv_nsec - c0.tv_nsec);
  bench.counters["process_cpu_us"] = 1e6 * cpu / double(bench.iterations());
  if (writer) {
    bench.counters["on_step_us"] = 1e6 * timed.seconds / double(bench.iterations());
    std::sort(timed.each.begin(), timed.each.end());
    bench.counters["on_step_p50_us"] = 1e6 * timed.each[timed.each.size() / 2];
    bench.counters["on_step_p99_us"] = 1e6 * timed.each[timed.each.size() * 99 / 100];
    bench.counters["on_step_max_us"] = 1e6 * timed.each.back();
  }
  if (writer) {
    writer->close();
    bench.counters["file_MB"] = double(fs::file_size(file)) / 1e6;
    fs::remove(file);
  }
}

// A synthetic 100 000-frame run: 11 bodies, 0-63 contacts and 1-2 solver attempts with
// residual histories of 0-30 entries per frame (stack10 has 220 contacts, pour20 up to ~60).
fs::path build_long_file(std::int64_t frames) {
  Scene scene = stack10();
  const fs::path file = temp_file("long.h5");
  RunWriterOptions o;
  o.overwrite = true;
  RunWriter writer(file, make_run_header(scene, scene.model, scene.settings, "bench"),
                   scene.initial, o);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  State s = scene.initial;
  StepReport r;
  for (std::int64_t k = 1; k < frames; ++k) {
    s.time += 0.01;
    s.step = k;
    for (BodyState& b : s.bodies) {
      b.position += Vec3(u(rng), u(rng), u(rng)) * 1e-3;
      b.velocity = Vec3(u(rng), u(rng), u(rng));
    }
    const int nc = static_cast<int>(rng() % 64);
    r.contacts.assign(nc, Contact{});
    r.enforced.assign(nc, 1);
    r.normal_impulse.assign(nc, 0.0);
    r.friction_impulse.assign(nc, Vec3::Zero());
    r.sliding.assign(nc, 0);
    for (int c = 0; c < nc; ++c) {
      r.contacts[c].body_a = c % 11;
      r.contacts[c].body_b = (c + 1) % 11;
      r.contacts[c].point_a = Vec3(u(rng), u(rng), u(rng));
      r.contacts[c].gap = u(rng) * 1e-3;
      r.normal_impulse[c] = u(rng);
    }
    r.problem_size = nc * 9;
    r.attempts.assign(1 + rng() % 2, SolveReport{});
    for (SolveReport& a : r.attempts) {
      a.solver = "lemke";
      a.status = SolveStatus::Solved;
      a.residual_history.assign(rng() % 31, 0.0);
      for (double& h : a.residual_history) h = std::abs(u(rng));
    }
    r.solve = r.attempts.back();
    writer.on_step(scene.model, s, r);
  }
  writer.close();
  return file;
}

void random_frame(benchmark::State& bench) {
  const std::int64_t frames = 100000;
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path file = build_long_file(frames);
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  {
    RunReader reader(file);
    if (reader.frame_count() != frames) bench.SkipWithError("wrong frame count");
    std::mt19937 rng(2);
    std::uniform_int_distribution<std::int64_t> pick(0, frames - 1);
    long long contacts = 0;
    for (auto _ : bench) {
      const RunFrame f = reader.frame(pick(rng));
      contacts += static_cast<long long>(f.contacts.size());
      benchmark::DoNotOptimize(f.bodies.data());
    }
    bench.counters["contacts"] =
        benchmark::Counter(double(contacts), benchmark::Counter::kAvgIterations);
    bench.counters["file_MB"] = double(fs::file_size(file)) / 1e6;
    bench.counters["write_s"] = build;
  }
  fs::remove(file);
}

}  // namespace

BENCHMARK_CAPTURE(stack10_step, plain, false)->Unit(benchmark::kMicrosecond)->Iterations(1000);
BENCHMARK_CAPTURE(stack10_step, recording_level0, true, 0)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(1000);
BENCHMARK_CAPTURE(stack10_step, recording, true)->Unit(benchmark::kMicrosecond)->Iterations(1000);
BENCHMARK_CAPTURE(stack10_step, recording_problems, true, 1, true)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(1000);
BENCHMARK(random_frame)->Unit(benchmark::kMicrosecond)->Iterations(2000);

BENCHMARK_MAIN();
