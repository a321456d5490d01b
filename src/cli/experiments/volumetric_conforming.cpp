// Conforming contact under the volumetric model beside the point models (seed 002's case for
// volumes; docs/volumetric-contact.md#conforming-contact): scenes/box_on_box.json, a box sliding
// flat on a block, and scenes/peg_in_hole.json, a square peg dropped 2 degrees off upright onto
// a square hole, each under sm, peg and volumetric. Per step: the total normal force on the
// moving body, its centre of pressure (the impulse-weighted mean of its contact points) and
// the deepest enforced contact (the point models' penetration, the volumetric model's mean
// depth V / A). The sliding box's closed forms: friction mu m g at the bottom tips it forward,
// so the centre of pressure runs mu h ahead of its centre (h its centre's height) while the
// total stays m g, and it stops after v^2 / (2 mu g).
#include <algorithm>
#include <cmath>
#include <string>

#include "cli/experiments/experiment_files.hpp"
#include "cli/experiments/experiment_list.hpp"
#include "cli/svg_chart.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

using nlohmann::json;

struct Trace {
  double force_mean = 0.0, force_spread = 0.0, force_jump = 0.0, force_max = 0.0;
  double lead_mean = 0.0, lead_spread = 0.0;  // the centre of pressure ahead of the centre, m
  double deepest = 0.0, height = 0.0, tilt_deg = 0.0, travel = 0.0;
  int failed = 0;
  ChartSeries series;
};

// Runs `scene` under `model` for `steps`; `body` is the moving body. The force's statistics
// cover the steps from `settled` on, the centre of pressure's those from `settled` on while the
// body slides along x (faster than 0.1 m/s).
Trace trace(const Scene& scene, ContactModel model, int body, int steps, int settled,
            const std::string& setup, CsvTable& csv) {
  Settings settings = scene.settings;
  settings.contact_model = model;
  Simulator sim(scene.model, scene.initial, settings);
  const double weight = scene.model.bodies[body].mass * settings.gravity.norm();
  Trace out;
  out.series.label = to_string(model);
  double sum = 0.0, sum2 = 0.0, previous = 0.0, lead = 0.0, lead2 = 0.0;
  int counted = 0, sliding = 0;
  for (int k = 1; k <= steps; ++k) {
    const Vec3 centre = sim.state().bodies[body].position;  // where the step's contacts were
    const StepReport& r = sim.step();
    out.failed += r.failed;
    double impulse = 0.0;
    Vec3 moment = Vec3::Zero();
    for (std::size_t i = 0; i < r.contacts.size(); ++i) {
      const Contact& c = r.contacts[i];
      if (c.body_a != body && c.body_b != body) continue;
      if (!r.enforced[i]) continue;
      out.deepest = std::max(out.deepest, -c.gap);
      const double p = i < r.normal_impulse.size() ? r.normal_impulse[i] : 0.0;
      impulse += p;
      moment += p * (c.point_a + 0.5 * c.gap * c.normal);
    }
    const double force = impulse / settings.h / weight;  // in m g
    out.force_max = std::max(out.force_max, force);
    if (k > 1) out.force_jump = std::max(out.force_jump, std::abs(force - previous));
    previous = force;
    if (k >= settled) {
      sum += force;
      sum2 += force * force;
      ++counted;
      const BodyState& b = sim.state().bodies[body];
      if (impulse > 0.0 && b.velocity.x() > 0.1) {
        const double ahead = (moment / impulse).x() - centre.x();
        lead += ahead;
        lead2 += ahead * ahead;
        ++sliding;
      }
    }
    csv.add({setup, to_string(model), CsvTable::number(k * settings.h), CsvTable::number(force),
             CsvTable::number(out.deepest)});
    out.series.x.push_back(k * settings.h);
    out.series.y.push_back(force);
  }
  out.force_mean = sum / counted;
  out.force_spread = std::sqrt(std::max(0.0, sum2 / counted - out.force_mean * out.force_mean));
  if (sliding > 0) {
    out.lead_mean = lead / sliding;
    out.lead_spread = std::sqrt(std::max(0.0, lead2 / sliding - out.lead_mean * out.lead_mean));
  }
  const BodyState& b = sim.state().bodies[body];
  out.height = b.position.z();
  out.travel = b.position.x() - scene.initial.bodies[body].position.x();
  out.tilt_deg =
      std::acos(std::min(1.0, (b.orientation * Vec3::UnitZ()).z())) * 180.0 / std::numbers::pi;
  return out;
}

