#include "engine/contact_models/contact_manifold.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pegsim {
namespace {

// The midpoint between the bodies' points: the same whichever body is A.
Vec3 midpoint(const Contact& c) {
  return c.point_a + 0.5 * c.gap * c.normal;
}

// The normal from the lower-numbered body of the pair.
Vec3 pair_normal(const Contact& c) {
  return c.body_a < c.body_b ? c.normal : Vec3(-c.normal);
}

// Scores within this fraction of the best are ties, which go to the first in detection order
// (vertices, then edges, by index): the choice then stays put while a resting pair jitters.
constexpr double kTie = 1e-3;

// The member of `group` (not yet among the kept from `first_kept` on) of the largest score.
template <typename Score>
int best_of(const std::vector<int>& group, const std::vector<int>& kept, std::size_t first_kept,
            Score score) {
  int best = -1;
  double best_score = 0.0;
  for (int i : group) {
    if (std::find(kept.begin() + static_cast<std::ptrdiff_t>(first_kept), kept.end(), i) !=
        kept.end())
      continue;
    const double s = score(i);
    if (best < 0 || s > best_score * (1.0 + kTie)) {
      best_score = s;
      best = i;
    }
  }
  return best;
}

// Appends to `kept` the `limit` points of `group` that keep the most of its hull, the deepest
// first: a corner left out can sink unseen (pile80 under the interactive preset with the first
// point chosen by geometry alone: two cubes 28 cm into each other). Gaps within `depth_tie` of
// the deepest count as equally deep, the farthest from the centre among them first: a choice by
// depth alone flips from step to step as a resting stack jitters, each flip starting a
// contact's impulse cold (stack10 under the preset, 1000 steps: the cubes' heights off by
// 4.4 mm rms by depth alone, 2.3 mm with a tie of 0.5 mm, 2.4 mm with every contact kept).
void keep_points(const std::vector<Contact>& contacts, const std::vector<int>& group, int limit,
                 double depth_tie, std::vector<int>& kept) {
  const std::size_t first = kept.size();
  auto at = [&](std::size_t k) { return midpoint(contacts[kept[first + k]]); };
  Vec3 centre = Vec3::Zero();
  for (int i : group) centre += midpoint(contacts[i]);
  centre /= static_cast<double>(group.size());
  double deepest = INFINITY;
  for (int i : group) deepest = std::min(deepest, contacts[i].gap);
  while (static_cast<int>(kept.size() - first) < limit) {
    const std::size_t have = kept.size() - first;
    int next = -1;
    if (have == 0) {  // scores > 0 for the deepest, 0 for the rest
      next = best_of(group, kept, first, [&](int i) {
        return contacts[i].gap <= deepest + depth_tie
                   ? 1.0 + (midpoint(contacts[i]) - centre).squaredNorm()
                   : 0.0;
      });
    } else if (have == 1) {
      next = best_of(group, kept, first,
                     [&](int i) { return (midpoint(contacts[i]) - at(0)).squaredNorm(); });
    } else if (have == 2) {
      next = best_of(group, kept, first, [&](int i) {
        return (at(1) - at(0)).cross(midpoint(contacts[i]) - at(0)).squaredNorm();
      });
    } else if (have == 3) {
      // A quadrilateral's area is half its diagonals' cross product; of the three ways the
      // new point closes one, the largest.
      next = best_of(group, kept, first, [&](int i) {
        const Vec3 c = midpoint(contacts[i]);
        return std::max({(at(1) - at(0)).cross(c - at(2)).squaredNorm(),
                         (at(2) - at(0)).cross(c - at(1)).squaredNorm(),
                         (c - at(0)).cross(at(2) - at(1)).squaredNorm()});
      });
    } else {
      next = best_of(group, kept, first, [&](int i) {
        const Vec3 c = midpoint(contacts[i]);
        double nearest = INFINITY;
        for (std::size_t k = 0; k < have; ++k)
          nearest = std::min(nearest, (c - at(k)).squaredNorm());
        return nearest;
      });
    }
    kept.push_back(next);
  }
}

}  // namespace

void reduce_manifolds(const std::vector<Contact>& contacts, int limit, double depth_tie,
                      std::vector<int>& enforced, ManifoldScratch& scratch) {
  if (limit <= 0 || static_cast<int>(enforced.size()) <= limit) return;
  // The contacts by unordered body pair, in their order within a pair.
  std::vector<int>& order = scratch.order;
  order = enforced;
  auto pair_key = [&](int i) {
    const Contact& c = contacts[i];
    return std::pair(std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int i, int j) { return pair_key(i) < pair_key(j); });
  std::vector<int>& kept = scratch.kept;
  std::vector<int>& group = scratch.group;
  kept.clear();
  for (std::size_t begin = 0, end = 0; begin < order.size(); begin = end) {
    end = begin + 1;
    while (end < order.size() && pair_key(order[end]) == pair_key(order[begin])) ++end;
    if (static_cast<int>(end - begin) <= limit) {
      kept.insert(kept.end(), order.begin() + static_cast<std::ptrdiff_t>(begin),
                  order.begin() + static_cast<std::ptrdiff_t>(end));
      continue;
    }
    // Manifolds: each unassigned contact opens one with the contacts whose normal is near its
    // own; an assigned contact is marked by -1 in `order`.
    for (std::size_t s = begin; s < end; ++s) {
      if (order[s] < 0) continue;
      const Vec3 n = pair_normal(contacts[order[s]]);
      group.clear();
      for (std::size_t k = s; k < end; ++k) {
        if (order[k] < 0 || pair_normal(contacts[order[k]]).dot(n) < kManifoldCosine) continue;
        group.push_back(order[k]);
        order[k] = -1;
      }
      if (static_cast<int>(group.size()) <= limit)
        kept.insert(kept.end(), group.begin(), group.end());
      else
        keep_points(contacts, group, limit, depth_tie, kept);
    }
  }
  std::sort(kept.begin(), kept.end());
  enforced.swap(kept);
}

}  // namespace pegsim
