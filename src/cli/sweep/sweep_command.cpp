#include "cli/sweep/sweep_command.hpp"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "cli/args.hpp"
#include "cli/sweep/sweep_results.hpp"
#include "cli/sweep/sweep_runner.hpp"
#include "cli/sweep/sweep_slurm.hpp"
#include "cli/sweep/sweep_store.hpp"

namespace pegsim::cli {
namespace {

namespace fs = std::filesystem;

std::string file_list(const std::vector<fs::path>& files) {
  std::string s;
  for (const fs::path& f : files) s += (s.empty() ? "" : ", ") + f.string();
  return s;
}

fs::path out_folder(const Args& a, const char* command) {
  auto out = a.value("out");
  if (!out || out->empty()) throw UsageError(std::string(command) + ": expected --out DIR");
  return *out;
}

// `sweep SWEEP.json --list [--shard I/N]`: the points (index and parameter values, as CSV) after
// checking every value's scene, without running them.
int list(const Sweep& sweep, int shard, int shards, std::ostream& out) {
  check_sweep_points(sweep, load_sweep_base(sweep));
  out << "point";
  for (const SweepParameter& p : sweep.parameters) out << ',' << p.name;
  out << '\n';
  long long listed = 0;
  for (long long k = shard; k < sweep.point_count(); k += shards, ++listed) {
    out << k;
    for (const nlohmann::json& v : sweep_point(sweep, k).values)
      out << ',' << (v.is_string() ? v.get<std::string>() : v.dump());
    out << '\n';
  }
  std::cerr << sweep.name << ": " << listed << " of " << sweep.point_count() << " points\n";
  return 0;
}

int run(const std::vector<std::string>& argv, const std::function<bool()>& stop,
        std::ostream& out) {
  Args a(argv, {"quiet", "list"}, {"out", "jobs", "shard"});
  if (a.positional().size() != 1) throw UsageError("sweep: expected one sweep file");
  const Sweep sweep = load_sweep(a.positional()[0]);
  if (a.flag("list")) {
    int shard = 0, shards = 1;
    try {
      shard_from(a.value("shard").value_or(""), shard, shards);
    } catch (const SweepError& e) {
      throw UsageError(e.what());
    }
    return list(sweep, shard, shards, out);
  }
  SweepRunOptions o;
  o.out = out_folder(a, "sweep");
  try {
    o.jobs = worker_count(a.positive_integer("jobs"));
    shard_from(a.value("shard").value_or(""), o.shard, o.shards);
  } catch (const SweepError& e) {
    throw UsageError(e.what());
  }
  o.progress_bar = !a.flag("quiet") && isatty(STDERR_FILENO);
  o.progress_lines = !a.flag("quiet") && !o.progress_bar;
  o.stop = stop;
  const SweepRunReport r = run_sweep(sweep, o);
  const std::string shard =
      o.shards > 1 ? " shard " + std::to_string(o.shard) + "/" + std::to_string(o.shards) : "";
  out << "sweep " << sweep.name << shard << ": " << r.in_shard << " of " << r.points
      << " points; ran " << r.ran << " (" << r.resumed << " done before) on " << o.jobs
      << (o.jobs == 1 ? " worker" : " workers") << " in " << r.wall << " s";
  // The workers' time the runs took; the rest is the machinery (checking, ordering, logging,
  // the results) and, with several workers, the wait for the last points.
  const double workers_time = r.wall * std::min<double>(o.jobs, double(r.ran));
  if (r.ran > 0 && workers_time > 0)
    out << "; the runs took " << r.busy << " s, "
        << std::lround(100.0 * std::min(1.0, r.busy / workers_time)) << " % of the workers' time";
  out << '\n';
  if (r.interrupted) {
    out << "interrupted: " << r.in_shard - r.resumed - r.ran
        << " points left; the same command resumes\n";
    return 130;
  }
  if (!r.complete) {
    out << o.out.string() << " holds this shard's points; once every shard is done, `pegsim-cli "
        << "sweep merge " << o.out.string() << " --out " << o.out.string()
        << "` writes the results\n";
    return 0;
  }
  out << "wrote " << file_list(r.files) << '\n';
  return 0;
}

int merge(const std::vector<std::string>& argv, std::ostream& out) {
  Args a(argv, {}, {"out"});
  if (a.positional().empty()) throw UsageError("sweep merge: expected one or more sweep folders");
  const fs::path target = out_folder(a, "sweep merge");
  const SweepManifest manifest = read_manifest(a.positional()[0]);
  std::map<long long, PointResult> points;
  for (const std::string& dir : a.positional()) {
    const SweepManifest m = read_manifest(dir);
    if (m.fingerprint != manifest.fingerprint)
      throw SweepError(dir + ": holds another sweep than " + a.positional()[0] + " (fingerprints " +
                       m.fingerprint + " and " + manifest.fingerprint + ")");
    for (auto& [k, r] : read_points(dir, manifest.columns.size())) points.emplace(k, r);
  }
  const Sweep sweep = manifest_sweep(manifest);
  if (static_cast<long long>(points.size()) != manifest.points) {
    std::string missing;
    int listed = 0;
    for (long long k = 0; k < manifest.points && listed < 8; ++k)
      if (!points.count(k)) {
        missing += (listed++ ? ", " : "") + std::to_string(k);
      }
    throw SweepError(
        "sweep merge: the folders hold " + std::to_string(points.size()) + " of " +
        std::to_string(manifest.points) + " points (missing " + missing +
        (manifest.points - static_cast<long long>(points.size()) > listed ? ", ..." : "") +
        "): run the missing shards first (they resume)");
  }
  // The merged folder is a sweep folder like the others: every point in its logs (those it
  // lacks appended to points/merged.jsonl), then its results.
  open_sweep_dir(target, manifest);
  const std::map<long long, PointResult> there = read_points(target, manifest.columns.size());
  if (there.size() != points.size()) {
    PointLog log(target, "merged");
    for (const auto& [k, r] : points)
      if (!there.count(k)) log.append(r);
  }
  const std::vector<fs::path> files = write_sweep_results(sweep, manifest, points, target);
  out << "sweep " << sweep.name << ": merged " << points.size() << " points from "
      << a.positional().size() << (a.positional().size() == 1 ? " folder" : " folders")
      << "\nwrote " << file_list(files) << '\n';
  return 0;
}

int slurm(const std::vector<std::string>& argv, std::ostream& out) {
  Args a(argv, {}, {"out", "array", "cpus-per-task", "partition", "time"});
  if (a.positional().size() != 1) throw UsageError("sweep slurm: expected one sweep file");
  SlurmOptions o;
  o.sweep_file = fs::absolute(a.positional()[0]);
  o.out = fs::absolute(out_folder(a, "sweep slurm"));
  const auto tasks = a.positive_integer("array");
  if (!tasks) throw UsageError("sweep slurm: expected --array N (the number of shards)");
  if (*tasks > 100000) throw UsageError("--array: expected at most 100000 tasks");
  o.tasks = int(*tasks);
  o.cpus_per_task = int(a.positive_integer("cpus-per-task").value_or(1));
  o.partition = a.value("partition").value_or("");
  o.time_limit = a.value("time").value_or("");
  for (const std::string& v : {o.partition, o.time_limit})
    if (v.find_first_of(" \t\n'\"\\$`;") != std::string::npos)
      throw UsageError("sweep slurm: --partition and --time take one word, got '" + v + "'");
  std::error_code ec;
  o.program = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw UsageError("sweep slurm: cannot find this program's own path");
  // The sweep is checked, and its folder made, before anything is submitted.
  const Sweep sweep = load_sweep(o.sweep_file);
  const SweepBase base = load_sweep_base(sweep);
  if (o.tasks > sweep.point_count())
    throw UsageError("sweep slurm: --array " + std::to_string(o.tasks) +
                     " is more shards than the " + std::to_string(sweep.point_count()) + " points");
  const int dimension = check_sweep_points(sweep, base);
  open_sweep_dir(o.out, make_manifest(sweep, base, dimension));
  const std::vector<fs::path> files = write_slurm_scripts(o);
  out << "sweep " << sweep.name << ": " << sweep.point_count() << " points in " << o.tasks
      << " shards\nwrote " << file_list(files) << "\nsubmit with: bash "
      << (o.out / "slurm" / "submit.sh").string() << '\n';
  return 0;
}

}  // namespace

int sweep_command(const std::vector<std::string>& argv, const std::function<bool()>& stop,
                  std::ostream& out) {
  if (!argv.empty() && argv[0] == "merge")
    return merge(std::vector<std::string>(argv.begin() + 1, argv.end()), out);
  if (!argv.empty() && argv[0] == "slurm")
    return slurm(std::vector<std::string>(argv.begin() + 1, argv.end()), out);
  return run(argv, stop, out);
}

}  // namespace pegsim::cli
