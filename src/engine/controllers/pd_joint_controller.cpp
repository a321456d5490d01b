#include "engine/controllers/pd_joint_controller.hpp"

#include <algorithm>
#include <cmath>

#include "engine/kinematics/joint_rates.hpp"
#include "engine/kinematics/trajectory.hpp"

namespace pegsim {

double PdJointController::effort(const Model& model, const State& state) const {
  const Joint& joint = model.joints.at(spec_.joint);
  const TrajectoryPoint target = evaluate(spec_.target, state.time);
  const JointCoordinates x = joint_coordinates(state, joint);
  const JointCoordinates rate = joint_rates(state, joint);
  double error, error_rate;
  if (drives_angle(spec_, joint.type)) {
    error = std::remainder(target.value - x.angle, 2.0 * M_PI);
    error_rate = target.rate - rate.angle;
  } else {
    error = target.value - x.displacement;
    error_rate = target.rate - rate.displacement;
  }
  const double e = spec_.kp * error + spec_.kd * error_rate;
  return std::clamp(e, -spec_.max_effort, spec_.max_effort);
}

void PdJointController::control(const Model& model, const State& state, const Settings&,
                                WrenchSink& out) {
  const Joint& joint = model.joints.at(spec_.joint);
  const double e = effort(model, state);
  const Vec3 z = joint_frames(state, joint).axes_a.col(2);
  if (drives_angle(spec_, joint.type)) {
    out.add(joint.body_b, Vec3::Zero(), e * z);
    out.add(joint.body_a, Vec3::Zero(), -e * z);
  } else {
    const Vec3 p = joint_effort_point(state, joint);
    out.add_at(joint.body_b, e * z, p);
    out.add_at(joint.body_a, -e * z, p);
  }
}

}  // namespace pegsim
