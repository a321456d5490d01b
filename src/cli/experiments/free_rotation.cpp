// A torque-free rigid body (docs/free-rotation.md): a 1 x 2 x 3 box of 1 kg spun at 10 rad/s
// near its unstable middle axis, no gravity, no contact, for 100 s at h |w| = 0.05, 0.5, 1 and
// 2, under each treatment of the gyroscopic term (Settings::gyroscopic). The exact motion
// keeps the world angular momentum L and the kinetic energy T; the figures are their largest
// relative drift over the run, and the final ones.
#include <cmath>
#include <memory>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

struct Drift {
  double momentum_max = 0.0, momentum_final = 0.0;  // |L - L0| / |L0|
  double energy_max = 0.0, energy_final = 0.0;      // T / T0 - 1
  double magnitude_final = 0.0;                     // |L| / |L0| - 1
  bool failed = false;
};

Drift spin(Gyroscopic g, double hw, double duration) {
  Model model;
  State state;
  auto poly = std::make_shared<Polytope>(make_box(1.0, 2.0, 3.0));
  const MassProperties mp = polytope_mass_properties(*poly);
  Body box;
  box.name = "box";
  box.shape = Shape::convex(poly);
  box.mass = 1.0;
  box.inertia = mp.inertia / mp.volume;
  model.bodies.push_back(box);
  BodyState s;
  s.angular_velocity = Vec3(0.1, 10.0, 0.1);
  state.bodies.push_back(s);
  Settings settings;
  settings.gravity.setZero();
  settings.gyroscopic = g;
  settings.h = hw / s.angular_velocity.norm();
  Simulator sim(model, state, settings);
  auto momentum = [&](const BodyState& b) {
    const Mat3 R = b.orientation.toRotationMatrix();
    return Vec3(R * box.inertia * R.transpose() * b.angular_velocity);
  };
  auto energy = [&](const BodyState& b) { return 0.5 * b.angular_velocity.dot(momentum(b)); };
  const Vec3 L0 = momentum(s);
  const double T0 = energy(s);
  Drift d;
  const long steps = std::lround(duration / settings.h);
  for (long k = 0; k < steps; ++k) {
    if (sim.step().failed) {
      d.failed = true;
      break;
    }
    const BodyState& b = sim.state().bodies[0];
    const Vec3 L = momentum(b);
    if (!L.allFinite()) {
      d.failed = true;
      break;
    }
    d.momentum_final = (L - L0).norm() / L0.norm();
    d.energy_final = energy(b) / T0 - 1.0;
    d.magnitude_final = L.norm() / L0.norm() - 1.0;
    d.momentum_max = std::max(d.momentum_max, d.momentum_final);
    d.energy_max = std::max(d.energy_max, std::abs(d.energy_final));
  }
  return d;
}

json run_free_rotation(const ExperimentOptions& options) {
  CsvTable csv({"gyroscopic", "h_w", "h", "momentum_drift_max", "momentum_drift_final",
                "momentum_magnitude_final", "energy_drift_max", "energy_final", "failed"});
  json table = json::array();
  const double duration = options.reduced ? 10.0 : 100.0;
  for (Gyroscopic g : {Gyroscopic::Midpoint, Gyroscopic::Implicit, Gyroscopic::Explicit}) {
    for (double hw : {0.05, 0.5, 1.0, 2.0}) {
      const Drift d = spin(g, hw, duration);
      csv.add({to_string(g), CsvTable::number(hw), CsvTable::number(hw / std::sqrt(100.02)),
               CsvTable::number(d.momentum_max), CsvTable::number(d.momentum_final),
               CsvTable::number(d.magnitude_final), CsvTable::number(d.energy_max),
               CsvTable::number(d.energy_final), d.failed ? "1" : "0"});
      table.push_back({{"gyroscopic", to_string(g)},
                       {"h_w", hw},
                       {"momentum_drift_max", d.momentum_max},
                       {"momentum_magnitude_final", d.magnitude_final},
                       {"energy_drift_max", d.energy_max},
                       {"energy_final", d.energy_final},
                       {"failed", d.failed}});
    }
  }
  json summary;
  summary["body"] =
      "1 x 2 x 3 m box, 1 kg, w0 = (0.1, 10, 0.1) rad/s (near the middle axis), "
      "no gravity";
  summary["duration_s"] = duration;
  summary["table"] = table;
  summary["files"] = {write_experiment_file(options, "free_rotation.csv", csv.text()).string()};
  return summary;
}

}  // namespace

Experiment free_rotation_experiment() {
  return {"free_rotation", "thesis §2.1, Euler's equations (2.7)",
          "a torque-free tumbling box: drift of world L and energy per gyroscopic treatment",
          run_free_rotation};
}

}  // namespace pegsim::cli
