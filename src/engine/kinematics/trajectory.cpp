#include "engine/kinematics/trajectory.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {

TrajectoryPoint evaluate(const Trajectory& tr, double t) {
  switch (tr.kind) {
    case Trajectory::Kind::Constant:
      return {tr.value, 0.0};
    case Trajectory::Kind::Sinusoid: {
      const double phase = tr.angular_frequency * t + tr.phase;
      return {tr.offset + tr.amplitude * std::sin(phase),
              tr.amplitude * tr.angular_frequency * std::cos(phase)};
    }
    case Trajectory::Kind::Waypoints: {
      const auto& w = tr.waypoints;
      if (w.empty()) return {};
      if (t <= w.front().first) return {w.front().second, 0.0};
      if (t >= w.back().first) return {w.back().second, 0.0};
      // First waypoint after t; the segment [k - 1, k] holds t.
      const auto k = std::upper_bound(w.begin(), w.end(), t,
                                      [](double x, const auto& p) { return x < p.first; });
      const auto& [t0, v0] = *(k - 1);
      const auto& [t1, v1] = *k;
      const double slope = (v1 - v0) / (t1 - t0);
      return {v0 + slope * (t - t0), slope};
    }
  }
  return {};
}

}  // namespace pegsim
