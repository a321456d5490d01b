// What a scene may ask for (docs/scene-format.md, "Limits"): every count is checked against
// these before anything is allocated for it, and every state magnitude before a step uses it.
#pragma once

namespace pegsim {

// Sides of a cylinder or a regular polygon; points of a random polyhedron or polygon. A
// 1000-gon is round to 5e-6 of its radius; a polytope of 10^4 sides took 16 GB to build.
constexpr int kMaxShapeSides = 1000;
// Superquadrics (ellipsoids): the largest exponent p (p = 100 reaches within 1.1 % of the
// box's corners; |x / a|^p overflows not far beyond), and the tessellation's meridians by
// default (half as many parallels: 482 vertices); a superellipse's polygon has twice as many
// vertices by default.
constexpr double kMaxSmoothExponent = 100.0;
constexpr int kDefaultSmoothSegments = 32;
// n_d of the linearized friction cone: 64 is within 0.12 % of the round cone.
constexpr int kMaxFrictionDirections = 64;
// Bodies in one scene.
constexpr int kMaxBodies = 10000;
// The largest |coordinate| of a body's position (m), velocity (m/s) and angular velocity
// (rad/s): past it a step's arithmetic overflows (1.8e308 m) or h v no longer moves a position
// that large.
constexpr double kMaxStateMagnitude = 1e9;

}  // namespace pegsim
