#include "cli/sweep/sweep_trial.hpp"

#include <chrono>
#include <cmath>

#include "cli/experiments/pour_trial.hpp"
#include "cli/run_summary.hpp"
#include "cli/sweep/held_body.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"

namespace pegsim::cli {
namespace {

// Watches a predicate over the steps: its truth at the end, after every step, after some step.
struct PredicateState {
  int body = -1;
  bool now = false, always = true, ever = false;
};

bool holds(const SweepMetric& m, const State& state, int body) {
  const double x = state.bodies[std::size_t(body)].position(m.axis);
  return (!m.has_above || x > m.above) && (!m.has_below || x < m.below);
}

double figure(const std::string& name, const RunSummary& s, double max_speed, double wall) {
  const double steps = double(s.steps);
  auto mean = [&](double sum) { return steps > 0 ? sum / steps : NAN; };
  if (name == "failed_steps") return double(s.failures);
  if (name == "fallback_steps") return double(s.fallbacks);
  if (name == "unsolved_steps") return double(s.unsolved);
  if (name == "approximate_steps") return double(s.iteration_budget);
  if (name == "max_residual") return s.max_residual;
  if (name == "iterations") return double(s.iterations);
  if (name == "mean_contacts") return mean(double(s.contacts));
  if (name == "max_contacts") return s.max_contacts;
  if (name == "max_problem_size") return s.max_problem_size;
  if (name == "max_penetration") return s.max_penetration;
  if (name == "mean_overlap") return mean(s.overlap.total_sum);
  if (name == "max_overlap") return s.overlap.max_total;
  if (name == "max_pair_overlap") return s.overlap.max_pair;
  if (name == "sm_traps") return double(s.sm_traps);
  if (name == "sm_trap_steps") return double(s.sm_trap_steps);
  if (name == "max_sm_traps") return double(s.sm_traps_max);
  if (name == "mean_problem_size") return mean(double(s.problem_size_sum));
  if (name == "mean_sm_traps") return mean(double(s.sm_traps));
  if (name == "dropped_cross_steps") return double(s.dropped_cross);
  if (name == "cross_energy_steps") return double(s.cross_energy);
  if (name == "cross_energy_ratio_kept") return s.cross_energy_ratio_kept;
  if (name == "cross_energy_ratio_refused") return s.cross_energy_ratio_refused;
  if (name == "primaries_moved_steps") return double(s.primaries_moved);
  if (name == "primaries_unresolved_steps") return double(s.primary_unresolved);
  if (name == "energy_start") return s.energy_start;
  if (name == "energy_end") return s.energy_end;
  if (name == "energy_max") return s.energy_max;
  if (name == "max_speed") return max_speed;
  if (name == "solve_ms") return 1e3 * mean(s.solve_seconds);
  if (name == "max_solve_ms") return 1e3 * s.max_solve_seconds;
  if (name == "wall_ms") return 1e3 * wall;
  return NAN;
}

}  // namespace

std::optional<PointResult> run_point(const Sweep& sweep, const SweepBase& base, long long index,
                                     const std::filesystem::path& run_file,
                                     const std::function<bool()>& stop) {
  const auto t0 = std::chrono::steady_clock::now();
  const SweepPoint point = sweep_point(sweep, index);
  const Scene scene = point_scene(sweep, base, point);
  Simulator sim(scene.model, scene.initial, scene.settings);
  RunSummary summary;
  summary.start(sim.model(), sim.state(), sim.settings());
  sim.add_observer(&summary);
  std::optional<RunWriter> recorder;
  const std::filesystem::path part =
      run_file.empty() ? run_file : std::filesystem::path(run_file.string() + ".part");
  if (!run_file.empty()) {
    RunWriterOptions options;
    options.overwrite = true;  // a ".part" left by an interrupted run
    recorder.emplace(part, make_run_header(scene, sim.model(), sim.settings(), "pegsim-cli sweep"),
                     sim.state(), options);
    sim.add_observer(&*recorder);
  }
  std::vector<PredicateState> predicates(sweep.metrics.size());
  for (std::size_t m = 0; m < sweep.metrics.size(); ++m)
    if (sweep.metrics[m].kind != MetricKind::Figure) {
      predicates[m].body = scene.model.body_index(sweep.metrics[m].body);
      for (const std::string& name : sweep.metrics[m].bodies())
        if (scene.model.body_index(name) < 0)
          throw SweepError((sweep.file.empty() ? std::string("sweep") : sweep.file.string()) +
                           ": metric '" + sweep.metrics[m].name +
                           "': the scene has no body named '" + name + "'");
    }
  // At most 10^9 steps (as `pegsim-cli run`): hours of work at a microsecond a step.
  const double count = sweep.steps > 0
                           ? double(sweep.steps)
                           : std::max(1.0, std::round(scene.duration / scene.settings.h));
  if (!(count <= 1e9))
    throw SweepError(
        "point " + std::to_string(index) + ": a duration of " + std::to_string(scene.duration) +
        " s at h = " + std::to_string(scene.settings.h) + " s is more than 10^9 steps");
  const long long steps = static_cast<long long>(count);
  const Vec3 up = -scene.settings.gravity.normalized();
  // The lowest point of the static bodies (none: the rule never stops a run).
  const double bottom = sweep.stop_below_static ? box_bottom(sim.model(), sim.state(), up) : 0.0;
  const bool below_rule = sweep.stop_below_static && std::isfinite(bottom);
  double max_speed = 0.0;
  std::string stop_reason;
  const StepReport* last = nullptr;  // the last step's report (the simulator keeps it)
  for (long long k = 0; k < steps; ++k) {
    if (stop && stop()) {
      recorder.reset();
      if (!part.empty()) std::filesystem::remove(part);
      return std::nullopt;
    }
    const StepReport& r = sim.step();
    last = &r;
    if (r.failed) {
      stop_reason = "step " + std::to_string(k + 1) + " failed: " + r.failure;
      break;
    }
    const State& state = sim.state();
    for (std::size_t m = 0; m < sweep.metrics.size(); ++m)
      if (sweep.metrics[m].kind == MetricKind::Predicate) {
        PredicateState& p = predicates[m];
        p.now = holds(sweep.metrics[m], state, p.body);
        p.always = p.always && p.now;
        p.ever = p.ever || p.now;
      }
    double speed = 0.0;
    const int body = fastest_body(sim.model(), state, speed);
    max_speed = std::max(max_speed, speed);
    if (sweep.stop_speed > 0 && body >= 0 && !(speed <= sweep.stop_speed)) {
      stop_reason = "exploded at step " + std::to_string(k + 1) + ": " +
                    sim.model().bodies[std::size_t(body)].name + " moves at " +
                    std::to_string(speed) + " m/s";
      break;
    }
    if (below_rule)
      if (const int lost = body_below(sim.model(), state, up, bottom); lost >= 0) {
        stop_reason = "left the box at step " + std::to_string(k + 1) + ": " +
                      sim.model().bodies[std::size_t(lost)].name + " is below the static bodies";
        break;
      }
  }
  if (recorder) {
    recorder->close();
    recorder.reset();
    std::filesystem::rename(part, run_file);
  }
  PointResult result;
  result.point = index;
  result.stop_reason = stop_reason;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.values = {stop_reason.empty() ? 1.0 : 0.0, double(summary.steps), sim.state().time};
  const State& end = sim.state();
  for (std::size_t m = 0; m < sweep.metrics.size(); ++m) {
    const SweepMetric& metric = sweep.metrics[m];
    if (metric.kind == MetricKind::Figure) {
      result.values.push_back(figure(metric.name, summary, max_speed, wall));
    } else if (metric.kind == MetricKind::Predicate) {
      const PredicateState& p = predicates[m];
      const bool value = metric.when == PredicateWhen::End      ? holds(metric, end, p.body)
                         : metric.when == PredicateWhen::Always ? p.always
                                                                : p.ever;
      result.values.push_back(value ? 1.0 : 0.0);
    } else if (metric.kind == MetricKind::Held) {
      const int held = predicates[m].body;
      bool value = stop_reason.empty() && last &&
                   end.bodies[std::size_t(held)].velocity.norm() < metric.rest_speed;
      if (value) {
        std::map<int, std::set<int>> touched = parts_touched(sim.model(), end, *last, held);
        for (const auto& [holder, parts] : metric.holders)
          value = value && touched[scene.model.body_index(holder)] ==
                               std::set<int>(parts.begin(), parts.end());
      }
      result.values.push_back(value ? 1.0 : 0.0);
    } else {
      const BodyState& b = end.bodies[std::size_t(predicates[m].body)];
      if (scene.dimension == 2) {
        const Quat& q = b.orientation;
        const double angle = std::remainder(2.0 * std::atan2(q.z(), q.w()), 2.0 * M_PI);
        for (double v : {b.position.x(), b.position.y(), angle}) result.values.push_back(v);
      } else {
        for (double v : {b.position.x(), b.position.y(), b.position.z(), b.orientation.w(),
                         b.orientation.x(), b.orientation.y(), b.orientation.z()})
          result.values.push_back(v);
      }
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace pegsim::cli
