// Thesis §5.2.3 (box of polygons, Fig. 5.10-5.13) and §5.2.4 (box of polyhedra, Fig.
// 5.14-5.16; journal paper Fig. 20-25): random convex bodies poured into a container, ten
// seeds for each of 16 step sizes, per contact model. Per trial the overlap error is the mean
// over the steps of the total overlap (area in 2D, volume in 3D) at the end of each step; per
// model and step size the figure gives its median and quartiles over the seeds, as Fig. 5.10b.
// The trials run as a parameter sweep (docs/sweeps.md): on every core, and resumable.
#include <algorithm>
#include <cmath>
#include <map>

#include "cli/experiments/contact_model_choice.hpp"
#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/experiments/pour_trial.hpp"
#include "cli/experiments/quartiles.hpp"
#include "cli/svg_chart.hpp"
#include "cli/sweep/sweep_runner.hpp"
#include "cli/sweep/sweep_store.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

struct PourPlan {
  std::string name;
  int dimension;
  std::vector<std::uint64_t> seeds;
  std::vector<double> step_sizes;
  double example_h;  // the step size of the per-step figure (Fig. 5.13, 5.15: h = 0.01)
  PourSetup (*setup)(std::uint64_t, double);
  int bodies;       // 0: the thesis' count
  double duration;  // 0: the thesis' 5 s
};

// The trial CSV's columns after model, seed and h: the sweep's metric columns (docs/sweeps.md)
// under the names this experiment's files have always used.
const std::vector<std::pair<std::string, std::string>> kTrialColumns = {
    {"finished", "finished"},
    {"steps", "steps"},
    {"end_time", "end_time"},
    {"mean_overlap", "mean_overlap"},
    {"max_overlap", "max_overlap"},
    {"mean_sm_traps", "mean_sm_traps"},
    {"max_sm_traps", "max_sm_traps"},
    {"steps_with_sm_traps", "sm_trap_steps"},
    {"mean_contacts", "mean_contacts"},
    {"mean_problem_size", "mean_problem_size"},
    {"mean_solve_ms", "solve_ms"},
    {"max_solve_ms", "max_solve_ms"},
    {"steps_without_x", "dropped_cross_steps"},
    {"steps_x_energy", "cross_energy_steps"},
    {"x_energy_ratio_kept", "cross_energy_ratio_kept"},
    {"x_energy_ratio_refused", "cross_energy_ratio_refused"},
    {"max_speed", "max_speed"},
    {"steps_primaries_moved", "primaries_moved_steps"},
    {"steps_primaries_unresolved", "primaries_unresolved_steps"}};

// The plan's grid as a sweep: the generator of the plan's scenes, the thesis' stop rules (a
// body faster than kExplodedSpeed, or below the box), models x step sizes x seeds.
json pour_sweep(const PourPlan& plan, const ExperimentOptions& options,
                const std::vector<std::string>& models) {
  json generator = {{"name", plan.name}};
  if (plan.bodies > 0) generator["bodies"] = plan.bodies;
  if (plan.duration > 0) generator["duration"] = plan.duration;
  json metrics = json::array();
  for (const auto& [column, figure] : kTrialColumns)
    if (figure != "finished" && figure != "steps" && figure != "end_time")
      metrics.push_back(figure);
  return {{"name", plan.name},
          {"generator", generator},
          {"stop", {{"speed_above", kExplodedSpeed}, {"below_static", true}}},
          {"parameters",
           {{{"name", "model"}, {"set", "settings.contact_model"}, {"values", models}},
            {{"name", "h"}, {"set", "settings.h"}, {"values", plan.step_sizes}},
            {{"name", "seed"}, {"set", "seed"}, {"values", plan.seeds}},
            {{"name", "primaries"},
             {"set", "settings.primaries"},
             {"values", {to_string(options.primaries)}}}}},
          {"metrics", metrics},
          {"plots", json::array()}};
}

