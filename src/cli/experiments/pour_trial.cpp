#include "cli/experiments/pour_trial.hpp"

#include <algorithm>
#include <cmath>

#include "cli/experiments/experiment.hpp"
#include "engine/collision/aabb.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/metrics/overlap.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {

int fastest_body(const Model& model, const State& state, double& speed) {
  int fastest = -1;
  speed = 0.0;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    if (!model.bodies[i].present_at(state.time)) continue;
    const double v = state.bodies[i].velocity.norm();
    if (fastest < 0 || !(v <= speed)) {
      fastest = static_cast<int>(i);
      speed = v;
      if (std::isnan(v)) break;  // not finite: exploded
    }
  }
  return fastest;
}

double box_bottom(const Model& model, const State& state, const Vec3& up) {
  double bottom = INFINITY;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    if (!model.bodies[i].is_static) continue;
    const Aabb box = compute_aabb(model.bodies[i], state.bodies[i], 0.0);
    double low = 0.0;  // the lowest corner's height
    for (int a = 0; a < 3; ++a) low += up(a) * (up(a) >= 0.0 ? box.lo(a) : box.hi(a));
    bottom = std::min(bottom, low);
  }
  return bottom;
}

int body_below(const Model& model, const State& state, const Vec3& up, double bottom) {
  for (std::size_t i = 0; i < model.bodies.size(); ++i)
    if (!model.bodies[i].is_static && model.bodies[i].present_at(state.time) &&
        up.dot(state.bodies[i].position) < bottom)
      return static_cast<int>(i);
  return -1;
}

PourTrial run_pour_trial(const PourSetup& setup, bool keep_series) {
  Scene scene;
  try {
    scene = parse_scene(pour_scene(setup).dump(), "generated pour scene", ".");
  } catch (const SceneError& e) {
    throw ExperimentError(e.what());
  }
  Simulator sim(scene.model, scene.initial, scene.settings);
  PourTrial t;
  t.setup = setup;
  const int steps = static_cast<int>(std::lround(setup.duration / setup.h));
  const Vec3 up = -scene.settings.gravity.normalized();
  const double bottom = box_bottom(sim.model(), sim.state(), up);
  double overlap_sum = 0.0, traps_sum = 0.0, contacts_sum = 0.0, size_sum = 0.0, solve_sum = 0.0;
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    if (r.failed) {
      t.failure = "step " + std::to_string(k + 1) + " failed: " + r.failure;
      break;
    }
    const State& s = sim.state();
    PourStep step;
    step.time = s.time;
    step.contacts = static_cast<int>(r.contacts.size());
    step.sm_traps = static_cast<int>(r.sm_traps.size());
    step.problem_size = r.problem_size;
    step.overlap = total_overlap(sim.model(), s).volume;  // m^2 in 2D, m^3 in 3D
    step.solve_seconds = r.timings.solve;
    ++t.steps;
    overlap_sum += step.overlap;
    traps_sum += step.sm_traps;
    contacts_sum += step.contacts;
    size_sum += step.problem_size;
    solve_sum += step.solve_seconds;
    t.max_overlap = std::max(t.max_overlap, step.overlap);
    t.max_sm_traps = std::max(t.max_sm_traps, step.sm_traps);
    t.steps_with_sm_traps += step.sm_traps > 0;
    t.steps_without_x += r.dropped_cross_constraints > 0;
    if (r.cross_energy_need > 0.0) {
      const double ratio = r.cross_energy_gain / r.cross_energy_need;
      if (!r.cross_energy_refused) {
        t.x_energy_ratio_kept = std::max(t.x_energy_ratio_kept, ratio);
      } else if (t.steps_x_energy++ == 0 || ratio < t.x_energy_ratio_refused) {
        t.x_energy_ratio_refused = ratio;
      }
    }
    t.steps_primaries_moved += r.primaries_moved > 0;
    t.steps_primaries_unresolved += r.primary_search_unresolved;
    t.max_solve_seconds = std::max(t.max_solve_seconds, step.solve_seconds);
    if (keep_series) t.series.push_back(step);
    double speed = 0.0;
    const int b = fastest_body(sim.model(), s, speed);
    if (b >= 0) t.max_speed = std::max(t.max_speed, speed);
    if (b >= 0 && !(speed <= kExplodedSpeed)) {
      t.failure = "exploded at step " + std::to_string(k + 1) + ": " + sim.model().bodies[b].name +
                  " moves at " + std::to_string(speed) + " m/s";
      break;
    }
    if (const int lost = body_below(sim.model(), s, up, bottom); lost >= 0) {
      t.failure = "left the box at step " + std::to_string(k + 1) + ": " +
                  sim.model().bodies[lost].name + " is below the box";
      break;
    }
  }
  t.end_time = sim.state().time;
  t.finished = t.failure.empty() && t.steps == steps;
  if (t.steps > 0) {
    const double n = t.steps;
    t.mean_overlap = overlap_sum / n;
    t.mean_sm_traps = traps_sum / n;
    t.mean_contacts = contacts_sum / n;
    t.mean_problem_size = size_sum / n;
    t.mean_solve_seconds = solve_sum / n;
  }
  return t;
}

}  // namespace pegsim::cli
