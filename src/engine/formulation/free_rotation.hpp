// The angular part of the free velocity: Euler's equations J w' = tau - w x J w over one step
// (thesis (2.7)), with the gyroscopic term explicit as in (2.30), implicit (backward Euler), or
// by the energy-momentum midpoint rule on the rotation group (Gyroscopic::Midpoint).
#pragma once

#include "engine/core/body.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct FreeRotation {
  Vec3 angular_velocity;  // world w after the step, without contact
  // World vector added to the step's final w where the orientation is advanced
  // (integrate_positions): the orientation then turns by h (w^{l+1} + correction). Zero but
  // for Midpoint, where it is R w_{1/2} - w_gyro (w_gyro: w' without torque), so that a body
  // without contact turns by h w_{1/2}, the midpoint rate of the rule below.
  Vec3 rotation_correction = Vec3::Zero();
};

// One step of h under the body's torque (state.torque) and no contact.
//  - Explicit: w + h J^-1 (tau - w x J w), all at the step's start (2.30).
//  - Implicit: backward Euler J_b (w' - w_b) = h (tau_b - w' x J_b w') in the body frame,
//    solved by Newton's method: a torque-free body's kinetic energy and |L| never grow, but
//    they decay (h |w| = 1: |L| loses most of itself over 100 s).
//  - Midpoint: the midpoint Lie algorithm (Krysl 2005; an energy-momentum scheme in the sense
//    of Simo and Wong 1991). With body momentum L = J_b w_b, solve for the midpoint rate
//        w_{1/2} = J_b^-1 (L + L') / 2,   L' = exp(-h [w_{1/2}]x) L,
//    then R' = R exp(h [w_{1/2}]x) and w' = R' J_b^-1 (L' + h R'^T tau) in the world (the
//    body rates of the step's end, in the end's frame). Without torque the world
//    momentum R' L' = R exp(h [w_{1/2}]x) exp(-h [w_{1/2}]x) L = R L is kept exactly, |L'| = |L|
//    (a rotation), and so is the energy: L' - L is perpendicular to the axis w_{1/2} of the
//    rotation that takes L to L', so (L' - L) . J_b^-1 (L' + L) = 2 (L' - L) . w_{1/2} = 0.
//    The rule is symmetric (h -> -h swaps L and L') and second order; Newton's method finds
//    w_{1/2} to roundoff for any h |w| tried (up to 2).
FreeRotation free_rotation(const Body& body, const BodyState& state, double h, Gyroscopic g);

}  // namespace pegsim
