// A joint between two bodies, or a body and the world (thesis §2.2.3, Tables 2.1-2.3).
#pragma once

#include <limits>
#include <string>

#include "engine/core/math.hpp"

namespace pegsim {

// Which relative motions the joint leaves free; its z axis is the joint axis.
enum class JointType {
  Fixed,        // none
  Revolute,     // rotation about z
  Prismatic,    // translation along z
  Cylindrical,  // rotation about and translation along z
  Spherical,    // every rotation about the anchor
};

// Bounds on a free joint coordinate (beyond RPIsim, whose joints have none: user guide §4.4.1).
// Infinite bounds are absent; a finite one becomes a unilateral row of the LCP.
struct JointLimit {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool any() const {
    return lower > -std::numeric_limits<double>::infinity() ||
           upper < std::numeric_limits<double>::infinity();
  }
};

struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  int body_a = -1;  // -1: the world
  int body_b = -1;
  // The joint frame {J_a} in A's body frame (in the world frame when body_a is the world) and
  // {J_b} in B's; the two coincide when the joint is satisfied.
  Vec3 anchor_a = Vec3::Zero(), anchor_b = Vec3::Zero();
  Quat frame_a = Quat::Identity(), frame_b = Quat::Identity();
  // Limits on the free coordinates of joint_coordinates(): the angle (rad; revolute,
  // cylindrical) and the displacement (m; prismatic, cylindrical).
  JointLimit angle_limit, displacement_limit;
  // The angle at which the two frames coincide: joint_coordinates() reports angle_offset plus
  // the turn of {J_b} from {J_a} in (-pi, pi], so that a joint whose range is not about zero
  // (a robot file's, e.g. [-0.02, 3.75] rad) keeps its own zero and its whole range.
  double angle_offset = 0.0;  // rad
  // Joint-space viscous damping on the free relative motion: torque -c * (omega_b - omega_a)
  // on the free rotation axes (N m s/rad; revolute, cylindrical, spherical) and force
  // -c * (v_b - v_a) along the free translation (N s/m; prismatic, cylindrical).
  double angular_damping = 0.0, linear_damping = 0.0;
};

// Which free coordinates a type has (the complement of its Table 2.1 mask).
inline bool has_free_rotation(JointType t) {
  return t == JointType::Revolute || t == JointType::Cylindrical || t == JointType::Spherical;
}
inline bool has_free_angle(JointType t) {
  return t == JointType::Revolute || t == JointType::Cylindrical;
}
inline bool has_free_translation(JointType t) {
  return t == JointType::Prismatic || t == JointType::Cylindrical;
}

const char* to_string(JointType t);
bool parse_joint_type(const std::string& name, JointType& out);

}  // namespace pegsim
