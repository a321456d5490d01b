// A joint between two bodies, or a body and the world (thesis §2.2.3, Tables 2.1-2.3).
#pragma once

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

struct Joint {
  std::string name;
  JointType type = JointType::Revolute;
  int body_a = -1;                     // -1: the world
  int body_b = -1;
  // The joint frame {J_a} in A's body frame (in the world frame when body_a is the world) and
  // {J_b} in B's; the two coincide when the joint is satisfied.
  Vec3 anchor_a = Vec3::Zero(), anchor_b = Vec3::Zero();
  Quat frame_a = Quat::Identity(), frame_b = Quat::Identity();
};

const char* to_string(JointType t);
bool parse_joint_type(const std::string& name, JointType& out);

}  // namespace pegsim
