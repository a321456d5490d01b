// Stage 7: positions from the new twists (thesis (2.36) via the exponential map).
#pragma once

#include <vector>
#include "engine/core/model.hpp"

#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Sets every dynamic body's twist from `velocity` (6 per body, [v; w] world) and advances
// u += h v, q <- exp(h w_q / 2) (x) q, renormalised. w_q = w, except under Gyroscopic::Midpoint
// for a body that no enforced contact or joint holds this step (held[b] = 0): w plus its
// FreeRotation::rotation_correction, so that it turns by its midpoint rate and keeps L and T
// (formulation/free_rotation.hpp). A held body turns by the w its constraints were solved for,
// so that the gaps and joint rows the step predicted are the ones it reaches. Static bodies,
// and bodies not present at state.time (the start of the step), do not move and keep their
// twist.
void integrate_positions(const Model& model, const VecX& velocity, double h, Gyroscopic gyroscopic,
                         const std::vector<char>& held, State& state);

// Whether integrate_positions keeps every pose finite: finite velocities can still overflow
// |w| h (a body spun up past ~1e154 rad/s, e.g. by the explicit gyroscopic term of (2.30)),
// and the exponential map of an infinite angle is not a rotation.
bool poses_stay_finite(const Model& model, const VecX& velocity, double h, const State& state);

}  // namespace pegsim
