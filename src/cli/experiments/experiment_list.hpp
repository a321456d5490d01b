// The experiments, one file each (registered in experiments.cpp).
#pragma once

#include "cli/experiments/experiment.hpp"

namespace pegsim::cli {

Experiment triangle_drop_experiment();
Experiment momentum_row_experiment();

}  // namespace pegsim::cli
