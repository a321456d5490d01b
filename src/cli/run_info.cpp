#include "cli/run_info.hpp"

#include <algorithm>
#include <cstdio>

namespace pegsim::cli {

std::vector<SettingDifference> settings_differences(const Settings& a, const Settings& b) {
  std::vector<SettingDifference> out;
  auto compare = [&](const char* name, const nlohmann::json& from, const nlohmann::json& to) {
    if (from != to) out.push_back({name, from, to});
  };
  auto vec = [](const Vec3& v) { return nlohmann::json{v.x(), v.y(), v.z()}; };
  compare("h", a.h, b.h);
  compare("gravity", vec(a.gravity), vec(b.gravity));
  compare("epsilon", a.epsilon, b.epsilon);
  compare("eps_theta", a.eps_theta, b.eps_theta);
  compare("feasibility_depth", a.feasibility_depth, b.feasibility_depth);
  compare("feasibility_angle", a.feasibility_angle, b.feasibility_angle);
  compare("friction_directions", a.friction_directions, b.friction_directions);
  compare("formulation", to_string(a.formulation), to_string(b.formulation));
  compare("contact_model", to_string(a.contact_model), to_string(b.contact_model));
  compare("sm_enforce", to_string(a.sm_enforce), to_string(b.sm_enforce));
  compare("gyroscopic", to_string(a.gyroscopic), to_string(b.gyroscopic));
  compare("primaries", to_string(a.primaries), to_string(b.primaries));
  compare("cone_orientation", to_string(a.cone_orientation), to_string(b.cone_orientation));
  compare("solver", a.solver, b.solver);
  compare("fallbacks", a.fallbacks, b.fallbacks);
  compare("tolerance", a.tolerance, b.tolerance);
  compare("max_iterations", a.max_iterations, b.max_iterations);
  compare("on_failure", to_string(a.on_failure), to_string(b.on_failure));
  compare("time_budget", a.time_budget, b.time_budget);
  compare("iteration_budget", a.iteration_budget, b.iteration_budget);
  compare("contacts_per_pair", a.contacts_per_pair, b.contacts_per_pair);
  compare("warm_start", a.warm_start, b.warm_start);
  compare("joint_correction", a.joint_correction, b.joint_correction);
  compare("joint_position_tolerance", a.joint_position_tolerance, b.joint_position_tolerance);
  compare("joint_velocity_tolerance", a.joint_velocity_tolerance, b.joint_velocity_tolerance);
  return out;
}

namespace {

// A setting's value as the text lines show it: names bare, lists comma-separated ("none" for
// no fallbacks), numbers as JSON writes them (the shortest form that reads back exactly).
std::string setting_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    if (v.empty()) return "none";
    // Names as the command line takes them ("pgs,psor"), numbers as a vector "(0, 0, -9.81)".
    const bool numbers = v.front().is_number();
    std::string out;
    for (const nlohmann::json& e : v)
      out += (out.empty() ? "" : numbers ? ", " : ",") + setting_text(e);
    return numbers ? "(" + out + ")" : out;
  }
  return v.dump();
}

}  // namespace

RunFileStats run_file_stats(const RunReader& reader) {
  RunFileStats s;
  const RunHeader& h = reader.header();
  s.scene = h.scene_name;
  s.program = h.program;
  s.created = h.created;
  s.frames = reader.frame_count();
  s.bodies = static_cast<std::int64_t>(h.bodies.size());
  s.h = h.settings.h;
  s.settings = h.settings;
  s.settings_changes = reader.settings_changes();
  const std::vector<double>& t = reader.times();
  if (!t.empty()) s.duration = t.back() - t.front();

  // Whole-run columns in two reads, not a frame at a time.
  const std::vector<RecordedSolve> solves = reader.solver_reports();
  long long iterations = 0, accepted = 0;
  for (const RecordedSolve& r : solves) {
    s.max_penetration = std::max(s.max_penetration, r.max_penetration);
    if (r.failed) ++s.failures;
    if (r.fell_back) ++s.fallbacks;
    if (r.problem_size == 0) continue;
    ++s.solves;
    if (r.failed) continue;
    ++accepted;
    ++s.answered_by[r.solver];
    iterations += r.iterations;
    s.iterations_max = std::max(s.iterations_max, r.iterations);
    s.residual_max = std::max(s.residual_max, r.residual);
    if (r.status && *r.status != SolveStatus::Solved) {
      ++s.approximate;
      s.approximate_residual = std::max(s.approximate_residual, r.residual);
    }
  }
  if (accepted) s.iterations_mean = double(iterations) / double(accepted);

  const std::vector<std::int64_t> offsets = reader.contact_offsets();
  for (std::size_t k = 1; k + 1 < offsets.size(); ++k)
    s.contacts_max = std::max<long long>(s.contacts_max, offsets[k + 1] - offsets[k]);
  if (s.frames > 1) s.contacts_mean = double(offsets.back() - offsets[1]) / double(s.frames - 1);

  s.has_sm_traps = reader.has_sm_traps();
  const std::vector<std::int64_t> traps = reader.sm_trap_offsets();
  for (std::size_t k = 1; k + 1 < traps.size(); ++k) {
    const long long n = traps[k + 1] - traps[k];
    s.sm_traps_total += n;
    s.sm_traps_max = std::max(s.sm_traps_max, n);
    s.sm_trap_steps += n > 0;
  }
  if (s.frames > 1) s.sm_traps_mean = double(s.sm_traps_total) / double(s.frames - 1);
  s.overlap = run_pair_overlap(reader);
  return s;
}

