// Stage 7: positions from the new twists (thesis (2.36) via the exponential map).
#pragma once

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Sets every dynamic body's twist from `velocity` (6 per body, [v; w] world) and advances
// u += h v, q <- exp(h w / 2) (x) q, renormalised. Static bodies, and bodies not present at
// state.time (the start of the step), do not move and keep their twist.
void integrate_positions(const Model& model, const VecX& velocity, double h, State& state);

}  // namespace pegsim
