// A turn about the world's z axis, the rotation of the tests' planar and stacked bodies.
#pragma once

#include "engine/core/math.hpp"

namespace pegsim::test {

inline Quat about_z(double angle) {
  return Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
}

}  // namespace pegsim::test
