// What the dynamics tests compare between steps and runs: the totals of a step's contact
// impulses, and how far two states' poses lie apart.
#pragma once

#include <algorithm>

#include "engine/core/state.hpp"
#include "engine/dynamics/step_report.hpp"

namespace pegsim::test {

inline Vec3 total_friction(const StepReport& r) {
  Vec3 f = Vec3::Zero();
  for (const Vec3& p : r.friction_impulse) f += p;
  return f;
}

inline double total_normal(const StepReport& r) {
  double p = 0.0;
  for (double pn : r.normal_impulse) p += pn;
  return p;
}

// Largest difference of position and orientation (quaternion entries) over the bodies.
inline double pose_difference(const State& a, const State& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    d = std::max(d, (a.bodies[i].position - b.bodies[i].position).cwiseAbs().maxCoeff());
    d = std::max(d, (a.bodies[i].orientation.coeffs() - b.bodies[i].orientation.coeffs())
                        .cwiseAbs()
                        .maxCoeff());
  }
  return d;
}

}  // namespace pegsim::test
