// Thesis §5.2.3 (box of polygons, Fig. 5.10-5.13) and §5.2.4 (box of polyhedra, Fig.
// 5.14-5.16; journal paper Fig. 20-25): random convex bodies poured into a container, ten
// seeds for each of 16 step sizes, per contact model. Per trial the overlap error is the mean
// over the steps of the total overlap (area in 2D, volume in 3D) at the end of each step; per
// model and step size the figure gives its median and quartiles over the seeds, as Fig. 5.10b.
#include <map>

#include "cli/experiments/contact_model_choice.hpp"
#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/experiments/pour_trial.hpp"
#include "cli/experiments/quartiles.hpp"
#include "cli/svg_chart.hpp"

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

json run_pour(const PourPlan& plan, const ExperimentOptions& options, const json& thesis) {
  const bool planar = plan.dimension == 2;
  const char* unit = planar ? "m^2" : "m^3";
  CsvTable trials({"model",
                   "seed",
                   "h",
                   "finished",
                   "steps",
                   "end_time",
                   "mean_overlap",
                   "max_overlap",
                   "mean_sm_traps",
                   "max_sm_traps",
                   "steps_with_sm_traps",
                   "mean_contacts",
                   "mean_problem_size",
                   "mean_solve_ms",
                   "max_solve_ms",
                   "steps_without_x",
                   "steps_x_energy",
                   "x_energy_ratio_kept",
                   "x_energy_ratio_refused",
                   "max_speed",
                   "steps_primaries_moved",
                   "steps_primaries_unresolved",
                   "failure"});
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
  for (const std::string& model : chosen_models(options.models)) {
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
        PourSetup setup = plan.setup(seed, h);
        if (plan.bodies > 0) setup.bodies = plan.bodies;
        if (plan.duration > 0) setup.duration = plan.duration;
        setup.contact_model = model;
        setup.primaries = options.primaries;
        const bool example = seed == plan.seeds.front() && h == plan.example_h;
        const PourTrial t = run_pour_trial(setup, example);
        overlap.push_back(t.mean_overlap);
        solve_ms.push_back(1e3 * t.mean_solve_seconds);
        trap_rate.push_back(t.steps ? double(t.steps_with_sm_traps) / t.steps : 0.0);
        finished += t.finished;
        without_x += t.steps_without_x > 0;
        x_energy += t.steps_x_energy > 0;
        moved += t.steps_primaries_moved > 0;
        if (!t.finished)
          failures.push_back({{"seed", seed}, {"h", h}, {"time", t.end_time}, {"why", t.failure}});
        trials.add({model,
                    std::to_string(seed),
                    CsvTable::number(h),
                    t.finished ? "1" : "0",
                    std::to_string(t.steps),
                    CsvTable::number(t.end_time),
                    CsvTable::number(t.mean_overlap),
                    CsvTable::number(t.max_overlap),
                    CsvTable::number(t.mean_sm_traps),
                    std::to_string(t.max_sm_traps),
                    std::to_string(t.steps_with_sm_traps),
                    CsvTable::number(t.mean_contacts),
                    CsvTable::number(t.mean_problem_size),
                    CsvTable::number(1e3 * t.mean_solve_seconds),
                    CsvTable::number(1e3 * t.max_solve_seconds),
                    std::to_string(t.steps_without_x),
                    std::to_string(t.steps_x_energy),
                    CsvTable::number(t.x_energy_ratio_kept),
                    CsvTable::number(t.x_energy_ratio_refused),
                    CsvTable::number(t.max_speed),
                    std::to_string(t.steps_primaries_moved),
                    std::to_string(t.steps_primaries_unresolved),
                    "\"" + t.failure + "\""});
        for (std::size_t k = 0; k < t.series.size(); ++k) {
          const PourStep& s = t.series[k];
          steps.add({model, std::to_string(k + 1), CsvTable::number(s.time),
                     std::to_string(s.contacts), std::to_string(s.sm_traps),
                     std::to_string(s.problem_size), CsvTable::number(s.overlap),
                     CsvTable::number(1e3 * s.solve_seconds)});
          contacts.x.push_back(s.time);
          contacts.y.push_back(s.contacts);
          traps.x.push_back(s.time);
          traps.y.push_back(s.sm_traps);
        }
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