// Runs the plan's trials as a sweep in <out>/<name>_points (resumed when an earlier run was
// interrupted; started anew under --force) and returns every point's result in index order.
std::vector<PointResult> run_trials(const PourPlan& plan, const ExperimentOptions& options,
                                    const std::vector<std::string>& models,
                                    std::vector<std::string>& columns) {
  const Sweep sweep = parse_sweep(pour_sweep(plan, options, models).dump(), "");
  const std::filesystem::path folder = options.out_dir / (plan.name + "_points");
  if (options.force) std::filesystem::remove_all(folder);
  SweepRunOptions o;
  o.out = folder;
  o.jobs = options.jobs;
  run_sweep(sweep, o);
  const SweepManifest manifest = read_manifest(folder);
  columns = manifest.columns;
  std::vector<PointResult> results;
  for (auto& [index, r] : read_points(folder, columns.size())) results.push_back(std::move(r));
  if (static_cast<long long>(results.size()) != sweep.point_count())
    throw ExperimentError(plan.name + ": " + folder.string() + " holds " +
                          std::to_string(results.size()) + " of " +
                          std::to_string(sweep.point_count()) + " trials");
  return results;
}

json run_pour(const PourPlan& plan, const ExperimentOptions& options, const json& thesis) {
  const bool planar = plan.dimension == 2;
  const char* unit = planar ? "m^2" : "m^3";
  std::vector<std::string> header = {"model", "seed", "h"};
  for (const auto& [column, figure] : kTrialColumns) header.push_back(column);
  header.push_back("failure");
  CsvTable trials(header);
  CsvTable steps(
      {"model", "step", "time", "contacts", "sm_traps", "problem_size", "overlap", "solve_ms"});
  Chart overlap_chart, traps_chart, solve_chart;
  overlap_chart.title = planar ? "Area of overlap error vs step size (thesis Fig. 5.10b)"
                               : "Volume of overlap error vs step size (thesis Fig. 5.14b)";
  overlap_chart.x.label = "h (s)";
  overlap_chart.y.label = std::string("mean total overlap per step (") + unit + "), median, Q1-Q3";
  traps_chart.title = std::string("Contacts and SM traps per step, h = ") +
                      CsvTable::number(plan.example_h) + " s (thesis Fig. " +
                      (planar ? "5.13)" : "5.15)");
  traps_chart.x.label = "time (s)";
  traps_chart.y.label = "count";
  solve_chart.title = "Solve time per step vs step size (thesis Fig. 5.16)";
  solve_chart.x.label = "h (s)";
  solve_chart.y.label = "mean solve time per step (ms), median over seeds";

  json summary;
  summary["thesis"] = thesis;
  summary["metric"] = std::string("per trial: the mean over its steps of the total overlap (") +
                      unit + ") of all body pairs at the end of each step; per step size: " +
                      "median, Q1 and Q3 over the seeds (trials that stopped early count up to " +
                      "their last step)";
  summary["seeds"] = plan.seeds;
  summary["step_sizes"] = plan.step_sizes;
  const std::vector<std::string> models = chosen_models(options.models);
  std::vector<std::string> columns;
  const std::vector<PointResult> results = run_trials(plan, options, models, columns);
  auto at = [&](const PointResult& r, const std::string& figure) {
    return r
        .values[std::size_t(std::find(columns.begin(), columns.end(), figure) - columns.begin())];
  };
  std::size_t next = 0;  // the sweep's points run model by model, h by h, seed by seed
  for (const std::string& model : models) {
    ChartSeries overlap_series, solve_series, contacts, traps;
    overlap_series.label = solve_series.label = model;
    overlap_series.markers = solve_series.markers = true;
    contacts.label = model + ": contacts";
    contacts.dashed = true;
    traps.label = model + ": SM traps";
    json by_h = json::array(), failures = json::array();
    int finished_total = 0, trial_total = 0;
    for (double h : plan.step_sizes) {
      std::vector<double> overlap, solve_ms, trap_rate;
      int finished = 0, without_x = 0, x_energy = 0, moved = 0;
      for (std::uint64_t seed : plan.seeds) {
        const PointResult& t = results[next++];
        const double steps_taken = at(t, "steps");
        overlap.push_back(at(t, "mean_overlap"));
        solve_ms.push_back(at(t, "solve_ms"));
        trap_rate.push_back(steps_taken > 0 ? at(t, "sm_trap_steps") / steps_taken : 0.0);
        const bool done = at(t, "finished") == 1.0;
        finished += done;
        without_x += at(t, "dropped_cross_steps") > 0;
        x_energy += at(t, "cross_energy_steps") > 0;
        moved += at(t, "primaries_moved_steps") > 0;
        if (!done)
          failures.push_back(
              {{"seed", seed}, {"h", h}, {"time", at(t, "end_time")}, {"why", t.stop_reason}});
        std::vector<std::string> row = {model, std::to_string(seed), CsvTable::number(h)};
        for (const auto& [column, figure] : kTrialColumns) {
          const double v = at(t, figure);
          row.push_back(v == std::floor(v) && std::abs(v) < 1e15
                            ? std::to_string(static_cast<long long>(v))
                            : CsvTable::number(v));
        }
        row.push_back("\"" + t.stop_reason + "\"");
        trials.add(row);
      }
      const Quartiles o = quartiles(overlap), ms = quartiles(solve_ms), tr = quartiles(trap_rate);
      by_h.push_back({{"h", h},
                      {"overlap_median", o.median},
                      {"overlap_q1", o.q1},
                      {"overlap_q3", o.q3},
                      {"solve_ms_median", ms.median},
                      {"steps_with_sm_traps_fraction_median", tr.median},
                      {"finished", finished},
                      {"trials_with_x_dropped", without_x},
                      {"trials_with_x_energy_refused", x_energy},
                      {"trials_with_primaries_moved", moved},
                      {"trials", plan.seeds.size()}});
      finished_total += finished;
      trial_total += static_cast<int>(plan.seeds.size());
      overlap_series.x.push_back(h);
      overlap_series.y.push_back(o.median);
      overlap_series.low.push_back(o.q1);
      overlap_series.high.push_back(o.q3);
      solve_series.x.push_back(h);
      solve_series.y.push_back(ms.median);
    }
    // The per-step figure (Fig. 5.13, 5.15): the first seed at the example step size, run
    // again keeping its steps (the same trial: the engine is deterministic).
    PourSetup setup = plan.setup(plan.seeds.front(), plan.example_h);
    if (plan.bodies > 0) setup.bodies = plan.bodies;
    if (plan.duration > 0) setup.duration = plan.duration;
    setup.contact_model = model;
    setup.primaries = options.primaries;
    const PourTrial example = run_pour_trial(setup, true);
    for (std::size_t k = 0; k < example.series.size(); ++k) {
      const PourStep& s = example.series[k];
      steps.add({model, std::to_string(k + 1), CsvTable::number(s.time), std::to_string(s.contacts),
                 std::to_string(s.sm_traps), std::to_string(s.problem_size),
                 CsvTable::number(s.overlap), CsvTable::number(1e3 * s.solve_seconds)});
      contacts.x.push_back(s.time);
      contacts.y.push_back(s.contacts);
      traps.x.push_back(s.time);
      traps.y.push_back(s.sm_traps);
    }
    summary["models"][model] = {{"by_h", by_h},
                                {"finished", finished_total},
                                {"trials", trial_total},
                                {"failures", failures}};
    overlap_chart.series.push_back(std::move(overlap_series));
    solve_chart.series.push_back(std::move(solve_series));
    if (!contacts.x.empty()) {
      traps_chart.series.push_back(std::move(contacts));
      traps_chart.series.push_back(std::move(traps));
    }
  }
  const std::string& n = plan.name;
  summary["files"] = {
      write_experiment_file(options, n + ".csv", trials.text()).string(),
      write_experiment_file(options, n + "_steps.csv", steps.text()).string(),
      write_experiment_file(options, n + ".svg", chart_svg(overlap_chart)).string(),
      write_experiment_file(options, n + "_traps.svg", chart_svg(traps_chart)).string(),
      write_experiment_file(options, n + "_solve.svg", chart_svg(solve_chart)).string()};
  summary["trials_folder"] = (options.out_dir / (n + "_points")).string();
  return summary;
}

