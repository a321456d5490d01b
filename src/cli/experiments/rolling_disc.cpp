// Seed 001's Example 1 and its Fig. 1 (docs/geometrically-implicit.md): the unit disc (m = 1,
// I = 0.5, mu = 0.4) rolling without slip on the ground at nu0 = (-3, 0, 3). Rolling is a
// solution of the continuous problem, so the kinetic energy stays 6.75 J. The geometrically
// implicit step keeps it (the paper: within 1e-6); Stewart-Trinkle with the disc as a regular
// polygon of N vertices loses energy at every vertex it rolls over, less for larger N but not
// to zero, and with 1000 vertices less for smaller h down to a limit (the paper's Fig. 1 (a)
// and (b)). The figures: the kinetic energy at the end and its largest loss, per case.
#include <cmath>
#include <memory>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/geometry/polygon_builders.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

constexpr double kEnergy = 6.75;  // 1/2 m v^2 + 1/2 I w^2 at nu0 = (-3, 0, 3)

struct Roll {
  double final_energy = 0.0;
  double largest_loss = 0.0;  // 6.75 J - the lowest kinetic energy seen
  bool failed = false;
  int halved = 0;              // steps taken in parts (ImplicitStepOptions::max_halvings)
  std::vector<double> energy;  // per sample (every `every` steps)
};

// The disc (polygon_vertices = 0: the exact circle, stepped geometrically implicitly; else a
// regular polygon of that many vertices under Stewart-Trinkle), rolled for `duration`.
Roll roll(int polygon_vertices, double h, double duration, int samples) {
  Model model;
  State state;
  Body ground;
  ground.name = "ground";
  ground.shape = Shape::half_plane();
  ground.is_static = true;
  ground.mu = 0.4;
  model.bodies.push_back(ground);
  state.bodies.emplace_back();
  Body disc;
  disc.name = "disc";
  disc.mass = 1.0;
  disc.inertia = Vec3(0.25, 0.25, 0.5).asDiagonal();  // the paper's disc, whatever its outline
  disc.mu = 0.4;
  BodyState s;
  Settings settings;
  settings.h = h;
  settings.gravity = Vec3(0.0, -9.81, 0.0);
  settings.friction_directions = 2;
  if (polygon_vertices == 0) {
    disc.shape = Shape::circle(1.0);
    s.position = Vec3(0.0, 1.0, 0.0);
    settings.formulation = Formulation::GeometricallyImplicit;
  } else {
    // Circumradius 1, an edge flat on the ground.
    disc.shape = Shape::convex_polygon(
        std::make_shared<const Polygon>(make_regular_polygon(polygon_vertices, 1.0)));
    s.position = Vec3(0.0, std::cos(M_PI / polygon_vertices), 0.0);
  }
  s.velocity = Vec3(-3.0, 0.0, 0.0);
  s.angular_velocity = Vec3(0.0, 0.0, 3.0);
  model.bodies.push_back(disc);
  state.bodies.push_back(s);
  Simulator sim(model, state, settings);
  Roll r;
  const long steps = std::lround(duration / h);
  const long every = std::max(1L, steps / samples);
  r.final_energy = kEnergy;
  for (long k = 1; k <= steps; ++k) {
    const StepReport& step = sim.step();
    if (step.failed) {
      r.failed = true;
      break;
    }
    if (step.substeps > 1) ++r.halved;
    const BodyState& b = sim.state().bodies[1];
    r.final_energy = 0.5 * b.velocity.squaredNorm() + 0.25 * b.angular_velocity.squaredNorm();
    r.largest_loss = std::max(r.largest_loss, kEnergy - r.final_energy);
    if (k % every == 0) r.energy.push_back(r.final_energy);
  }
  return r;
}

json run_rolling_disc(const ExperimentOptions& options) {
  const double duration = options.reduced ? 1.0 : 5.0;
  constexpr int kSamples = 100;
  struct Case {
    std::string method;
    int vertices;
    double h;
  };
  std::vector<Case> cases{{"geometrically-implicit", 0, 0.01}};
  for (int n :
       options.reduced ? std::vector<int>{10, 100, 1000} : std::vector<int>{10, 100, 1000, 10000})
    cases.push_back({"stewart-trinkle", n, 0.01});
  for (double h : options.reduced ? std::vector<double>{0.001}
                                  : std::vector<double>{0.005, 0.001, 0.0005, 0.0001})
    cases.push_back({"stewart-trinkle", 1000, h});

  CsvTable csv({"method", "vertices", "h", "t", "kinetic_energy"});
  CsvTable table_csv({"method", "vertices", "h", "final_energy", "largest_loss", "failed"});
  json table = json::array();
  for (const Case& c : cases) {
    const Roll r = roll(c.vertices, c.h, duration, kSamples);
    const std::string vertices = c.vertices == 0 ? "circle" : std::to_string(c.vertices);
    for (std::size_t i = 0; i < r.energy.size(); ++i)
      csv.add({c.method, vertices, CsvTable::number(c.h),
               CsvTable::number(duration * double(i + 1) / double(r.energy.size())),
               CsvTable::number(r.energy[i])});
    table_csv.add({c.method, vertices, CsvTable::number(c.h), CsvTable::number(r.final_energy),
                   CsvTable::number(r.largest_loss), r.failed ? "1" : "0"});
    table.push_back({{"method", c.method},
                     {"vertices", vertices},
                     {"h", c.h},
                     {"final_energy", r.final_energy},
                     {"largest_loss", r.largest_loss},
                     {"failed", r.failed},
                     {"halved_steps", r.halved}});
  }
  json summary;
  summary["disc"] = "m = 1 kg, I = 0.5 kg m^2, radius 1 m, mu = 0.4, nu0 = (-3, 0, 3)";
  summary["duration_s"] = duration;
  summary["initial_energy"] = kEnergy;
  summary["paper"] =
      "Example 1: no energy loss within 1e-6 (geometrically implicit, h = 0.01); Fig. 1: "
      "Stewart-Trinkle loses energy, less with more vertices (1000 and 10 000 alike) and with "
      "smaller h down to a limit (0.001, 0.0005, 0.0001 alike)";
  summary["table"] = table;
  summary["files"] = {
      write_experiment_file(options, "rolling_disc.csv", table_csv.text()).string(),
      write_experiment_file(options, "rolling_disc_energy.csv", csv.text()).string()};
  return summary;
}

}  // namespace

Experiment rolling_disc_experiment() {
  return {"rolling_disc", "seed 001 §6.1 (Example 1) and Fig. 1",
          "the rolling unit disc: energy kept by the geometrically implicit step, lost by "
          "Stewart-Trinkle with polygon discs",
          run_rolling_disc};
}

}  // namespace pegsim::cli
