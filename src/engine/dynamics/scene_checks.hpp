// Checks of a model's state that say when a run's answer cannot be trusted, for the front ends
// to print beside it: an initial state that already interpenetrates or pulls joints apart, a
// step far longer than the scene's fastest time scale, and the mechanical energy whose rise
// over a run (with nothing applied from outside) marks a correction that added energy.
#pragma once

#include <string>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Kinetic energy of the dynamic bodies present at state.time, J: sum of 1/2 m v^2 +
// 1/2 w^T J_world w; and that plus the gravitational potential energy - m g . x.
double kinetic_energy(const Model& model, const State& state);
double mechanical_energy(const Model& model, const State& state, const Vec3& gravity);

// The largest distance of the shape from its body's origin (the centre of mass), m: a sphere's or
// circle's radius, a polytope's, polygon's or compound's bounding radius; 0 for planes.
double shape_radius(const Shape& s);

// The volume (in a planar model the area) of the smallest dynamic body, m^3 (m^2); 0 if none.
// An overlap of a pair that is a good part of it is gross, not a contact's tolerance.
double smallest_body_volume(const Model& model);

// One line per thing in the state or settings that will spoil the answer: a pair overlapping
// by more than kGrossOverlapFraction of the smallest body, a joint whose anchors are more than
// 1e-6 m apart, h longer than half the time sqrt(2 r / |g|) the smallest dynamic body (radius
// r) takes to fall through its own size. Empty when nothing is amiss.
std::vector<std::string> scene_warnings(const Model& model, const State& state,
                                        const Settings& settings);

// The fraction of the smallest body's volume above which an overlap is gross.
constexpr double kGrossOverlapFraction = 0.1;

}  // namespace pegsim
