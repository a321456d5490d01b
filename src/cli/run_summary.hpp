// Statistics of a run, gathered by observing the simulator, and their text / JSON forms.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_overlap.hpp"
#include "engine/dynamics/simulator.hpp"

namespace pegsim::cli {

class RunSummary : public StepObserver {
 public:
  // The initial state, before the first step: its overlap counts toward the run's largest,
  // its energy is the reference, and what is amiss in it becomes a warning.
  void start(const Model& model, const State& state, const Settings& settings);
  void on_step(const Model& model, const State& state, const StepReport& report) override;

  long long steps = 0;
  long long contacts = 0;  // summed over steps
  int max_contacts = 0;
  long long enforced = 0;          // summed over steps
  long long solves = 0;            // steps that solved an LCP
  long long failures = 0;          // steps no solver answered
  long long fallbacks = 0;         // steps answered by a fallback (or failed after trying one)
  long long unsolved = 0;          // steps no solver answered, continued (on_failure: continue)
  long long over_budget = 0;       // of those, steps whose solve ran out of Settings::time_budget
  long long iteration_budget = 0;  // of those, steps that spent Settings::iteration_budget
  double unsolved_residual = 0.0;  // the largest natural residual the unsolved steps went on with
  long long dropped_cross = 0;     // steps solved only without their X-constraints (§4.2.3)
  long long cross_energy = 0;      // of those, steps whose answer added too much energy
  // The energy check's gain / need (StepReport::cross_energy_gain, _need): its largest over the
  // answers kept with their X-constraints, its smallest over those refused (0 if none).
  double cross_energy_ratio_kept = 0.0, cross_energy_ratio_refused = 0.0;
  // Settings::primaries = several: steps that searched (some I-constraint had two or more
  // C_iota contacts), the LCPs they solved, steps whose answer moved a primary off the largest
  // gap, and steps where no leaf met (4.13).
  long long primary_searches = 0, primary_leaves = 0, primaries_moved = 0, primary_unresolved = 0;
  long long iterations = 0;  // summed over solved steps
  int max_problem_size = 0;
  long long problem_size_sum = 0;  // rows, summed over steps
  double max_residual = 0.0;       // largest accepted natural-map residual
  double max_penetration = 0.0;    // deepest negative gap of an enforced contact, m
  // The exact overlap of every body pair after each step (metrics/overlap.hpp), which sees
  // what max_penetration does not: bodies passing through each other with no enforced contact.
  PairOverlapRecord overlap;
  // SM traps (StepReport::sm_traps, thesis Fig. 4.1, 5.13): summed over steps, the most in one
  // step, and the steps with one.
  long long sm_traps = 0, sm_traps_max = 0, sm_trap_steps = 0;
  double solve_seconds = 0.0, max_solve_seconds = 0.0;
  std::map<std::string, long long> answered_by;  // solver name -> steps it answered
  std::string stop_reason;                       // empty when the run completed
  // Per joint: constraint error (position m, angle rad) at the end of each step, its maximum
  // over the run and its final value, and the joint's final coordinates.
  struct JointErrors {
    double max_position = 0.0, max_angle = 0.0;
    JointStepReport last;
  };
  std::vector<JointErrors> joints;
  // Mechanical energy (dynamics/scene_checks.hpp) at the start, its largest and its last value,
  // J; `driven`: a controller or an applied wrench may have done work, so a rise is no fault.
  double energy_start = 0.0, energy_max = 0.0, energy_end = 0.0;
  double kinetic_max = 0.0;  // the largest kinetic energy, the scale a rise is judged on
  bool driven = false;
  double smallest_volume = 0.0;       // of the model's dynamic bodies (m^3, 2D: m^2)
  std::vector<std::string> warnings;  // scene_warnings of the initial state

  // Warnings about the run as a whole, for a run that ended: energy that rose above the start
  // by more than a tenth of the largest kinetic energy with nothing driving it (a pendulum's
  // semi-implicit steps oscillate by about 0.1 %), and a gross overlap.
  std::vector<std::string> run_warnings() const;
};

struct RunInfo {
  std::string scene;
  double wall_seconds = 0.0;
  long long requested_steps = 0;
};

nlohmann::json summary_json(const RunInfo& info, const RunSummary& s, const Simulator& sim);
void print_summary(std::ostream& out, const RunInfo& info, const RunSummary& s,
                   const Simulator& sim);

}  // namespace pegsim::cli
