#include "cli/sweep/sweep_runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "cli/progress_bar.hpp"
#include "cli/sweep/sweep_results.hpp"
#include "cli/sweep/sweep_store.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;

bool parse_int(const std::string& text, long long& out) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  out = std::stoll(text);
  return true;
}

std::string run_file_name(long long point) {
  char name[40];
  std::snprintf(name, sizeof name, "point-%08lld.h5", point);
  return name;
}

void draw(const SweepRunOptions& o, long long done, long long total, double wall, int& last_tenth) {
  if (o.progress_bar) {
    draw_progress_bar("point", done, total, wall);
    return;
  }
  const int tenth = total ? int(10 * done / total) : 10;
  if (!o.progress_lines || tenth == last_tenth) return;
  last_tenth = tenth;
  std::fprintf(stderr, "sweep: %lld of %lld points (%d %%), %.1f s\n", done, total, 10 * tenth,
               wall);
}

}  // namespace

int worker_count(std::optional<long long> requested) {
  if (requested) {
    if (*requested > 1024)
      throw SweepError("--jobs: expected at most 1024 workers, got " + std::to_string(*requested));
    return int(*requested);
  }
  if (const char* cpus = std::getenv("SLURM_CPUS_PER_TASK")) {
    const int n = std::atoi(cpus);
    if (n >= 1) return n;
  }
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

bool shard_from(const std::string& option, int& shard, int& shards) {
  long long i = 0, n = 0;
  if (!option.empty()) {
    const std::size_t slash = option.find('/');
    if (slash == std::string::npos || !parse_int(option.substr(0, slash), i) ||
        !parse_int(option.substr(slash + 1), n) || n < 1 || i >= n)
      throw SweepError("--shard: expected i/N with 0 <= i < N, got '" + option + "'");
  } else {
    const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
    const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
    if (!id || !count) return false;
    long long min = 0;
    if (const char* m = std::getenv("SLURM_ARRAY_TASK_MIN"); m && !parse_int(m, min))
      throw SweepError(std::string("SLURM_ARRAY_TASK_MIN: expected an integer, got '") + m + "'");
    if (!parse_int(id, i) || !parse_int(count, n) || n < 1 || i < min || i - min >= n)
      throw SweepError(std::string("SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT: expected a task "
                                   "of 0..COUNT-1 (from SLURM_ARRAY_TASK_MIN), got '") +
                       id + "' of '" + count + "'");
    i -= min;
  }
  shard = int(i);
  shards = int(n);
  return true;
}

SweepRunReport run_sweep(const Sweep& sweep, const SweepRunOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const SweepBase base = load_sweep_base(sweep);
  const int dimension = check_sweep_points(sweep, base);
  const SweepManifest manifest = make_manifest(sweep, base, dimension);
  open_sweep_dir(options.out, manifest);
  const std::string tag = options.shards > 1 ? "shard-" + std::to_string(options.shard) + "-of-" +
                                                   std::to_string(options.shards)
                                             : "local";
  PointLog point_log(options.out, tag);
  std::map<long long, PointResult> done = read_points(options.out, manifest.columns.size());

  SweepRunReport report;
  report.points = sweep.point_count();
  // This shard's points not yet done, the longest (most steps) first: a long point started
  // last would leave the other workers idle at the end.
  std::vector<std::pair<double, long long>> todo;
  for (long long k = options.shard; k < report.points; k += options.shards) {
    ++report.in_shard;
    if (done.count(k)) {
      ++report.resumed;
      continue;
    }
    todo.emplace_back(point_cost(point_scene_json(sweep, base, sweep_point(sweep, k))), k);
  }
  std::stable_sort(todo.begin(), todo.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  if (sweep.keep_runs) fs::create_directories(options.out / "runs");

  std::atomic<std::size_t> next{0};
  std::atomic<bool> abandon{false};
  std::mutex mutex;
  std::condition_variable changed;
  long long finished = 0;
  int running = 0;
  std::string error;
  auto stop = [&] { return abandon.load() || (options.stop && options.stop()); };
  auto work = [&] {
    for (std::size_t i; !stop() && (i = next++) < todo.size();) {
      const long long k = todo[i].second;
      try {
        const fs::path run_file =
            sweep.keep_runs ? options.out / "runs" / run_file_name(k) : fs::path();
        std::optional<PointResult> r = run_point(sweep, base, k, run_file, stop);
        if (!r) break;
        std::lock_guard<std::mutex> lock(mutex);
        point_log.append(*r);
        report.busy += r->seconds;
        ++finished;
        done.emplace(k, std::move(*r));
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex);
        if (error.empty()) error = "point " + std::to_string(k) + ": " + e.what();
        abandon = true;
      }
      changed.notify_all();
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    changed.notify_all();
  };
  const int jobs =
      std::max(1, std::min<int>(options.jobs, int(std::max<std::size_t>(todo.size(), 1))));
  std::vector<std::thread> workers;
  running = jobs;
  for (int j = 0; j < jobs; ++j) workers.emplace_back(work);
  {
    std::unique_lock<std::mutex> lock(mutex);
    int last_tenth = -1;
    const long long total = report.in_shard;
    while (running > 0) {
      draw(options, report.resumed + finished, total, elapsed(), last_tenth);
      changed.wait_for(lock, std::chrono::milliseconds(200));
    }
    draw(options, report.resumed + finished, total, elapsed(), last_tenth);
    if (options.progress_bar) std::fputc('\n', stderr);
  }
  for (std::thread& w : workers) w.join();
  if (!error.empty()) throw SweepError(error);
  report.ran = finished;
  report.interrupted = report.resumed + finished < report.in_shard;
  // Other shards may have written into the same folder meanwhile.
  if (static_cast<long long>(done.size()) != report.points)
    done = read_points(options.out, manifest.columns.size());
  report.complete = static_cast<long long>(done.size()) == report.points;
  if (report.complete) report.files = write_sweep_results(sweep, manifest, done, options.out);
  report.wall = elapsed();
  return report;
}

}  // namespace pegsim::cli
