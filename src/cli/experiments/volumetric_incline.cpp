// Seed 002's Test 1 under the volumetric contact model (docs/volumetric-contact.md): a block of
// 1 x 0.5 x 0.5 m and 1 kg, mu = 0.5, on a slope (gravity turned by the slope's angle over a
// level floor, which is the same motion). The break-away angle, found by bisection on whether
// the block moves within 1 s, against atan(mu) = 26.565 deg (the thesis reaches 26); and 4 s on
// 30 deg against a = g (sin 30 - mu cos 30) = 0.6571 m/s^2: v(4 s) = 2.629 m/s, s = 5.257 m,
// with the drift across the slope and the turn of the block, which should stay 0.
#include <cmath>
#include <numbers>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/experiments/volumetric_scenes.hpp"
#include "cli/svg_chart.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

constexpr double kG = 9.81, kMu = 0.5, kH = 1e-3;
constexpr double kDeg = std::numbers::pi / 180.0;

// Whether the block moves (faster than 1e-6 m/s) after 1 s on the slope.
bool slides(double degrees) {
  Simulator sim = volumetric_block_on_slope(degrees);
  for (int k = 0; k < 1000; ++k)
    if (sim.step().failed) return false;
  return sim.state().bodies[1].velocity.norm() > 1e-6;
}

json run_volumetric_incline(const ExperimentOptions& options) {
  // Break-away: the block holds at 20 deg and slides at 30; halve the bracket.
  double holds = 20.0, moves = 30.0;
  const int halvings = options.reduced ? 10 : 16;
  for (int i = 0; i < halvings; ++i) {
    const double mid = 0.5 * (holds + moves);
    (slides(mid) ? moves : holds) = mid;
  }
  const double break_away = 0.5 * (holds + moves);

  // 4 s on 30 degrees.
  Simulator sim = volumetric_block_on_slope(30.0);
  const double a = kG * (std::sin(30.0 * kDeg) - kMu * std::cos(30.0 * kDeg));
  const Vec3 start = sim.state().bodies[1].position;
  CsvTable csv({"time", "distance", "speed", "coulomb_speed", "drift", "turn_deg"});
  ChartSeries speed, theory;
  speed.label = "volumetric model";
  theory.label = "g (sin 30 - mu cos 30) t";
  theory.dashed = true;
  double drift = 0.0, turn = 0.0;
  int failed = 0;
  for (int k = 1; k <= 4000; ++k) {
    failed += sim.step().failed;
    const BodyState& b = sim.state().bodies[1];
    const double t = k * kH;
    drift = std::max(drift, std::abs(b.position.y() - start.y()));
    const double angle = Eigen::AngleAxisd(b.orientation).angle() / kDeg;
    turn = std::max(turn, angle);
    if (k % 10 == 0) {
      csv.add({CsvTable::number(t), CsvTable::number(b.position.x() - start.x()),
               CsvTable::number(b.velocity.x()), CsvTable::number(a * t),
               CsvTable::number(b.position.y() - start.y()), CsvTable::number(angle)});
      speed.x.push_back(t);
      speed.y.push_back(b.velocity.x());
      theory.x.push_back(t);
      theory.y.push_back(a * t);
    }
  }
  const BodyState& end = sim.state().bodies[1];
  Chart chart;
  chart.title = "Block sliding down 30 degrees, mu = 0.5 (seed 002, Test 1)";
  chart.x.label = "time (s)";
  chart.y.label = "speed down the slope (m/s)";
  chart.series = {speed, theory};

  json summary;
  summary["setup"] =
      "block 1 x 0.5 x 0.5 m, 1 kg, mu 0.5, layers 1e9 N/m^3 each (pair 5e8), a = 0, h = 1 ms";
  summary["break_away_deg"] = break_away;
  summary["break_away_expected_deg"] = std::atan(kMu) / kDeg;
  summary["break_away_thesis_deg"] = 26.0;
  summary["break_away_resolution_deg"] = moves - holds;
  summary["speed_4s"] = end.velocity.x();
  summary["speed_4s_expected"] = 4.0 * a;
  summary["distance_4s"] = end.position.x() - start.x();
  summary["distance_4s_expected"] = 8.0 * a;
  // Positions advance by the step's new velocity: s = a h^2 n (n + 1) / 2 = a T (T + h) / 2.
  summary["distance_4s_expected_stepped"] = 0.5 * a * 4.0 * (4.0 + kH);
  summary["max_drift_m"] = drift;
  summary["max_turn_deg"] = turn;
  summary["failed_steps"] = failed;
  summary["files"] = {
      write_experiment_file(options, "volumetric_incline.csv", csv.text()).string(),
      write_experiment_file(options, "volumetric_incline.svg", chart_svg(chart)).string()};
  return summary;
}

}  // namespace

Experiment volumetric_incline_experiment() {
  return {"volumetric_incline", "seed 002 §5, Test 1",
          "a block on a slope under the volumetric model: break-away angle and 4 s on 30 deg",
          run_volumetric_incline};
}

}  // namespace pegsim::cli
