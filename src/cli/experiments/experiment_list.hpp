// The experiments, one file each (registered in experiments.cpp).
#pragma once

#include "cli/experiments/experiment.hpp"

namespace pegsim::cli {

Experiment triangle_drop_experiment();
Experiment box_stack_2d_experiment();
Experiment momentum_row_experiment();
Experiment polygon_pour_experiment();
Experiment polyhedra_pour_experiment();
Experiment grasp_2d_experiment();
Experiment rotation_error_experiment();
Experiment friction_heading_experiment();
Experiment free_rotation_experiment();
Experiment rolling_disc_experiment();
Experiment sphere_on_spheres_experiment();
Experiment quasi_rigid_disc_experiment();
Experiment gear_grasp_experiment();
Experiment volumetric_incline_experiment();
Experiment volumetric_spin_experiment();
Experiment volumetric_rolling_experiment();
Experiment volumetric_conforming_experiment();

}  // namespace pegsim::cli
