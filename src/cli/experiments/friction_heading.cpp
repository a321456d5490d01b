// Coulomb's law whatever the heading (docs/friction.md): a cube pushed across level ground and
// a block on a 30 degree incline, for every heading in 5 degree steps, n_d = 4, 7 and 16, with
// the linearized cone turned against the slip (cone_orientation motion) and from a fixed
// tangent (fixed, as RPIsim). Against Coulomb: the heading error of the motion, the error of
// the deceleration mu g (level) and of g (sin theta - mu cos theta) (incline, mu 0.3), and
// whether a block with mu = 0.6 > tan 30 degrees slips (false slip) or one that must slide
// stays (false stick). The answers compared are the step's own: with velocity-level steps a
// constant acceleration a gives v_k = v_0 + k h a exactly.
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

constexpr double kG = 9.81, kDeg = M_PI / 180.0, kH = 0.01;

double degrees_between(const Vec3& a, const Vec3& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) / kDeg;
}

// A static plane whose outward normal is tilt * z, and a box of the given size resting on it
// with its bottom face on the plane.
struct Slab {
  Model model;
  State state;
  int box = -1;
};

Slab slab(const Quat& tilt, const Vec3& size, double mu) {
  Slab s;
  Body plane;
  plane.name = "plane";
  plane.shape = Shape::plane();
  plane.is_static = true;
  plane.mu = mu;
  s.model.bodies.push_back(plane);
  BodyState ps;
  ps.orientation = tilt;
  s.state.bodies.push_back(ps);
  auto poly = std::make_shared<Polytope>(make_box(size.x(), size.y(), size.z()));
  const MassProperties mp = polytope_mass_properties(*poly);
  Body box;
  box.name = "box";
  box.shape = Shape::convex(poly);
  box.mass = 1.0;
  box.inertia = mp.inertia / mp.volume;
  box.mu = mu;
  s.model.bodies.push_back(box);
  BodyState bs;
  bs.orientation = tilt;
  bs.position = 0.5 * size.z() * (tilt * Vec3::UnitZ());
  s.state.bodies.push_back(bs);
  s.box = 1;
  return s;
}

Settings settings_for(int directions, ConeOrientation cone) {
  Settings s;
  s.h = kH;
  s.friction_directions = directions;
  s.cone_orientation = cone;
  return s;
}

struct Motion {
  double heading_error = 0.0;       // degrees between the displacement and the expected direction
  double acceleration_error = 0.0;  // relative
  double displacement = 0.0;        // m
  bool failed = false;
};

// A 0.4 m cube, mu 0.5, pushed at 2 m/s along `deg`: 25 steps (still sliding).
Motion level(double deg, int directions, ConeOrientation cone) {
  Slab s = slab(Quat::Identity(), Vec3(0.4, 0.4, 0.4), 0.5);
  const Vec3 d(std::cos(deg * kDeg), std::sin(deg * kDeg), 0.0);
  s.state.bodies[s.box].velocity = 2.0 * d;
  Simulator sim(s.model, s.state, settings_for(directions, cone));
  const Vec3 start = s.state.bodies[s.box].position;
  Motion m;
  for (int k = 0; k < 25; ++k) m.failed |= sim.step().failed;
  const BodyState& b = sim.state().bodies[s.box];
  const double a = 0.5 * kG, t = 25 * kH;
  m.displacement = (b.position - start).norm();
  m.heading_error = degrees_between(b.position - start, d);
  m.acceleration_error = std::abs((2.0 - b.velocity.norm()) / t - a) / a;
  return m;
}

