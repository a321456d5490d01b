#include "engine/formulation/joint_drives.hpp"

#include <cmath>

#include "engine/kinematics/trajectory.hpp"

namespace pegsim {

void joint_drive_rows(const Model& model, const State& state, double h,
                      std::vector<JointRow>& rows) {
  for (const PdJointSpec& drive : model.controllers.pd_joints) {
    if (!drive.implicit) continue;
    const Joint& j = model.joints[drive.joint];
    const int a = dynamic_index(model, j.body_a), b = dynamic_index(model, j.body_b);
    if (a < 0 && b < 0) continue;
    const JointFrames f = joint_frames(state, j);
    const Vec3 z = f.axes_a.col(2);
    const JointCoordinates x = joint_coordinates(state, j);
    const TrajectoryPoint target = evaluate(drive.target, state.time + h);
    const double compliance_gain = drive.kd + h * drive.kp;
    // A drive without gains exerts nothing: no row (a zero gain would be an infinite
    // compliance).
    if (!(compliance_gain > 0.0)) continue;
    JointRow row;
    row.joint = drive.joint;
    row.body_a = a;
    row.body_b = b;
    row.damping = compliance_gain;
    row.drive = true;
    double error;
    if (!drives_angle(drive, j.type)) {
      // G^T nu = z . (v_a(P) - v_b(P)) at P = origin of {J_b}: minus the displacement rate.
      const Vec3 r_a = a >= 0 ? Vec3(f.origin_b - state.bodies[a].position) : Vec3::Zero();
      const Vec3 r_b = b >= 0 ? Vec3(f.origin_b - state.bodies[b].position) : Vec3::Zero();
      row.G_a << z, r_a.cross(z);
      row.G_b << -z, r_b.cross(-z);
      error = target.value - x.displacement;
    } else {
      // G^T nu = z . (omega_a - omega_b): minus the angle's rate.
      row.G_a << Vec3::Zero(), z;
      row.G_b << Vec3::Zero(), -z;
      error = std::remainder(target.value - x.angle, 2.0 * M_PI);
    }
    row.violation = h * (drive.kp * error + drive.kd * target.rate) / compliance_gain;
    rows.push_back(row);
  }
}

}  // namespace pegsim