std::vector<double> thesis_step_sizes() {
  std::vector<double> h;
  for (int k = 1; k <= 16; ++k) h.push_back(0.001 * k);
  return h;
}

std::vector<std::uint64_t> thesis_seeds() {
  std::vector<std::uint64_t> s;
  for (std::uint64_t k = 0; k < 10; ++k) s.push_back(k);
  return s;
}

json run_polygon_pour(const ExperimentOptions& options) {
  PourPlan plan{
      "polygon_pour", 2, thesis_seeds(), thesis_step_sizes(), 0.01, polygon_pour_setup, 0, 0.0};
  // Reduced (CI): one seed, three step sizes, 12 polygons over 3 s (about 1 s per model).
  if (options.reduced)
    plan = {"polygon_pour", 2, {0}, {0.004, 0.008, 0.016}, 0.008, polygon_pour_setup, 12, 3.0};
  const json thesis = {
      {"sm_and_lnc",
       "could not simulate the full 5 s (non-physical configurations, contact "
       "sets PATH could not solve, or explosions with Lemke)"},
      {"peg",
       "overlap error orders of magnitude below the corrective method's at every h, "
       "'imperceptible, set along the horizontal axis'"},
      {"corrective",
       "'Predictably, the corrective method generates larger error for larger "
       "time steps' (Fig. 5.10b); it bounces"},
      {"sm_traps", "PEG was necessary in about 25 % of time steps at h = 0.01 (journal, Fig. 22)"}};
  return run_pour(plan, options, thesis);
}

