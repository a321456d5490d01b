#include "engine/collision/feasibility.hpp"

#include <cmath>

namespace pegsim {
namespace {

// x lies in the convex polytope P or less than `tolerance` outside each of its face planes.
bool within(const PosedPolytope& P, const Vec3& x, double tolerance) {
  for (int f = 0; f < static_cast<int>(P.shape.faces.size()); ++f)
    if (P.plane_distance(f, x) > tolerance) return false;
  return true;
}

}  // namespace

bool vertex_face_feasible(const Vec3& x, double psi, const FacePoint& nearest, const Vec3& eta,
                          const Settings& settings, double approach) {
  if (nearest.inside) return psi > -(settings.feasibility_depth + settings.h * approach);
  const Vec3 offset = x - nearest.point;
  const double lateral = (offset - eta.dot(offset) * eta).norm();
  return psi >= -settings.feasibility_depth - lateral * std::tan(settings.feasibility_angle);
}

bool vertex_edge_feasible(double psi, bool inside, double lateral, const Settings& settings,
                          double approach) {
  if (inside) return psi > -(settings.feasibility_depth + settings.h * approach);
  return psi >= -settings.feasibility_depth - lateral * std::tan(settings.feasibility_angle);
}

bool edge_edge_feasible(const PosedPolytope& A, const Vec3& c_a, const PosedPolytope& B,
                        const Vec3& c_b, const Vec3& normal, const Settings& settings) {
  const Vec3 offset = c_b - c_a;
  const double psi = normal.dot(offset);
  const double lateral = (offset - psi * normal).norm();
  if (psi >= -settings.feasibility_depth - lateral * std::tan(settings.feasibility_angle))
    return true;
  return within(B, c_a, settings.feasibility_depth) && within(A, c_b, settings.feasibility_depth);
}

}  // namespace pegsim
