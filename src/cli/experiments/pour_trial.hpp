// One trial of a pouring experiment (thesis §5.2.3-5.2.4): the generated scene stepped for its
// duration under one contact model, with the overlap error measured at the end of every step
// (journal paper: "At the end of each time step, the area of overlap among all polygons was
// computed"), the SM traps and contacts counted (Fig. 5.13, 5.15) and the solve timed (Fig. 5.16).
#pragma once

#include <string>
#include <vector>

#include "cli/experiments/pour_scene.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim::cli {

struct PourStep {
  double time = 0.0;
  int contacts = 0, sm_traps = 0, problem_size = 0;
  double overlap = 0.0;  // m^2 (2D) or m^3 (3D), at the end of the step
  double solve_seconds = 0.0;
};

struct PourTrial {
  PourSetup setup;
  int steps = 0;          // steps taken
  double end_time = 0.0;  // s
  bool finished = false;  // reached setup.duration
  std::string failure;    // why it stopped early: the step's failure or an explosion
  double mean_overlap = 0.0, max_overlap = 0.0;
  double mean_sm_traps = 0.0;
  int max_sm_traps = 0, steps_with_sm_traps = 0;
  double mean_contacts = 0.0, mean_problem_size = 0.0;
  double mean_solve_seconds = 0.0, max_solve_seconds = 0.0;
  int steps_without_x = 0;  // steps solved only after dropping their X-constraints (§4.2.3)
  // Of those, the steps whose answer with X-constraints was refused for the kinetic energy it
  // added (StepReport::cross_energy_refused); and the energy check's gain / need: its largest
  // over the answers kept with their X-constraints, its smallest over those refused (0 if none).
  int steps_x_energy = 0;
  double x_energy_ratio_kept = 0.0, x_energy_ratio_refused = 0.0;
  double max_speed = 0.0;  // m/s, the fastest present body at the end of a step
  // Settings::primaries = several: steps whose answer moved an I-constraint's primary off the
  // largest gap ((4.13) broken by the thesis' choice), and steps no leaf met (4.13) on.
  int steps_primaries_moved = 0, steps_primaries_unresolved = 0;
  std::vector<PourStep> series;  // every step, when asked for
};

// A body faster than this has "exploded" (thesis §5.2.3): a body poured from 2.2 m, or one
// that fell past the container for the whole 5 s, stays below 60 m/s.
constexpr double kExplodedSpeed = 100.0;  // m/s

// Height along `up` (-gravity, unit) of the lowest point of the static bodies: the box's
// underside. A body whose centre is below it has left the box through the floor or over a
// wall (docs/limitations.md), and the trial stops ("left the box").
double box_bottom(const Model& model, const State& state, const Vec3& up);
// The first present dynamic body whose centre is below `bottom`, or -1.
int body_below(const Model& model, const State& state, const Vec3& up, double bottom);

// The fastest present body (-1 if none) and its speed; a non-finite speed is the fastest.
int fastest_body(const Model& model, const State& state, double& speed);

// Runs one trial. Throws ExperimentError if the generated scene is refused (a bug).
PourTrial run_pour_trial(const PourSetup& setup, bool keep_series);

}  // namespace pegsim::cli
