// Small linear-algebra vocabulary shared by the whole engine.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pegsim {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;
// Unit quaternion; Eigen's constructor takes (w, x, y, z), real part first as in the data standard.
using Quat = Eigen::Quaterniond;

// [k]x of thesis eq. (2.1): skew(a) * b == a.cross(b).
inline Mat3 skew(const Vec3& a) {
  Mat3 s;
  s << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return s;
}

// v's direction, or +z for the zero vector (a normal where geometry gives none).
inline Vec3 unit_or_z(const Vec3& v) {
  const double n = v.norm();
  return n > 0.0 ? Vec3(v / n) : Vec3::UnitZ();
}

// Any unit vector perpendicular to the unit vector n (deterministic choice).
inline Vec3 any_perpendicular(const Vec3& n) {
  const Vec3 helper = std::abs(n.x()) < 0.57735 ? Vec3::UnitX() : Vec3::UnitY();
  return n.cross(helper).normalized();
}

}  // namespace pegsim