// A 0.5 x 0.5 x 0.25 block on a 30 degree incline whose downhill points along `deg`, from
// rest, 1 s.
Motion incline(double deg, double mu, int directions, ConeOrientation cone) {
  const double theta = 30.0 * kDeg;
  const Quat turn(Eigen::AngleAxisd(deg * kDeg, Vec3::UnitZ()));
  const Quat tilt = turn * Quat(Eigen::AngleAxisd(-theta, Vec3::UnitY()));
  Slab s = slab(tilt, Vec3(0.5, 0.5, 0.25), mu);
  Simulator sim(s.model, s.state, settings_for(directions, cone));
  const Vec3 start = s.state.bodies[s.box].position;
  Motion m;
  for (int k = 0; k < 100; ++k) m.failed |= sim.step().failed;
  const BodyState& b = sim.state().bodies[s.box];
  const Vec3 downhill = turn * Vec3(-std::cos(theta), 0.0, -std::sin(theta));
  const double a = std::max(0.0, kG * (std::sin(theta) - mu * std::cos(theta)));
  m.displacement = (b.position - start).norm();
  if (a > 0.0) {
    m.heading_error = degrees_between(b.position - start, downhill);
    m.acceleration_error = std::abs(b.velocity.dot(downhill) / 1.0 - a) / a;
  }
  return m;
}

json run_friction_heading(const ExperimentOptions& options) {
  CsvTable csv({"cone_orientation", "friction_directions", "heading_deg", "level_heading_error_deg",
                "level_deceleration_error", "incline_heading_error_deg",
                "incline_acceleration_error", "steep_mu_displacement_m"});
  json table = json::array();
  const int step_deg = options.reduced ? 15 : 5;
  for (ConeOrientation cone : {ConeOrientation::Motion, ConeOrientation::Fixed}) {
    for (int nd : {4, 7, 16}) {
      double level_heading = 0.0, level_acc = 0.0, incline_heading = 0.0, incline_acc = 0.0;
      double steep = 0.0;
      int false_slips = 0, false_sticks = 0, failed = 0;
      for (int deg = 0; deg < 360; deg += step_deg) {
        const Motion l = level(deg, nd, cone);
        const Motion i = incline(deg, 0.3, nd, cone);
        const Motion st = incline(deg, 0.6, nd, cone);  // tan 30 = 0.577: must stay
        failed += l.failed + i.failed + st.failed;
        level_heading = std::max(level_heading, l.heading_error);
        level_acc = std::max(level_acc, l.acceleration_error);
        incline_heading = std::max(incline_heading, i.heading_error);
        incline_acc = std::max(incline_acc, i.acceleration_error);
        steep = std::max(steep, st.displacement);
        false_slips += st.displacement > 1e-6;
        false_sticks += i.displacement < 1e-6;
        csv.add({to_string(cone), std::to_string(nd), std::to_string(deg),
                 CsvTable::number(l.heading_error), CsvTable::number(l.acceleration_error),
                 CsvTable::number(i.heading_error), CsvTable::number(i.acceleration_error),
                 CsvTable::number(st.displacement)});
      }
      table.push_back({{"cone_orientation", to_string(cone)},
                       {"friction_directions", nd},
                       {"level_max_heading_error_deg", level_heading},
                       {"level_max_deceleration_error", level_acc},
                       {"incline_max_heading_error_deg", incline_heading},
                       {"incline_max_acceleration_error", incline_acc},
                       {"steep_max_displacement_m", steep},
                       {"false_slips", false_slips},
                       {"false_sticks", false_sticks},
                       {"failed_runs", failed}});
    }
  }
  json summary;
  summary["headings_every_deg"] = step_deg;
  summary["coulomb"] =
      "level: mu = 0.5, v0 = 2 m/s, deceleration mu g over 0.25 s; incline 30 deg, "
      "mu = 0.3: a = g (sin 30 - 0.3 cos 30) = 2.3563 m/s^2 over 1 s; mu = 0.6: "
      "stays; h = 0.01 s";
  summary["target"] =
      "default n_d = 7: heading error <= 0.1 deg, acceleration within 0.5 %, no "
      "false slip or false stick";
  summary["table"] = table;
  summary["files"] = {write_experiment_file(options, "friction_heading.csv", csv.text()).string()};
  return summary;
}

}  // namespace

Experiment friction_heading_experiment() {
  return {"friction_heading", "thesis §2.3.1, the linearized cone (2.21)",
          "sliding and sticking at every heading: error against Coulomb for n_d = 4, 7, 16",
          run_friction_heading};
}

}  // namespace pegsim::cli
