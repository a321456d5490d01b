// Seed 001's Example 3 (docs/geometrically-implicit.md): the rigid unit disc (m = 1, I = 0.5)
// dropped from q_y = 1.5 onto a quasi-rigid ground, a shell of stiffness k = 1000 N/m, no
// damping, no friction, h = 1e-4, stepped by the Simulator under the geometrically implicit
// formulation. With a core 0.05 m below the surface the disc reaches it at 0.33554 s (an
// inelastic impact) and then bounces on the shell with an apex of 1.07742 m every 0.36621 s;
// without one (max deflection 1 m) the shell stops it 0.10934 m deep and throws it back to
// 1.5 m after 0.74414 s. The analytic figures are those of the continuous motion; the
// paper's first-order Euler step reaches them as h -> 0 (the full run adds h = 1e-5).
#include <cmath>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/svg_chart.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

constexpr double kG = 9.81, kStiffness = 1000.0, kDrop = 1.5;

// The continuous motion's figures (m = 1, r = 1): free fall of 0.5 m onto the shell, then
// m y'' = k delta - m g while touching.
struct Analytic {
  double touch_time, core_time = NAN, max_deflection, apex, period, energy_after;
};

Analytic analytic(double max_deflection) {
  Analytic a;
  const double w = std::sqrt(kStiffness), sag = kG / kStiffness;
  const double v0 = std::sqrt(2.0 * kG * 0.5);
  a.touch_time = std::sqrt(2.0 * 0.5 / kG);
  // Deepest deflection of the shell alone: m g (0.5 + d) = k d^2 / 2.
  const double free_depth = sag + std::sqrt(sag * sag + 2.0 * sag * 0.5);
  // On the shell: delta(t) = sag + A sin(w t - phi), delta(0) = 0, delta'(0) = v0.
  const double amplitude = std::hypot(sag, v0 / w), phase = std::atan2(sag, v0 / w);
  if (free_depth <= max_deflection) {
    a.max_deflection = free_depth;
    a.apex = kDrop;
    a.energy_after = kG * kDrop;
    // Flight down and up (2 x 0.31928 s) and the half-swing on the shell, 2 (pi/2 + phase) / w.
    a.period = 2.0 * a.touch_time + (M_PI + 2.0 * phase) / w;
    return a;
  }
  // The core is reached at delta = max_deflection, where the impact stops the disc; it then
  // leaves the shell with the speed of the spring's release, sqrt(k d^2 - 2 g d).
  a.max_deflection = max_deflection;
  a.core_time = a.touch_time + (std::asin((max_deflection - sag) / amplitude) + phase) / w;
  const double release =
      std::sqrt(kStiffness * max_deflection * max_deflection - 2.0 * kG * max_deflection);
  a.apex = 1.0 + release * release / (2.0 * kG);
  a.energy_after = kG * (1.0 - max_deflection) + 0.5 * kStiffness * max_deflection * max_deflection;
  const double amplitude_after = max_deflection - sag;  // released from rest at the core
  const double swing = (M_PI / 2.0 + std::asin(sag / amplitude_after)) / w;
  a.period = 2.0 * release / kG + 2.0 * swing;
  return a;
}

struct Drop {
  double core_time = -1.0, max_deflection = 0.0, worst_gap = 0.0, energy_after = NAN;
  std::vector<double> apex_times, apex_heights, apex_energies;
  std::vector<double> t, y, energy;  // samples
  bool failed = false;
  std::string failure;
  int halved = 0;  // steps taken in parts (ImplicitStepOptions::max_halvings)
};

// The shipped scene (scenes/quasi_rigid_disc.json) with the ground's shell `max_deflection`
// thick, stepped at h.
Drop drop(const Scene& scene, double max_deflection, double h, double duration, int samples) {
  Model model = scene.model;
  model.bodies[0].shell.max_deflection = max_deflection;
  Settings settings = scene.settings;
  settings.h = h;
  settings.tolerance = 1e-10;
  Simulator sim(model, scene.initial, settings);
  Drop d;
  const long steps = std::lround(duration / h), every = std::max(1L, steps / samples);
  double last_vy = 0.0;
  for (long k = 1; k <= steps; ++k) {
    const StepReport& r = sim.step();
    if (r.failed) {
      d.failed = true;
      d.failure = r.failure;
      break;
    }
    if (r.substeps > 1) ++d.halved;
    const BodyState& b = sim.state().bodies[1];
    // The shell's deflection, one of the step's unknowns (0 while the pair is out of range).
    const double deflection = r.implicit.empty() ? 0.0 : r.implicit[0].deflection;
    const double e = 0.5 * b.velocity.squaredNorm() + 0.25 * b.angular_velocity.squaredNorm() +
                     kG * b.position.y() + 0.5 * kStiffness * deflection * deflection;
    for (std::size_t c = 0; c < r.contacts.size(); ++c)
      d.worst_gap = std::min(d.worst_gap, r.contacts[c].gap);
    d.max_deflection = std::max(d.max_deflection, deflection);
    // The core stops the disc within two steps: the step that ends on it still carries the
    // distance it covered into the core, the next one is at rest.
    if (d.core_time >= 0.0 && std::isnan(d.energy_after)) d.energy_after = e;
    if (d.core_time < 0.0 && deflection >= max_deflection - 1e-9) d.core_time = r.time;
    if (last_vy > 0.0 && b.velocity.y() <= 0.0) {
      d.apex_times.push_back(r.time);
      d.apex_heights.push_back(b.position.y());
      d.apex_energies.push_back(e);
    }
    last_vy = b.velocity.y();
    if (k % every == 0) {
      d.t.push_back(r.time);
      d.y.push_back(b.position.y());
      d.energy.push_back(e);
    }
  }
  return d;
}

