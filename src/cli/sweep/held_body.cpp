#include "cli/sweep/held_body.hpp"

#include <algorithm>
#include <cmath>

#include "engine/dynamics/implicit_stage.hpp"

namespace pegsim::cli {
namespace {

// The piece of an implicit body whose surface holds `point` (world): the one whose function is
// nearest zero there.
int piece_at(const ImplicitBody& body, const BodyState& pose, const Vec3& point) {
  const Vec3 local = pose.orientation.conjugate() * (point - pose.position);
  int best = 0;
  double nearest = INFINITY;
  for (int p = 0; p < piece_count(body); ++p) {
    const double v = std::abs(convex_value(piece_convex(body, p), local));
    if (v < nearest) {
      nearest = v;
      best = p;
    }
  }
  return best;
}

}  // namespace

std::map<int, std::set<int>> parts_touched(const Model& model, const State& state,
                                           const StepReport& report, int held) {
  std::map<int, std::set<int>> touched;
  double largest = 0.0;
  for (double p : report.normal_impulse) largest = std::max(largest, p);
  ImplicitBody shape;
  const bool implicit =
      !report.implicit.empty() && implicit_body_shape(model.bodies[std::size_t(held)].shape, shape);
  for (std::size_t i = 0; i < report.contacts.size() && i < report.normal_impulse.size(); ++i) {
    const Contact& c = report.contacts[i];
    if (report.normal_impulse[i] < kHoldingFraction * largest ||
        (c.body_a != held && c.body_b != held))
      continue;
    const bool a = c.body_a == held;
    int part = std::max(0, a ? c.part_a : c.part_b);
    if (implicit) {
      const Vec3 point = a ? c.point_a : report.implicit[i].a2;
      part = piece_at(shape, state.bodies[std::size_t(held)], point);
    }
    touched[a ? c.body_b : c.body_a].insert(part);
  }
  return touched;
}

}  // namespace pegsim::cli
