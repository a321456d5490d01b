// Sort-and-sweep broad phase (thesis §2.4.1, Fig. 2.8): boxes are sorted by their lower bound
// along one axis, and each box is only compared with the boxes that start before it ends.
#include "engine/collision/broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim {
namespace {

// The axis along which the finite box centres are most spread out (lowest axis on ties).
// Infinite boxes (planes) have no centre along an unbounded axis and are left out.
int sweep_axis(const std::vector<Aabb>& boxes, const std::vector<int>& present) {
  int best = 0;
  double best_spread = -1.0;
  for (int k = 0; k < 3; ++k) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (int i : present) {
      const Aabb& b = boxes[i];
      if (!std::isfinite(b.lo[k]) || !std::isfinite(b.hi[k])) continue;
      const double c = 0.5 * (b.lo[k] + b.hi[k]);
      lo = std::min(lo, c);
      hi = std::max(hi, c);
    }
    const double spread = hi >= lo ? hi - lo : 0.0;
    if (spread > best_spread) {
      best_spread = spread;
      best = k;
    }
  }
  return best;
}

}  // namespace

void BroadPhase::update(const Model& model, const State& state, double epsilon) {
  const int n = static_cast<int>(model.bodies.size());
  boxes.resize(n);
  order.clear();
  pairs.clear();
  for (int i = 0; i < n; ++i) {
    boxes[i] = compute_aabb(model.bodies[i], state.bodies[i], 0.5 * epsilon);
    // A body that has not appeared yet (Body::appear_time) is left out of the sweep.
    if (model.bodies[i].present_at(state.time)) order.push_back(i);
  }

  const int k = sweep_axis(boxes, order);
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    return boxes[i].lo[k] < boxes[j].lo[k] || (boxes[i].lo[k] == boxes[j].lo[k] && i < j);
  });

  const int m = static_cast<int>(order.size());
  for (int s = 0; s < m; ++s) {
    const int i = order[s];
    for (int t = s + 1; t < m && boxes[order[t]].lo[k] <= boxes[i].hi[k]; ++t) {
      const int j = order[t];
      if (!boxes[i].overlaps(boxes[j])) continue;
      const int a = std::min(i, j), b = std::max(i, j);
      if (model.may_collide(a, b)) pairs.push_back({a, b});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const BodyPair& p, const BodyPair& q) {
    return p.a < q.a || (p.a == q.a && p.b < q.b);
  });
}

}  // namespace pegsim