json number_or_null(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

json run_quasi_rigid_disc(const ExperimentOptions& options) {
  const double duration = 1.5;
  constexpr int kSamples = 1500;
  std::vector<double> steps{1e-4};
  if (!options.reduced) steps.push_back(1e-5);
  CsvTable csv({"max_deflection", "h", "t", "q_y", "energy"});
  CsvTable table_csv({"max_deflection", "h", "core_time", "max_deflection_reached", "apex",
                      "period", "energy_after_core", "energy_loss_per_bounce", "worst_gap"});
  json table = json::array();
  Chart heights{"Seed 001 Example 3: the disc on a quasi-rigid ground (k = 1000 N/m)",
                {"t (s)"},
                {"q_y (m)"},
                {}};
  Chart energies{"Example 3: total energy (kinetic, gravity, shell)", {"t (s)"}, {"E (J)"}, {}};
  const Scene scene = load_scene(options.scenes_dir / "quasi_rigid_disc.json");
  // The analytic figures are those of the paper's set-up: refuse an edited scene.
  const bool example3 =
      scene.model.bodies.size() == 2 && scene.model.bodies[0].shell.stiffness(0, 0) == kStiffness &&
      !scene.model.bodies[0].shell.tangential() && scene.model.bodies[1].mass == 1.0 &&
      scene.initial.bodies[1].position.y() == kDrop && scene.dimension == 2;
  if (!example3)
    throw ExperimentError(
        "quasi_rigid_disc: " + (options.scenes_dir / "quasi_rigid_disc.json").string() +
        " is not seed 001's Example 3 (a unit-mass disc at 1.5 m over a "
        "ground shell of 1000 N/m)");
  for (const double dmax : {0.05, 1.0}) {
    const Analytic a = analytic(dmax);
    for (const double h : steps) {
      const Drop d = drop(scene, dmax, h, duration, kSamples);
      if (d.failed)
        throw ExperimentError("quasi_rigid_disc: a step failed (max deflection " +
                              CsvTable::number(dmax) + ", h = " + CsvTable::number(h) +
                              "): " + d.failure);
      // Apex to apex: the first apex comes after the core impact (or the first bounce).
      const bool two = d.apex_times.size() >= 2;
      const double period = two ? d.apex_times[1] - d.apex_times[0] : NAN;
      const double loss = two ? d.apex_energies[0] - d.apex_energies[1] : NAN;
      const double apex = d.apex_heights.empty() ? NAN : d.apex_heights[0];
      const double core = dmax < 0.1 ? d.core_time : NAN;
      table_csv.add({CsvTable::number(dmax), CsvTable::number(h), CsvTable::number(core),
                     CsvTable::number(d.max_deflection), CsvTable::number(apex),
                     CsvTable::number(period), CsvTable::number(d.energy_after),
                     CsvTable::number(loss), CsvTable::number(d.worst_gap)});
      table.push_back({{"max_deflection", dmax},
                       {"h", h},
                       {"core_time_s", number_or_null(core)},
                       {"max_deflection_reached_m", d.max_deflection},
                       {"apex_m", number_or_null(apex)},
                       {"period_s", number_or_null(period)},
                       {"energy_after_core_J", number_or_null(d.energy_after)},
                       {"energy_loss_per_bounce_J", number_or_null(loss)},
                       {"worst_gap", d.worst_gap},
                       {"halved_steps", d.halved},
                       {"analytic",
                        {{"core_time_s", number_or_null(a.core_time)},
                         {"max_deflection_m", a.max_deflection},
                         {"apex_m", a.apex},
                         {"period_s", a.period},
                         {"energy_after_core_J", a.energy_after}}}});
      const std::string label =
          "max deflection " + CsvTable::number(dmax) + " m, h = " + CsvTable::number(h);
      for (std::size_t i = 0; i < d.t.size(); ++i)
        csv.add({CsvTable::number(dmax), CsvTable::number(h), CsvTable::number(d.t[i]),
                 CsvTable::number(d.y[i]), CsvTable::number(d.energy[i])});
      ChartSeries line;
      line.label = label;
      line.x = d.t;
      line.y = d.y;
      heights.series.push_back(line);
      line.y = d.energy;
      energies.series.push_back(line);
    }
  }
  json summary;
  summary["setup"] =
      "rigid unit disc (m = 1 kg, I = 0.5 kg m^2) from q_y = 1.5 m onto a half-plane with a "
      "shell of k = 1000 N/m, c = 0, no friction; max deflection 0.05 m (core) and 1 m";
  summary["paper"] =
      "Fig. 7: core impact at about 0.34 s, then periodic motion, energy conserved within "
      "1e-5 J; Fig. 8 (max deflection 1 m): the spring alone, periodic";
  summary["duration_s"] = duration;
  summary["table"] = table;
  summary["files"] = {
      write_experiment_file(options, "quasi_rigid_disc.csv", table_csv.text()).string(),
      write_experiment_file(options, "quasi_rigid_disc_motion.csv", csv.text()).string(),
      write_experiment_file(options, "quasi_rigid_disc.svg", chart_svg(heights)).string(),
      write_experiment_file(options, "quasi_rigid_disc_energy.svg", chart_svg(energies)).string()};
  return summary;
}

}  // namespace

Experiment quasi_rigid_disc_experiment() {
  return {"quasi_rigid_disc", "seed 001 §6.3 (Example 3), Fig. 7-8",
          "a rigid disc dropped on a quasi-rigid ground: the core impact and the bounces on "
          "the shell against the analytic motion",
          run_quasi_rigid_disc};
}

}  // namespace pegsim::cli
