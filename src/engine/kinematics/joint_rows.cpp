#include "engine/kinematics/joint_rows.hpp"

#include <cmath>

namespace pegsim {
namespace {

// Which of the position directions (x, y, z of frame a) and rotation axes a type constrains
// (Table 2.1).
struct Mask {
  bool position[3];
  bool rotation[3];
};

Mask mask_of(JointType type) {
  switch (type) {
    case JointType::Fixed:
      return {{true, true, true}, {true, true, true}};
    case JointType::Revolute:
      return {{true, true, true}, {true, true, false}};
    case JointType::Prismatic:
      return {{true, true, false}, {true, true, true}};
    case JointType::Cylindrical:
      return {{true, true, false}, {true, true, false}};
    case JointType::Spherical:
      return {{true, true, true}, {false, false, false}};
  }
  return {{false, false, false}, {false, false, false}};
}

// The rotation vector phi with R_a = exp(phi) R_b, to first order in the error: the axial
// vector of the skew part of R_a R_b^T (its time derivative is omega_a - omega_b).
Vec3 relative_rotation(const Mat3& axes_a, const Mat3& axes_b) {
  const Eigen::AngleAxisd aa(axes_a * axes_b.transpose());
  return aa.angle() * aa.axis();
}

// The rotation error of a joint along its constrained axes: the full relative rotation when
// all three are constrained; with z free, z_b x z_a (the part of phi that tilts the z axes).
Vec3 rotation_error(const Mask& m, const JointFrames& f) {
  if (m.rotation[2]) return relative_rotation(f.axes_a, f.axes_b);
  return f.axes_b.col(2).cross(f.axes_a.col(2));
}

}  // namespace

int dynamic_index(const Model& model, int body) {
  return body >= 0 && !model.bodies[body].is_static ? body : -1;
}

Joint make_joint(const State& state, JointType type, int body_a, int body_b, const Vec3& anchor,
                 const Vec3& axis) {
  Mat3 axes;
  axes.col(2) = axis.normalized();
  axes.col(0) = any_perpendicular(axes.col(2));
  axes.col(1) = axes.col(2).cross(axes.col(0));
  const Quat world_frame(axes);
  Joint j;
  j.type = type;
  j.body_a = body_a;
  j.body_b = body_b;
  auto attach = [&](int body, Vec3& local_anchor, Quat& local_frame) {
    if (body < 0) {
      local_anchor = anchor;
      local_frame = world_frame;
      return;
    }
    const BodyState& s = state.bodies[body];
    local_anchor = s.orientation.conjugate() * (anchor - s.position);
    local_frame = s.orientation.conjugate() * world_frame;
  };
  attach(body_a, j.anchor_a, j.frame_a);
  attach(body_b, j.anchor_b, j.frame_b);
  return j;
}

JointFrames joint_frames(const State& state, const Joint& j) {
  JointFrames f;
  auto place = [&](int body, const Vec3& anchor, const Quat& frame, Vec3& origin, Mat3& axes) {
    if (body < 0) {
      origin = anchor;
      axes = frame.toRotationMatrix();
      return;
    }
    const BodyState& s = state.bodies[body];
    origin = s.position + s.orientation * anchor;
    axes = (s.orientation * frame).toRotationMatrix();
  };
  place(j.body_a, j.anchor_a, j.frame_a, f.origin_a, f.axes_a);
  place(j.body_b, j.anchor_b, j.frame_b, f.origin_b, f.axes_b);
  return f;
}

void joint_rows(const Model& model, const State& state, std::vector<JointRow>& rows) {
  rows.clear();
  for (std::size_t k = 0; k < model.joints.size(); ++k) {
    const Joint& j = model.joints[k];
    const int a = dynamic_index(model, j.body_a), b = dynamic_index(model, j.body_b);
    if (a < 0 && b < 0) continue;
    const JointFrames f = joint_frames(state, j);
    const Mask m = mask_of(j.type);
    const Vec3 r_a = a >= 0 ? Vec3(f.origin_a - state.bodies[a].position) : Vec3::Zero();
    const Vec3 r_b = b >= 0 ? Vec3(f.origin_b - state.bodies[b].position) : Vec3::Zero();
    const Vec3 separation = f.origin_a - f.origin_b;
    const Vec3 phi = rotation_error(m, f);
    for (int axis = 0; axis < 3; ++axis) {
      const Vec3 d = f.axes_a.col(axis);
      if (m.position[axis]) {
        // [d; r_a x d] on A and [-d; r_b x -d] on B: G^T nu = d . (v(P_a) - v(P_b)).
        JointRow row{static_cast<int>(k), a, b, Vec6::Zero(), Vec6::Zero(), d.dot(separation)};
        row.G_a << d, r_a.cross(d);
        row.G_b << -d, r_b.cross(-d);
        rows.push_back(row);
      }
    }
    for (int axis = 0; axis < 3; ++axis) {
      const Vec3 e = f.axes_a.col(axis);
      if (m.rotation[axis]) {
        // [0; e] on A and [0; -e] on B: G^T nu = e . (omega_A - omega_B).
        JointRow row{static_cast<int>(k), a, b, Vec6::Zero(), Vec6::Zero(), e.dot(phi)};
        row.G_a << Vec3::Zero(), e;
        row.G_b << Vec3::Zero(), -e;
        rows.push_back(row);
      }
    }
  }
}

JointError joint_error(const State& state, const Joint& j) {
  const JointFrames f = joint_frames(state, j);
  const Mask m = mask_of(j.type);
  const Vec3 separation = f.axes_a.transpose() * (f.origin_a - f.origin_b);
  const Vec3 phi = f.axes_a.transpose() * rotation_error(m, f);
  JointError e;
  double p2 = 0.0, r2 = 0.0;
  for (int axis = 0; axis < 3; ++axis) {
    if (m.position[axis]) p2 += separation(axis) * separation(axis);
    if (m.rotation[axis]) r2 += phi(axis) * phi(axis);
  }
  e.position = std::sqrt(p2);
  e.angle = std::sqrt(r2);
  return e;
}

JointCoordinates joint_coordinates(const State& state, const Joint& j) {
  const JointFrames f = joint_frames(state, j);
  JointCoordinates c;
  const Vec3 z = f.axes_a.col(2);
  if (j.type == JointType::Revolute || j.type == JointType::Cylindrical) {
    const Vec3 xb = f.axes_b.col(0);
    c.angle =
        j.angle_offset + std::atan2(z.dot(f.axes_a.col(0).cross(xb)), f.axes_a.col(0).dot(xb));
  }
  if (j.type == JointType::Prismatic || j.type == JointType::Cylindrical)
    c.displacement = z.dot(f.origin_b - f.origin_a);
  return c;
}

}  // namespace pegsim
