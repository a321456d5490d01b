// The two-body set-ups of seed 002's chapter 5 under the volumetric contact model, shared by its
// experiments (volumetric_incline, volumetric_spin, volumetric_rolling) and the benchmarks.
// Slopes are gravity turned by the slope's angle over a level floor, which is the same motion.
#pragma once

#include "engine/dynamics/simulator.hpp"

namespace pegsim::cli {

// Test 1: a block of 1 x 0.5 x 0.5 m and 1 kg, mu = 0.5, on `degrees` (downhill +x), sunk to
// where the default layers carry its weight.
Simulator volumetric_block_on_slope(double degrees);

// Test 2: a disc (a 128-gon prism, R = 0.25 m, H = 0.05 m, 1 kg, mu = 0.6) resting on the floor
// where the default layers carry it, spinning at 5 pi rad/s; the floor's spin speed `spin_speed`
// (0: Coulomb's law).
Simulator volumetric_spinning_disc(double spin_speed);

// Test 3: a solid cylinder (R = 0.25 m, length 1 m, 1 kg, mu = 0.6) down 15 degrees: a prism of
// `facets` sides lying across the slope, a facet on the floor, touching, both layers of
// `stiffness` (N/m^3); or (`facets` 0) the disc in the plane, on layers of 2e7 N/m^2.
Simulator volumetric_cylinder_on_slope(int facets, double stiffness);

}  // namespace pegsim::cli