json run_polyhedra_pour(const ExperimentOptions& options) {
  PourPlan plan{
      "polyhedra_pour", 3, thesis_seeds(), thesis_step_sizes(), 0.01, polyhedra_pour_setup, 0, 0.0};
  // Reduced (CI): one seed, three step sizes, 4 polyhedra over 2 s.
  if (options.reduced)
    plan = {"polyhedra_pour", 3, {0}, {0.005, 0.01, 0.02}, 0.01, polyhedra_pour_setup, 4, 2.0};
  const json thesis = {
      {"overlap",
       "penetrations grow steadily with h under the standard model (journal Fig. 24) "
       "and the corrective method (Fig. 5.14b); PEG virtually eliminates them at "
       "every h"},
      {"mean_solve_ms", {{"corrective", 0.52342}, {"peg", 0.96736}}},
      {"solve_note", "MATLAB + PATH, h = 0.01, 5 s (thesis §5.2.4, Fig. 5.16)"}};
  return run_pour(plan, options, thesis);
}

}  // namespace

Experiment polygon_pour_experiment() {
  return {"polygon_pour", "thesis §5.2.3, Fig. 5.10-5.13; journal Fig. 20-22",
          "20 random polygons poured into a 2D box: overlap area vs h, SM traps, failed runs",
          run_polygon_pour,
          [](std::uint64_t seed, double h) { return pour_scene(polygon_pour_setup(seed, h)); }};
}

Experiment polyhedra_pour_experiment() {
  return {"polyhedra_pour", "thesis §5.2.4, Fig. 5.14-5.16; journal Fig. 23-25",
          "10 random polyhedra poured into a box of five blocks: overlap volume vs h, solve time",
          run_polyhedra_pour,
          [](std::uint64_t seed, double h) { return pour_scene(polyhedra_pour_setup(seed, h)); }};
}

}  // namespace pegsim::cli
