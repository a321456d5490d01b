// The bilateral constraint rows of the joints (thesis §2.2.3): the Jacobian columns of
// Table 2.1 and the violation along each, so that a step enforces (2.28),
//   psi_b + h G_b^T nu^{l+1} = 0.
#pragma once

#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct JointRow {
  int joint = -1;
  int body_a = -1, body_b = -1;  // dynamic body index, -1 for the world or a static body
  Vec6 G_a = Vec6::Zero(), G_b = Vec6::Zero();  // [linear; angular] on A and on B
  double violation = 0.0;  // psi_b of this row: m (position rows) or rad (rotation rows)
  // > 0 for a damping row (joint_damping.hpp): G^T nu + p / (damping h) = 0, i.e. the impulse
  // p = -damping h G^T nu^{l+1} of a viscous damper, implicit in the new velocity; and for an
  // implicit PD drive's row (joint_drives.hpp), with its target in `violation`.
  double damping = 0.0;
  bool drive = false;  // an implicit PD drive's row
};

// The dynamic body `body` is, or -1 for the world (-1) or a static body: the index a joint row
// names for each of its ends.
int dynamic_index(const Model& model, int body);

// A joint whose two frames coincide, in `state`, at `anchor` (world) with z along `axis`
// (world, normalized here); body_a may be -1 (the world).
Joint make_joint(const State& state, JointType type, int body_a, int body_b, const Vec3& anchor,
                 const Vec3& axis);

// The joint frames in the world: origin and axes of {J_a} and {J_b}.
struct JointFrames {
  Vec3 origin_a, origin_b;
  Mat3 axes_a, axes_b;  // columns x, y, z
};
JointFrames joint_frames(const State& state, const Joint& joint);

// Appends the rows of every joint with at least one dynamic body, joint by joint.
void joint_rows(const Model& model, const State& state, std::vector<JointRow>& rows);

// How far a joint is from satisfied: the distance between its origins along the constrained
// directions (m) and the rotation error about the constrained axes (rad).
struct JointError {
  double position = 0.0;
  double angle = 0.0;
};
JointError joint_error(const State& state, const Joint& joint);

// The joint's free coordinate: the angle of x_b from x_a about z_a (revolute, cylindrical;
// rad in (-pi, pi] plus the joint's angle_offset) and the displacement of origin_b from origin_a
// along z_a (prismatic, cylindrical; m). Zero where the type has no such freedom.
struct JointCoordinates {
  double angle = 0.0;
  double displacement = 0.0;
};
JointCoordinates joint_coordinates(const State& state, const Joint& joint);

}  // namespace pegsim
