// Broad phase: sort-and-sweep on AABBs inflated by epsilon (thesis §2.4.1, Fig. 2.8).
#pragma once

#include <utility>
#include <vector>

#include "engine/collision/aabb.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct BodyPair {
  int a = -1, b = -1;  // a < b
  bool operator==(const BodyPair&) const = default;
};

// Reusable buffers, so that the step loop does not allocate once warmed up.
struct BroadPhase {
  std::vector<Aabb> boxes;      // one per body, inflated by epsilon / 2 each side
  std::vector<int> order;       // present bodies sorted by box.lo along the sweep axis
  std::vector<BodyPair> pairs;  // candidate pairs, sorted (a, b) for determinism

  // Fills `boxes` and `pairs` with every pair of bodies present at state.time
  // (Body::present_at) whose inflated boxes overlap and that Model::may_collide allows.
  void update(const Model& model, const State& state, double epsilon);
};

}  // namespace pegsim
