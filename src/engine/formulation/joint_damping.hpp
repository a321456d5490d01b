// Joint-space damping (beyond RPIsim): a viscous damper c on each free relative motion of a
// joint, taken implicitly as a compliant bilateral row of the joints' Schur block, so that a
// free joint's rate decays by 1 / (1 + c h / I) per step — backward Euler of
// I x'' = -c x' — stable for any c and h.
#pragma once

#include <vector>

#include "engine/kinematics/joint_rows.hpp"

namespace pegsim {

// Appends one damping row per free axis of every damped joint (violation 0, JointRow::damping
// = c): the joint axis z_a for a revolute/cylindrical angle, the three axes of {J_a} for a
// spherical joint (N m s/rad), and z_a at the origin of {J_b} for a translation (N s/m).
void joint_damping_rows(const Model& model, const State& state, std::vector<JointRow>& rows);

}  // namespace pegsim
