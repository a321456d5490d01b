// The orientation of a contact's linearized friction cone (thesis (2.21)-(2.22)).
//
// The n_d directions d_j = rot(2 pi j / n_d about n) t0 span a polygon inscribed in the Coulomb
// disc: along a vertex it reaches mu p_n, between two it falls to mu p_n cos(pi / n_d). With a
// fixed t0 the friction a body gets then depends on its heading (n_d = 7: 10 % less between
// vertices, and a sliding body pulled towards the nearest vertex). Serving the motion instead,
// t0 is the direction that opposes the slip the step would produce without contact impulses:
// the relative tangential velocity of B over A at the contact, from the free velocities
// nu + M^-1 p_ext. A sliding contact's dissipation (6.1) then picks d_0 = -v_t exactly, so the
// friction is mu p_n along -v_t (Coulomb's law, heading kept); a contact at rest is pushed by
// the applied forces along v_t and resists with its full mu p_n there (no false slip).
#pragma once

#include "engine/core/math.hpp"

namespace pegsim {

// Below this tangential speed (m/s) the free motion does not slide and t0 is the fixed
// any_perpendicular(n): a body resting on level ground, with nothing pushing it sideways.
constexpr double kFrictionBasisStillSpeed = 1e-6;

// t0 for a contact of unit normal n (from A onto B) whose relative velocity v_B - v_A at the
// contact point under the free motion is `relative_velocity`: -v_t / |v_t| with
// v_t = v - n (n . v), or any_perpendicular(n) when |v_t| <= kFrictionBasisStillSpeed.
Vec3 friction_basis(const Vec3& normal, const Vec3& relative_velocity);

}  // namespace pegsim
