#include "cli/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/dynamics/scene_checks.hpp"

namespace pegsim::cli {

void RunSummary::start(const Model& model, const State& state, const Settings& settings) {
  overlap.planar = model.planar();
  overlap.add(0, state.time, total_overlap(model, state));
  energy_start = energy_max = energy_end = mechanical_energy(model, state, settings.gravity);
  kinetic_max = kinetic_energy(model, state);
  driven = !model.controllers.empty();
  smallest_volume = smallest_body_volume(model);
  warnings = scene_warnings(model, state, settings);
}

std::vector<std::string> RunSummary::run_warnings() const {
  std::vector<std::string> out;
  char text[256];
  // A passive system with inelastic contact only loses energy; a rise past the start is a
  // correction (psi / h) pushing bodies apart, or a step too long for the scene.
  const double rise = energy_max - energy_start;
  if (!driven && rise > 0.1 * kinetic_max && rise > 1e-9) {
    std::snprintf(text, sizeof text,
                  "energy rose by %.3g J above its start (%.3g J) with nothing driving the "
                  "bodies: a correction of penetrations or joint errors added it",
                  rise, energy_start);
    out.push_back(text);
  }
  if (smallest_volume > 0.0 && overlap.max_pair > kGrossOverlapFraction * smallest_volume) {
    std::snprintf(
        text, sizeof text, "gross overlap: one pair by %.3g %s, %.0f %% of the smallest body",
        overlap.max_pair, overlap_unit(overlap.planar), 100.0 * overlap.max_pair / smallest_volume);
    out.push_back(text);
  }
  return out;
}

void RunSummary::on_step(const Model& model, const State& state, const StepReport& r) {
  if (r.failed) {
    ++failures;
    if (r.fell_back) ++fallbacks;
    stop_reason = r.failure;
    return;
  }
  ++steps;
  const int nc = static_cast<int>(r.contacts.size());
  contacts += nc;
  max_contacts = std::max(max_contacts, nc);
  enforced += std::count(r.enforced.begin(), r.enforced.end(), 1);
  max_penetration = std::max(max_penetration, r.max_penetration);
  overlap.planar = model.planar();
  overlap.add(r.step, r.time, total_overlap(model, state));
  energy_end = mechanical_energy(model, state, r.settings->gravity);
  energy_max = std::max(energy_max, energy_end);
  kinetic_max = std::max(kinetic_max, kinetic_energy(model, state));
  for (std::size_t b = 0; b < r.applied_force.size(); ++b)
    driven = driven || !r.applied_force[b].isZero(0.0) || !r.applied_torque[b].isZero(0.0);
  const long long traps = static_cast<long long>(r.sm_traps.size());
  sm_traps += traps;
  sm_traps_max = std::max(sm_traps_max, traps);
  sm_trap_steps += traps > 0;
  joints.resize(r.joints.size());
  for (std::size_t k = 0; k < r.joints.size(); ++k) {
    joints[k].max_position = std::max(joints[k].max_position, r.joints[k].position_error);
    joints[k].max_angle = std::max(joints[k].max_angle, r.joints[k].angle_error);
    joints[k].last = r.joints[k];
  }
  problem_size_sum += r.problem_size;
  max_solve_seconds = std::max(max_solve_seconds, r.timings.solve);
  if (r.cross_energy_need > 0.0) {
    const double ratio = r.cross_energy_gain / r.cross_energy_need;
    if (!r.cross_energy_refused)
      cross_energy_ratio_kept = std::max(cross_energy_ratio_kept, ratio);
    else if (cross_energy_ratio_refused == 0.0 || ratio < cross_energy_ratio_refused)
      cross_energy_ratio_refused = ratio;
  }
  if (r.problem_size > 0) {
    ++solves;
    if (r.fell_back) ++fallbacks;
    iterations += r.solve.iterations;
    max_problem_size = std::max(max_problem_size, r.problem_size);
    max_residual = std::max(max_residual, r.solve.residual);
    solve_seconds += r.timings.solve;
    ++answered_by[r.solve.solver];
    if (!r.solve.solved()) {
      ++unsolved;
      over_budget += r.time_budget_spent;
      iteration_budget += r.iteration_budget_spent;
      unsolved_residual = std::max(unsolved_residual, r.solve.residual);
    }
    if (r.dropped_cross_constraints > 0) ++dropped_cross;
    if (r.cross_energy_refused) ++cross_energy;
  }
  if (r.primary_leaves > 0) {
    ++primary_searches;
    primary_leaves += r.primary_leaves;
    primaries_moved += r.primaries_moved > 0;
    primary_unresolved += r.primary_search_unresolved;
  }
}

namespace {
nlohmann::json vec(const Vec3& v) {
  return {v.x(), v.y(), v.z()};
}
double real_time_factor(const Simulator& sim, const RunInfo& info) {
  return info.wall_seconds > 0.0 ? sim.state().time / info.wall_seconds : 0.0;
}
}  // namespace

nlohmann::json summary_json(const RunInfo& info, const RunSummary& s, const Simulator& sim) {
  nlohmann::json j;
  j["scene"] = info.scene;
  j["completed"] = s.stop_reason.empty();
  if (!s.stop_reason.empty()) j["stop_reason"] = s.stop_reason;
  j["steps"] = s.steps;
  j["requested_steps"] = info.requested_steps;
  j["h"] = sim.settings().h;
  j["simulated_seconds"] = sim.state().time;
  j["wall_seconds"] = info.wall_seconds;
  j["real_time_factor"] = real_time_factor(sim, info);
  j["contacts_per_step"] = s.steps ? double(s.contacts) / double(s.steps) : 0.0;
  j["max_contacts"] = s.max_contacts;
  j["enforced_per_step"] = s.steps ? double(s.enforced) / double(s.steps) : 0.0;
  j["formulation"] = to_string(sim.settings().formulation);
  j["contact_model"] = to_string(sim.settings().contact_model);
  j["solver"] = sim.settings().solver;
  j["fallbacks"] = sim.settings().fallbacks;
  j["solves"] = s.solves;
  j["solver_failures"] = s.failures;
  j["fallback_steps"] = s.fallbacks;
  j["answered_by"] = s.answered_by;
  j["unsolved_steps"] = s.unsolved;
  j["over_budget_steps"] = s.over_budget;
  j["iteration_budget_steps"] = s.iteration_budget;
  j["unsolved_max_residual"] = s.unsolved_residual;
  j["dropped_cross_steps"] = s.dropped_cross;
  j["cross_energy_steps"] = s.cross_energy;
  j["primaries"] = to_string(sim.settings().primaries);
  if (sim.settings().primaries == Primaries::Several)
    j["primary_search"] = {{"steps", s.primary_searches},
                           {"leaves", s.primary_leaves},
                           {"steps_moved", s.primaries_moved},
                           {"steps_unresolved", s.primary_unresolved}};
  j["iterations_per_solve"] = s.solves ? double(s.iterations) / double(s.solves) : 0.0;
  j["max_problem_size"] = s.max_problem_size;
  j["max_residual"] = s.max_residual;
  j["solve_seconds"] = s.solve_seconds;
  j["max_penetration"] = s.max_penetration;
  j["overlap"] = overlap_json(s.overlap);
  j["energy"] = {{"start", s.energy_start},
                 {"max", s.energy_max},
                 {"end", s.energy_end},
                 {"driven", s.driven}};
  std::vector<std::string> warnings = s.warnings;
  for (const std::string& w : s.run_warnings()) warnings.push_back(w);
  j["warnings"] = warnings;
  j["sm_traps"] = {{"total", s.sm_traps},
                   {"per_step_mean", s.steps ? double(s.sm_traps) / double(s.steps) : 0.0},
                   {"per_step_max", s.sm_traps_max},
                   {"steps_with_traps", s.sm_trap_steps}};
  nlohmann::json bodies = nlohmann::json::array();
  for (std::size_t i = 0; i < sim.model().bodies.size(); ++i) {
    const BodyState& b = sim.state().bodies[i];
    const Quat& q = b.orientation;
    bodies.push_back({{"name", sim.model().bodies[i].name},
                      {"position", vec(b.position)},
                      {"orientation", {q.w(), q.x(), q.y(), q.z()}},
                      {"velocity", vec(b.velocity)},
                      {"angular_velocity", vec(b.angular_velocity)}});
  }
  j["bodies"] = bodies;
  if (!s.joints.empty()) {
    nlohmann::json joints = nlohmann::json::array();
    for (std::size_t k = 0; k < s.joints.size(); ++k) {
      const RunSummary::JointErrors& e = s.joints[k];
      joints.push_back({{"name", sim.model().joints[k].name},
                        {"max_position_error", e.max_position},
                        {"max_angle_error", e.max_angle},
                        {"final_position_error", e.last.position_error},
                        {"final_angle_error", e.last.angle_error},
                        {"final_angle", e.last.angle},
                        {"final_displacement", e.last.displacement}});
    }
    j["joints"] = joints;
  }
  return j;
}

void print_summary(std::ostream& out, const RunInfo& info, const RunSummary& s,
                   const Simulator& sim) {
  char line[512];
  auto emit = [&](const char* fmt, auto... args) {
    if constexpr (sizeof...(args) == 0) {
      out << fmt << '\n';  // a line without fields is not a format
    } else {
      std::snprintf(line, sizeof line, fmt, args...);
      out << line << '\n';
    }
  };
  emit("scene            %s", info.scene.c_str());
  emit("status           %s", s.stop_reason.empty() ? "completed" : "stopped");
  if (!s.stop_reason.empty())
    emit("stopped because  step %lld: %s", s.steps + 1, s.stop_reason.c_str());
  emit("steps            %lld of %lld (h = %g s)", s.steps, info.requested_steps, sim.settings().h);
  emit("simulated time   %.6g s", sim.state().time);
  emit("wall time        %.3f s (real-time factor %.2f)", info.wall_seconds,
       real_time_factor(sim, info));
  emit("contacts/step    %.2f (max %d, enforced %.2f/step)",
       s.steps ? double(s.contacts) / double(s.steps) : 0.0, s.max_contacts,
       s.steps ? double(s.enforced) / double(s.steps) : 0.0);
  emit("formulation      %s, contact model %s, solver %s", to_string(sim.settings().formulation),
       to_string(sim.settings().contact_model), sim.settings().solver.c_str());
  std::string answered;
  for (const auto& [name, count] : s.answered_by)
    answered += (answered.empty() ? "" : ", ") + name + " " + std::to_string(count);
  emit("solves           %lld (%s; max size %d, %.1f iterations/solve, max residual %.2e)",
       s.solves, answered.empty() ? "none" : answered.c_str(), s.max_problem_size,
       s.solves ? double(s.iterations) / double(s.solves) : 0.0, s.max_residual);
  emit("solver failures  %lld, fallbacks %lld", s.failures, s.fallbacks);
  if (s.unsolved > s.over_budget + s.iteration_budget)
    emit(
        "unsolved steps   %lld (no solver answered; on_failure continue took the best answer, "
        "approximate: residual up to %.2e)",
        s.unsolved - s.over_budget - s.iteration_budget, s.unsolved_residual);
  if (s.iteration_budget > 0)
    emit(
        "iteration budget %lld steps went on after %d iterations (approximate: residual up to "
        "%.2e)",
        s.iteration_budget, sim.settings().max_iterations, s.unsolved_residual);
  if (s.over_budget > 0)
    emit(
        "time budget      %lld steps went on with the best answer found in %g s (approximate: "
        "residual up to %.2e)",
        s.over_budget, sim.settings().time_budget, s.unsolved_residual);
  if (s.dropped_cross > 0)
    emit(
        "X dropped        %lld steps, solved without their X-constraints (%lld unsatisfiable "
        "with them, %lld whose answer added more than %g times the energy their overlaps need)",
        s.dropped_cross, s.dropped_cross - s.cross_energy, s.cross_energy, kCrossEnergyMargin);
  if (sim.settings().primaries == Primaries::Several)
    emit(
        "primary search   %lld steps, %lld LCPs; a primary moved off the largest gap in %lld, "
        "(4.13) unmet in %lld",
        s.primary_searches, s.primary_leaves, s.primaries_moved, s.primary_unresolved);
  emit("max penetration  %.3e m (enforced contacts)", s.max_penetration);
  out << overlap_lines(s.overlap, "", 17);
  emit("energy           start %.6g J, largest %.6g J, end %.6g J (kinetic + gravitational)",
       s.energy_start, s.energy_max, s.energy_end);
  for (const std::string& w : s.warnings) emit("warning          %s", w.c_str());
  for (const std::string& w : s.run_warnings()) emit("warning          %s", w.c_str());
  emit("SM traps         %lld (per step mean %.2f, max %lld; %lld steps with traps)", s.sm_traps,
       s.steps ? double(s.sm_traps) / double(s.steps) : 0.0, s.sm_traps_max, s.sm_trap_steps);
  if (!s.joints.empty()) {
    emit("joint errors     position (m) and angle (rad) about the constrained axes: max, final");
    for (std::size_t k = 0; k < s.joints.size(); ++k) {
      const RunSummary::JointErrors& e = s.joints[k];
      emit("  %-14s position %.3e, %.3e  angle %.3e, %.3e", sim.model().joints[k].name.c_str(),
           e.max_position, e.last.position_error, e.max_angle, e.last.angle_error);
    }
  }
  emit("final state      position (m), orientation (w x y z), velocity (m/s), angular (rad/s)");
  for (std::size_t i = 0; i < sim.model().bodies.size(); ++i) {
    if (sim.model().bodies[i].is_static) continue;
    const BodyState& b = sim.state().bodies[i];
    const Quat& q = b.orientation;
    emit("  %-14s p (% .6f % .6f % .6f)  q (% .6f % .6f % .6f % .6f)",
         sim.model().bodies[i].name.c_str(), b.position.x(), b.position.y(), b.position.z(), q.w(),
         q.x(), q.y(), q.z());
    emit("  %-14s v (% .6f % .6f % .6f)  w (% .6f % .6f % .6f)", "", b.velocity.x(), b.velocity.y(),
         b.velocity.z(), b.angular_velocity.x(), b.angular_velocity.y(), b.angular_velocity.z());
  }
}

}  // namespace pegsim::cli
