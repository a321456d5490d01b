// Implicit PD drives (beyond RPIsim, whose Script 7 PD effort is explicit): a PD controller
// with PdJointSpec::implicit is not a wrench added at the start of the step but a compliant row
// of the joints' Schur block, like joint damping (joint_damping.hpp). Its effort is taken at
// the end of the step,
//   e = kp (x_d(t + h) - x - h x'^{+}) + kd (x_d'(t + h) - x'^{+}),
// backward Euler of I x'' = e, so that any gains are stable at any h (the explicit effort needs
// h kd / I < 2 and lags wherever the load the joint carries changes within a step).
#pragma once

#include <vector>

#include "engine/kinematics/joint_rows.hpp"

namespace pegsim {

// Appends one row per implicit PD drive of model.controllers: the drive's axis as the damping
// row's (G^T nu = -x'), with JointRow::damping = kd + h kp and JointRow::violation =
// h (kp (x_d(t + h) - x) + kd x_d'(t + h)) / (kd + h kp), so that the row's equation
// G^T nu^{+} + p / (h (kd + h kp)) = -violation / h is e = -p / h above.
void joint_drive_rows(const Model& model, const State& state, double h,
                      std::vector<JointRow>& rows);

// The effort (N m or N, positive along the coordinate) of a drive row's impulse p over a step.
inline double drive_effort(double impulse, double h) {
  return -impulse / h;
}

}  // namespace pegsim
