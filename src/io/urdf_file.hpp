// Robot descriptions in URDF (read by urdfdom, the Debian package liburdfdom-dev): the links,
// each with every link welded to it by a fixed joint, as rigid bodies in their link frames,
// and the revolute, continuous and prismatic joints between them. Placing a robot in a scene
// is scene_robot.cpp's; docs/robots.md is the reference.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/joint.hpp"
#include "engine/core/shape.hpp"
#include "engine/core/visual_mesh.hpp"

namespace pegsim {

// One rigid body: a URDF link and the links fixed to it, in the first link's frame.
struct UrdfBody {
  std::string name;                // the link's
  std::vector<std::string> links;  // every URDF link it carries, its own first
  // The sum of the links' <inertial>s: mass (kg), centre of mass and inertia about it (link
  // axes). mass 0 when no link gives one.
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia = Mat3::Zero();
  std::vector<CompoundPart> parts;       // collision geometry (link frame); empty: none at all
  bool parts_from_visual = false;        // no <collision>: the <visual> geometry collides
  std::vector<VisualMesh::Part> visual;  // link frame
};

struct UrdfJoint {
  std::string name;
  JointType type = JointType::Revolute;  // Revolute (also "continuous") or Prismatic
  bool continuous = false;
  int parent = -1, child = -1;  // UrdfBody indices
  // The child link's frame in the parent body's frame at joint position 0.
  Quat rotation = Quat::Identity();
  Vec3 position = Vec3::Zero();
  Vec3 axis = Vec3::UnitX();  // unit, in the child link's frame
  JointLimit limit;           // rad or m; open for a continuous joint
  double damping = 0.0;       // N m s/rad or N s/m
};

struct UrdfRobot {
  std::string name;
  std::vector<UrdfBody> bodies;       // the root's first, every parent before its children
  std::vector<UrdfJoint> joints;      // in the same order as their child bodies
  std::vector<std::string> warnings;  // each naming the element: e.g. a mimic joint
};

// Reads `file`, resolving package:// URIs through `package_path` (package_uri.hpp). Throws
// SceneError naming the file and the element: not URDF (a xacro file, malformed XML), a
// planar or floating joint, a mesh that is missing or unreadable.
UrdfRobot read_urdf(const std::filesystem::path& file,
                    const std::vector<std::filesystem::path>& package_path);

}  // namespace pegsim
