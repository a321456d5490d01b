// Seed 002's Test 2 under the volumetric contact model (docs/volumetric-contact.md#spinning-
// friction): a disc (R = 0.25 m, H = 0.05 m, 1 kg, mu = 0.6) spinning at 5 pi rad/s on a level
// floor. Coulomb's law over the flat patch gives the torque mu m g 2R/3, so omega falls at
// 4 mu g / (3R) = 31.39 rad/s^2 and stops at 3 R omega_0 / (4 mu g) = 0.5004 s; the thesis'
// viscous torque (3.8), in its consistent form with mu / v_s = 1 s/m, decays as exp(-g t)
// (its mesh disc "stops" at about 1 s). The disc should stay where it is, upright.
#include <cmath>
#include <numbers>
#include <string>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/experiments/volumetric_scenes.hpp"
#include "cli/svg_chart.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

constexpr double kG = 9.81, kMu = 0.6, kH = 1e-3, kR = 0.25;
constexpr double kOmega0 = 5.0 * std::numbers::pi, kDuration = 1.5;

struct Spin {
  double stop = -1.0;       // s, the first step omega <= 1e-9 rad/s (-1: never)
  double hundredth = -1.0;  // s, the first step omega <= omega_0 / 100
  double drift = 0.0, tilt_deg = 0.0, speed = 0.0;
  int failed = 0;
  std::vector<double> omega;  // every 10th step
};

Spin spin(Simulator sim) {
  Spin out;
  const int steps = static_cast<int>(std::lround(kDuration / kH));
  for (int k = 1; k <= steps; ++k) {
    out.failed += sim.step().failed;
    const BodyState& b = sim.state().bodies[1];
    const double omega = b.angular_velocity.z(), t = k * kH;
    if (out.stop < 0.0 && omega <= 1e-9) out.stop = t;
    if (out.hundredth < 0.0 && omega <= kOmega0 / 100.0) out.hundredth = t;
    out.drift = std::max(out.drift, b.position.head<2>().norm());
    out.speed = std::max(out.speed, b.velocity.head<2>().norm());
    const double up = std::min(1.0, (b.orientation * Vec3::UnitZ()).z());
    out.tilt_deg = std::max(out.tilt_deg, std::acos(up) * 180.0 / std::numbers::pi);
    if (k % 10 == 0) out.omega.push_back(omega);
  }
  return out;
}

json run_volumetric_spin(const ExperimentOptions& options) {
  const double alpha = 4.0 * kMu * kG / (3.0 * kR), stop = kOmega0 / alpha;
  const Spin coulomb = spin(volumetric_spinning_disc(0.0));
  const Spin viscous = spin(volumetric_spinning_disc(kMu * 1.0));  // mu / v_s = 1 s/m

  CsvTable csv({"time", "omega_coulomb", "omega_viscous", "omega_coulomb_theory"});
  ChartSeries c, v, theory;
  c.label = "Coulomb (default)";
  v.label = "viscous, mu / v_s = 1 s/m (thesis (3.8))";
  theory.label = "omega_0 - 4 mu g t / (3R)";
  theory.dashed = true;
  for (std::size_t i = 0; i < coulomb.omega.size(); ++i) {
    const double t = (i + 1) * 10 * kH, linear = std::max(0.0, kOmega0 - alpha * t);
    csv.add({CsvTable::number(t), CsvTable::number(coulomb.omega[i]),
             CsvTable::number(viscous.omega[i]), CsvTable::number(linear)});
    for (auto [series, value] : {std::pair{&c, coulomb.omega[i]}, std::pair{&v, viscous.omega[i]},
                                 std::pair{&theory, linear}}) {
      series->x.push_back(t);
      series->y.push_back(value);
    }
  }
  Chart chart;
  chart.title = "Disc spinning on the floor, mu = 0.6 (seed 002, Test 2)";
  chart.x.label = "time (s)";
  chart.y.label = "spin (rad/s)";
  chart.series = {c, v, theory};

  auto figures = [](const Spin& s) {
    return json{{"stop_s", s.stop},     {"one_percent_s", s.hundredth}, {"max_drift_m", s.drift},
                {"max_speed", s.speed}, {"max_tilt_deg", s.tilt_deg},   {"failed_steps", s.failed}};
  };
  json summary;
  summary["setup"] =
      "disc R 0.25 m, H 0.05 m (128-gon prism), 1 kg, mu 0.6, omega_0 5 pi rad/s, layers 1e9 "
      "N/m^3 each (pair 5e8), a = 0, h = 1 ms";
  summary["stop_expected_s"] = stop;
  summary["stop_thesis_s"] = 1.0;
  summary["deceleration_expected"] = alpha;
  summary["viscous_one_percent_expected_s"] = std::log(100.0) / kG;
  summary["coulomb"] = figures(coulomb);
  summary["viscous"] = figures(viscous);
  summary["files"] = {
      write_experiment_file(options, "volumetric_spin.csv", csv.text()).string(),
      write_experiment_file(options, "volumetric_spin.svg", chart_svg(chart)).string()};
  return summary;
}

}  // namespace

Experiment volumetric_spin_experiment() {
  return {"volumetric_spin", "seed 002 §5, Test 2",
          "a disc spinning on the floor under the volumetric model: Coulomb and viscous spin",
          run_volumetric_spin};
}

}  // namespace pegsim::cli
