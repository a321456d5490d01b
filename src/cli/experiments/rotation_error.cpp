// Thesis §5.3, Fig. 5.24-5.25: the overlap error of one semi-implicit Stewart-Trinkle step.
// Two horizontal rectangles touch (the top one's bottom vertices on the bottom one's top
// edge); both turn at omega = 1 rad/s, no gravity, no friction. The contact normals stay +y,
// fixed at the start of the step, while the blocks turn by theta = omega h and slide: with the
// top block 1 m wide and the centres 0.5 m apart, the faces end 0.5 (1 - cos h) m^2 of area
// inside each other (the 3D form is tests/physics/test_rotation_error.cpp). The thesis prints
// the areas for h = 0.01 ... 0.5 with 1-3 significant digits. Beside it the same step under the
// geometrically implicit formulation (seed 001), which solves for the contact at the end of the
// step: its overlap is zero to rounding at every h.
#include <cmath>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/svg_chart.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/metrics/overlap.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

struct OneStep {
  double area = 0.0;         // overlap after the step, m^2
  double area_before = 0.0;  // at the start (touching: 0)
  int enforced = 0;          // contacts enforced
  double max_normal_impulse = 0.0;
  bool failed = false;
};

// Fig. 5.24: bottom block 2 x 0.5 m, top block 1 x 0.5 m on it, both at omega = 1 rad/s; the
// formulation the scene's default (Stewart-Trinkle) or `formulation`.
OneStep one_step(double h, const std::string& formulation = "") {
  json settings = {{"h", h}, {"gravity", {0.0, 0.0}}};
  if (!formulation.empty()) settings["formulation"] = formulation;
  const json scene = {{"dimension", 2},
                      {"settings", settings},
                      {"bodies",
                       {{{"name", "bottom"},
                         {"shape", {{"type", "rectangle"}, {"size", {2.0, 0.5}}}},
                         {"position", {0.0, 0.0}},
                         {"angular_velocity", 1.0},
                         {"mu", 0.0},
                         {"mass", 1.0}},
                        {{"name", "top"},
                         {"shape", {{"type", "rectangle"}, {"size", {1.0, 0.5}}}},
                         {"position", {0.0, 0.5}},
                         {"angular_velocity", 1.0},
                         {"mu", 0.0},
                         {"mass", 1.0}}}}};
  Scene s;
  try {
    s = parse_scene(scene.dump(), "rotation_error scene", ".");
  } catch (const SceneError& e) {
    throw ExperimentError(e.what());
  }
  Simulator sim(s.model, s.initial, s.settings);
  OneStep out;
  out.area_before = total_overlap(sim.model(), sim.state()).volume;
  const StepReport& r = sim.step();
  out.failed = r.failed;
  for (std::size_t i = 0; i < r.contacts.size(); ++i)
    if (r.enforced[i]) {
      ++out.enforced;
      out.max_normal_impulse = std::max(out.max_normal_impulse, std::fabs(r.normal_impulse[i]));
    }
  out.area = total_overlap(sim.model(), sim.state()).volume;
  return out;
}

json run_rotation_error(const ExperimentOptions& options) {
  // Fig. 5.25 (a)-(f).
  const std::vector<std::pair<double, double>> thesis = {
      {0.01, 0.000025}, {0.1, 0.0025}, {0.2, 0.01}, {0.3, 0.0223}, {0.4, 0.0395}, {0.5, 0.0612}};
  CsvTable csv({"h", "overlap_area", "predicted_0.5(1-cos h)", "thesis", "enforced_contacts",
                "max_normal_impulse", "overlap_area_geometrically_implicit"});
  Chart chart;
  chart.title = "Overlap after one step of two blocks turning at 1 rad/s (thesis Fig. 5.25)";
  chart.x.label = "h (s)";
  chart.y.label = "area of overlap (m^2)";
  ChartSeries measured, predicted, printed, implicit;
  implicit.label = "geometrically implicit";
  implicit.markers = true;
  measured.label = "measured";
  predicted.label = "0.5 (1 - cos h)";
  predicted.dashed = true;
  printed.label = "thesis Fig. 5.25";
  printed.markers = true;
  json table = json::array();
  double worst_prediction = 0.0, worst_implicit = 0.0;
  bool implicit_failed = false;
  // Every 0.01 s from 0.01 to 0.5 (the table's rows among them); the reduced form: the table.
  std::vector<double> hs;
  if (options.reduced)
    for (const auto& row : thesis) hs.push_back(row.first);
  else
    for (int k = 1; k <= 50; ++k) hs.push_back(0.01 * k);
  for (double h : hs) {
    const OneStep r = one_step(h);
    const OneStep end_of_step = one_step(h, "geometrically-implicit");
    worst_implicit = std::max(worst_implicit, end_of_step.area);
    implicit_failed = implicit_failed || end_of_step.failed;
    const double prediction = 0.5 * (1.0 - std::cos(h));
    worst_prediction = std::max(worst_prediction, std::fabs(r.area - prediction));
    std::string printed_value;
    for (const auto& [th, area] : thesis)
      if (std::fabs(th - h) < 1e-9) {
        printed_value = CsvTable::number(area);
        printed.x.push_back(h);
        printed.y.push_back(area);
        table.push_back({{"h", th},
                         {"measured", r.area},
                         {"thesis", area},
                         {"predicted", prediction},
                         {"enforced_contacts", r.enforced},
                         {"failed", r.failed},
                         {"geometrically_implicit", end_of_step.area}});
      }
    csv.add({CsvTable::number(h), CsvTable::number(r.area), CsvTable::number(prediction),
             printed_value, std::to_string(r.enforced), CsvTable::number(r.max_normal_impulse),
             end_of_step.failed ? "failed" : CsvTable::number(end_of_step.area)});
    implicit.x.push_back(h);
    implicit.y.push_back(end_of_step.area);
    measured.x.push_back(h);
    measured.y.push_back(r.area);
    predicted.x.push_back(h);
    predicted.y.push_back(prediction);
  }
  chart.series = {measured, predicted, printed, implicit};
  json summary;
  summary["thesis"] =
      "Fig. 5.25: area of overlap 0.000025, 0.0025, 0.01, 0.0223, 0.0395, 0.0612 "
      "for h = 0.01, 0.1, 0.2, 0.3, 0.4, 0.5 s";
  summary["table"] = table;
  summary["max_error_vs_0.5(1-cos h)"] = worst_prediction;
  summary["max_overlap_geometrically_implicit"] = worst_implicit;
  summary["geometrically_implicit_failed"] = implicit_failed;
  summary["files"] = {
      write_experiment_file(options, "rotation_error.csv", csv.text()).string(),
      write_experiment_file(options, "rotation_error.svg", chart_svg(chart)).string()};
  return summary;
}

}  // namespace

Experiment rotation_error_experiment() {
  return {"rotation_error", "thesis §5.3, Fig. 5.24-5.25",
          "one step of two touching blocks turning at 1 rad/s: overlap area vs h",
          run_rotation_error};
}

}  // namespace pegsim::cli