nlohmann::json stats_json(const RunFileStats& s) {
  nlohmann::json changes = nlohmann::json::array();
  const Settings* before = &s.settings;
  for (const SettingsChange& c : s.settings_changes) {
    nlohmann::json changed = nlohmann::json::object();
    for (const SettingDifference& d : settings_differences(*before, c.settings))
      changed[d.name] = {{"from", d.from}, {"to", d.to}};
    before = &c.settings;
    changes.push_back({{"frame", c.frame},
                       {"h", c.settings.h},
                       {"solver", c.settings.solver},
                       {"epsilon", c.settings.epsilon},
                       {"friction_directions", c.settings.friction_directions},
                       {"formulation", to_string(c.settings.formulation)},
                       {"contact_model", to_string(c.settings.contact_model)},
                       {"changed", changed}});
  }
  return {{"scene", s.scene},
          {"program", s.program},
          {"created", s.created},
          {"frames", s.frames},
          {"steps", s.frames > 0 ? s.frames - 1 : 0},
          {"bodies", s.bodies},
          {"h", s.h},
          {"formulation", to_string(s.settings.formulation)},
          {"contact_model", to_string(s.settings.contact_model)},
          {"solver", s.settings.solver},
          {"settings_changes", changes},
          {"duration", s.duration},
          {"solves", s.solves},
          {"answered_by", s.answered_by},
          {"solver_failures", s.failures},
          {"fallback_steps", s.fallbacks},
          {"iterations_mean", s.iterations_mean},
          {"iterations_max", s.iterations_max},
          {"residual_max", s.residual_max},
          {"approximate_steps", s.approximate},
          {"approximate_max_residual", s.approximate_residual},
          {"contacts_per_step_mean", s.contacts_mean},
          {"contacts_per_step_max", s.contacts_max},
          {"max_penetration", s.max_penetration},
          {"overlap", overlap_json(s.overlap)},
          {"sm_traps",
           {{"recorded", s.has_sm_traps},
            {"total", s.sm_traps_total},
            {"per_step_mean", s.sm_traps_mean},
            {"per_step_max", s.sm_traps_max},
            {"steps_with_traps", s.sm_trap_steps}}}};
}

void print_stats(std::ostream& out, const std::string& file, const RunFileStats& s) {
  char line[256];
  out << file << ": scene " << s.scene << ", recorded by " << s.program << " at " << s.created
      << '\n';
  std::snprintf(line, sizeof line, "  frames          %lld (%lld steps of h = %g s, %g s)\n",
                static_cast<long long>(s.frames),
                static_cast<long long>(std::max<std::int64_t>(s.frames - 1, 0)), s.h, s.duration);
  out << line;
  out << "  settings        formulation " << to_string(s.settings.formulation) << ", contact model "
      << to_string(s.settings.contact_model) << ", solver " << s.settings.solver << '\n';
  const Settings* before = &s.settings;
  for (const SettingsChange& c : s.settings_changes) {
    out << "  settings from   frame " << c.frame << ':';
    const std::vector<SettingDifference> changed = settings_differences(*before, c.settings);
    for (std::size_t k = 0; k < changed.size(); ++k)
      out << (k ? ", " : " ") << changed[k].name << ' ' << setting_text(changed[k].from) << " -> "
          << setting_text(changed[k].to);
    if (changed.empty()) out << " (none changed)";
    out << '\n';
    before = &c.settings;
  }
  out << "  bodies          " << s.bodies << '\n';
  std::snprintf(line, sizeof line, "  contacts/step   mean %.2f, max %lld\n", s.contacts_mean,
                s.contacts_max);
  out << line;
  out << "  solves          " << s.solves;
  if (!s.answered_by.empty()) {
    out << " (";
    bool first = true;
    for (const auto& [name, n] : s.answered_by) {
      out << (first ? "" : ", ") << name << " " << n;
      first = false;
    }
    out << ")";
  }
  out << '\n';
  out << "  solver failures " << s.failures << '\n';
  out << "  fallbacks       " << s.fallbacks << '\n';
  std::snprintf(line, sizeof line, "  iterations      mean %.2f, max %d\n", s.iterations_mean,
                s.iterations_max);
  out << line;
  std::snprintf(line, sizeof line, "  residual        max %.3g\n", s.residual_max);
  out << line;
  if (s.approximate > 0) {
    std::snprintf(line, sizeof line,
                  "  approximate     %lld steps went on with an answer short of the tolerance "
                  "(residual up to %.3g)\n",
                  s.approximate, s.approximate_residual);
    out << line;
  }
  std::snprintf(line, sizeof line, "  max penetration %.3g m (enforced contacts)\n",
                s.max_penetration);
  out << line;
  out << overlap_lines(s.overlap, "  ", 16);
  if (s.has_sm_traps)
    std::snprintf(line, sizeof line,
                  "  SM traps        %lld (per step mean %.2f, max %lld; %lld steps with traps)\n",
                  s.sm_traps_total, s.sm_traps_mean, s.sm_traps_max, s.sm_trap_steps);
  else
    std::snprintf(line, sizeof line, "  SM traps        not recorded in this file\n");
  out << line;
}

}  // namespace pegsim::cli