json figures(const Trace& t) {
  return {{"force_mean_mg", t.force_mean}, {"force_spread_mg", t.force_spread},
          {"force_jump_mg", t.force_jump}, {"force_max_mg", t.force_max},
          {"lead_mean_m", t.lead_mean},    {"lead_spread_m", t.lead_spread},
          {"deepest_m", t.deepest},        {"final_height_m", t.height},
          {"final_tilt_deg", t.tilt_deg},  {"travel_m", t.travel},
          {"failed_steps", t.failed}};
}

json run_volumetric_conforming(const ExperimentOptions& options) {
  const ContactModel models[] = {ContactModel::Standard, ContactModel::Peg,
                                 ContactModel::Volumetric};
  CsvTable csv({"setup", "model", "time", "force_mg", "deepest"});
  json summary;
  summary["setup"] =
      "box_on_box.json (1 s, h = 1 ms; statistics from 20 ms on) and peg_in_hole.json (2 s, h = 2 "
      "ms; from 1 s on), each under sm, peg and volumetric; force in units of the moving body's "
      "weight";

  Scene box = load_scene(options.scenes_dir / "box_on_box.json");
  const int top = box.model.body_index("box");
  json on_box;
  for (ContactModel m : models) {
    Scene sc = box;
    // The volumetric model's box starts where the layers carry it, k_v A d = m g.
    if (m == ContactModel::Volumetric) {
      const Body& a = sc.model.bodies[sc.model.body_index("block")];
      const Body& b = sc.model.bodies[top];
      const double k = 1.0 / (1.0 / a.layer.stiffness + 1.0 / b.layer.stiffness);
      sc.initial.bodies[top].position.z() -= b.mass * sc.settings.gravity.norm() / k;
    }
    on_box[to_string(m)] = figures(trace(sc, m, top, 1000, 20, "box_on_box", csv));
  }
  const Body& slider = box.model.bodies[top];
  const double mu = pair_friction(slider, box.model.bodies[box.model.body_index("block")]);
  const double v0 = box.initial.bodies[top].velocity.x(), g = box.settings.gravity.norm();
  summary["box_on_box"] = on_box;
  summary["box_on_box_lead_expected_m"] = mu * 0.25;
  summary["box_on_box_travel_expected_m"] = v0 * v0 / (2.0 * mu * g);
  // With the step's positions advanced by its new velocity: h sum_k max(0, v0 - mu g h k).
  double stepped = 0.0;
  for (int k = 1; v0 - mu * g * box.settings.h * k > 0.0; ++k)
    stepped += box.settings.h * (v0 - mu * g * box.settings.h * k);
  summary["box_on_box_travel_expected_stepped_m"] = stepped;

  const Scene peg_scene = load_scene(options.scenes_dir / "peg_in_hole.json");
  const int peg = peg_scene.model.body_index("peg");
  json in_hole;
  Chart chart;
  chart.title = "Peg dropped into a hole: total normal force on the peg";
  chart.x.label = "time (s)";
  chart.y.label = "normal force / m g";
  for (ContactModel m : models) {
    const Trace t = trace(peg_scene, m, peg, 1000, 500, "peg_in_hole", csv);
    in_hole[to_string(m)] = figures(t);
    chart.series.push_back(t.series);
  }
  summary["peg_in_hole"] = in_hole;
  summary["files"] = {
      write_experiment_file(options, "volumetric_conforming.csv", csv.text()).string(),
      write_experiment_file(options, "volumetric_conforming.svg", chart_svg(chart)).string()};
  return summary;
}

}  // namespace

Experiment volumetric_conforming_experiment() {
  return {"volumetric_conforming", "seed 002 §1, conforming contact",
          "a box on a box and a peg in a hole under sm, peg and volumetric: force smoothness and "
          "penetration",
          run_volumetric_conforming};
}

}  // namespace pegsim::cli
