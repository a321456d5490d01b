#include "engine/formulation/friction_basis.hpp"

namespace pegsim {

Vec3 friction_basis(const Vec3& normal, const Vec3& relative_velocity) {
  const Vec3 slip = relative_velocity - normal * normal.dot(relative_velocity);
  const double speed = slip.norm();
  if (!(speed > kFrictionBasisStillSpeed)) return any_perpendicular(normal);
  return -slip / speed;
}

}  // namespace pegsim
