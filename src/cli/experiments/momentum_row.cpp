// Thesis §5.4 (Fig. 5.26-5.27): five blocks in a row, the first at 2 m/s, no gravity, no
// friction. Every impact of the Stewart-Trinkle step is inelastic, so each body's momentum
// changes in steps while the total stays 1.5 kg * 2 m/s = 3.0 kg m/s, and all bodies end at
// 3.0 / 3.67 = 0.8174 m/s.
#include <cmath>

#include "cli/experiments/contact_model_choice.hpp"
#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/svg_chart.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

nlohmann::json run_momentum_row(const ExperimentOptions& options) {
  const Scene scene = load_scene(options.scenes_dir / "momentum_row.json");
  double total_mass = 0.0, initial_momentum = 0.0;
  for (std::size_t i = 0; i < scene.model.bodies.size(); ++i) {
    const Body& b = scene.model.bodies[i];
    if (b.is_static) continue;
    total_mass += b.mass;
    initial_momentum += b.mass * scene.initial.bodies[i].velocity.x();
  }
  const double final_speed = initial_momentum / total_mass;

  std::vector<std::string> header{"model", "time", "total"};
  for (const Body& b : scene.model.bodies) header.push_back(b.name);
  CsvTable csv(header);
  nlohmann::json summary;
  summary["thesis"] = {{"total_momentum", 3.0}, {"final_speed", 3.0 / 3.67}};
  Chart chart;
  chart.title = "Momentum through inelastic impacts (thesis Fig. 5.27)";
  chart.x.label = "time (s)";
  chart.y.label = "momentum along x (kg m/s)";

  const int steps = static_cast<int>(std::lround(scene.duration / scene.settings.h));
  for (const std::string& model : chosen_models(options.models)) {
    Settings settings = scene.settings;
    use_contact_model(settings, model, options.primaries);
    Simulator sim(scene.model, scene.initial, settings);
    const std::size_t n = sim.model().bodies.size();
    std::vector<ChartSeries> per_body(n);
    ChartSeries total;
    total.label = model + ": total";
    total.dashed = true;
    double worst = 0.0;
    int failed = 0;
    auto record = [&] {
      const State& s = sim.state();
      double p_total = 0.0;
      std::vector<std::string> row{model, CsvTable::number(s.time), ""};
      for (std::size_t i = 0; i < n; ++i) {
        const Body& b = sim.model().bodies[i];
        const double p = b.is_static ? 0.0 : b.mass * s.bodies[i].velocity.x();
        p_total += p;
        row.push_back(CsvTable::number(p));
        per_body[i].x.push_back(s.time);
        per_body[i].y.push_back(p);
      }
      row[2] = CsvTable::number(p_total);
      csv.add(row);
      total.x.push_back(s.time);
      total.y.push_back(p_total);
      worst = std::max(worst, std::fabs(p_total - initial_momentum));
    };
    record();
    for (int k = 0; k < steps; ++k) {
      failed += sim.step().failed;
      record();
    }
    double speed_error = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      if (!sim.model().bodies[i].is_static)
        speed_error =
            std::max(speed_error, std::fabs(sim.state().bodies[i].velocity.x() - final_speed));
    summary["models"][model] = {{"max_total_momentum_error", worst},
                                {"max_final_speed_error", speed_error},
                                {"failed_steps", failed}};
    // The figure shows the bodies of the first model and every model's total.
    if (chart.series.empty())
      for (std::size_t i = 0; i < n; ++i) {
        per_body[i].label = sim.model().bodies[i].name;
        chart.series.push_back(std::move(per_body[i]));
      }
    chart.series.push_back(std::move(total));
  }
  summary["total_momentum"] = initial_momentum;
  summary["final_speed"] = final_speed;
  summary["files"] = {
      write_experiment_file(options, "momentum_row.csv", csv.text()).string(),
      write_experiment_file(options, "momentum_row.svg", chart_svg(chart)).string()};
  return summary;
}

}  // namespace

Experiment momentum_row_experiment() {
  return {"momentum_row", "thesis §5.4, Fig. 5.26-5.27",
          "five blocks in a row: total momentum through inelastic impacts, per contact model",
          run_momentum_row};
}

}  // namespace pegsim::cli
