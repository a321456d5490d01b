// Evaluation of a Trajectory (engine/core/controller_spec.hpp): the target and its rate.
#pragma once

#include "engine/core/controller_spec.hpp"

namespace pegsim {

struct TrajectoryPoint {
  double value = 0.0;
  double rate = 0.0;  // d value / dt
};

TrajectoryPoint evaluate(const Trajectory& trajectory, double t);

}  // namespace pegsim
