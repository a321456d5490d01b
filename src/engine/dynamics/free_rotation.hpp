// The angular part of the free velocity: Euler's equations J w' = tau - w x J w over one step
// (thesis (2.7)), with the gyroscopic term explicit as in (2.30) or implicit.
#pragma once

#include "engine/core/body.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// The world angular velocity after a step of h under the body's torque (state.torque) and no
// contact. Explicit: w + h J^-1 (tau - w x J w), all at the step's start (2.30). Implicit:
// backward Euler J_b (w' - w_b) = h (tau_b - w' x J_b w') in the body frame, solved by
// Newton's method from w_b, so that a torque-free body's kinetic energy and |L| do not grow.
Vec3 free_angular_velocity(const Body& body, const BodyState& state, double h, Gyroscopic g);

}  // namespace pegsim
