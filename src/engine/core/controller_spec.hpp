// Controllers described as data (scene files' "controllers"): the Simulator builds the runtime
// controllers (engine/controllers) from these, so every program that steps a Model runs them.
#pragma once

#include <limits>
#include <utility>
#include <vector>

#include "engine/core/joint.hpp"
#include "engine/core/math.hpp"

namespace pegsim {

// A target for a joint coordinate as a function of time t (s).
struct Trajectory {
  enum class Kind { Constant, Sinusoid, Waypoints };
  Kind kind = Kind::Constant;
  double value = 0.0;  // Constant
  // Sinusoid: offset + amplitude sin(angular_frequency t + phase).
  double offset = 0.0, amplitude = 0.0, angular_frequency = 0.0, phase = 0.0;
  // Waypoints (t, value), t strictly ascending: linear in between, held outside.
  std::vector<std::pair<double, double>> waypoints;
};

// A joint-space PD controller (thesis §6.5, Script 7): effort
//   kp (target(t) - x) + kd (target'(t) - x')
// on the joint's free coordinate x (angle of a revolute or cylindrical joint, displacement of a
// prismatic one, or of a cylindrical one when `displacement` is set), applied as equal and
// opposite torques (forces) about (along) the joint axis on body b and body a.
struct PdJointSpec {
  int joint = -1;
  bool displacement = false;  // control the displacement of a cylindrical joint, not its angle
  double kp = 0.0;            // N m / rad or N / m
  double kd = 0.0;            // N m s / rad or N s / m
  double max_effort = std::numeric_limits<double>::infinity();  // |effort| clamp (explicit only)
  Trajectory target;
  // Taken at the end of the step as a compliant joint row (engine/formulation/joint_drives.hpp):
  // stable for any gains; no max_effort. Explicit (false, Script 7's form): a wrench from the
  // state at the start of the step.
  bool implicit = false;
};

// Whether a PD spec acts on the joint's angle (else on its displacement): the angle unless the
// type has none or the spec asks for the displacement of a cylindrical joint.
inline bool drives_angle(const PdJointSpec& spec, JointType type) {
  return has_free_angle(type) && !(spec.displacement && has_free_translation(type));
}

// An external wrench on one body (world frame) during [start, end) of simulated time, applied
// at `point` (body frame; the centre of mass by default).
struct WrenchSpec {
  int body = -1;
  Vec3 force = Vec3::Zero();   // N
  Vec3 torque = Vec3::Zero();  // N m
  Vec3 point = Vec3::Zero();   // m, body frame
  double start = -std::numeric_limits<double>::infinity();
  double end = std::numeric_limits<double>::infinity();
};

struct ControllerSpecs {
  std::vector<PdJointSpec> pd_joints;
  std::vector<WrenchSpec> wrenches;
  bool empty() const { return pd_joints.empty() && wrenches.empty(); }
};

}  // namespace pegsim
