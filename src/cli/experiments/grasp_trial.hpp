// One trial of the 2D grasp experiment (thesis §5.2.5-5.2.6): the generated scene stepped for
// its duration under one contact model, keeping the object's position after every step (the
// error against the ground truth ignores rotation, §5.2.5) and counting the SM traps at the
// fingertips (Fig. 5.19: the fingertip vertices trapped against the object's vertices).
#pragma once

#include <string>
#include <vector>

#include "cli/experiments/grasp_scene.hpp"

namespace pegsim::cli {

struct GraspTrial {
  GraspSetup setup;
  std::vector<Vec2> positions;  // the object's centroid at the start and after every step
  int steps = 0;                // steps taken
  bool finished = false;        // reached setup.duration
  std::string failure;          // why it stopped early: the step's failure or an explosion
  int steps_with_sm_traps = 0;
  // Steps with an SM trap between a distal link (a fingertip) and the object.
  int steps_with_fingertip_traps = 0;
  double max_penetration = 0.0;  // m, the deepest enforced contact over the run (StepReport)
};

// Runs one trial. Throws ExperimentError if the generated scene is refused (a bug).
GraspTrial run_grasp_trial(const GraspSetup& setup);

}  // namespace pegsim::cli
