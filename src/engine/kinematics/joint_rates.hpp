// Time derivatives of a joint's free coordinates (joint_coordinates in joint_rows.hpp), from
// the bodies' twists: what a PD controller's derivative term, joint damping and joint limits
// act on.
#pragma once

#include "engine/kinematics/joint_rows.hpp"

namespace pegsim {

// angle: z_a . (omega_b - omega_a), rad/s. displacement: z_a . (v_b(P) - v_a(P)) at P = the
// origin of {J_b}, m/s (equal to d/dt [z_a . (o_b - o_a)] while the joint holds). Zero where
// the type has no such freedom.
JointCoordinates joint_rates(const State& state, const Joint& joint);

// The world point where a joint's translational effort acts (the origin of {J_b}), and each
// body's lever to it.
Vec3 joint_effort_point(const State& state, const Joint& joint);

}  // namespace pegsim
