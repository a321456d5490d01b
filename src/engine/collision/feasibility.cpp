#include "engine/collision/feasibility.hpp"

#include <cmath>

namespace pegsim {

bool vertex_face_feasible(const Vec3& x, double psi, const FacePoint& nearest, const Vec3& eta,
                          const Settings& settings) {
  if (nearest.inside) return psi > -settings.feasibility_depth;
  const Vec3 offset = x - nearest.point;
  const double lateral = (offset - eta.dot(offset) * eta).norm();
  return psi >= -settings.feasibility_depth - lateral * std::tan(settings.feasibility_angle);
}

bool vertex_edge_feasible(double psi, bool inside, double lateral, const Settings& settings) {
  if (inside) return psi > -settings.feasibility_depth;
  return psi >= -settings.feasibility_depth - lateral * std::tan(settings.feasibility_angle);
}

bool edge_edge_feasible(double psi, const Vec3& offset, const Vec3& normal,
                        const Settings& settings) {
  const double lateral = (offset - normal.dot(offset) * normal).norm();
  return psi >= -settings.feasibility_depth - lateral * std::tan(settings.feasibility_angle);
}

}  // namespace pegsim
