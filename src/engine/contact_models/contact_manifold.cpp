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

// The point not yet taken of the largest score.
template <typename Score>
int best_of(const std::vector<char>& taken, Score score) {
  int best = -1;
  double best_score = 0.0;
  for (int k = 0; k < static_cast<int>(taken.size()); ++k) {
    if (taken[std::size_t(k)]) continue;
    const double s = score(k);
    if (best < 0 || s > best_score * (1.0 + kTie)) {
      best_score = s;
      best = k;
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
                 double depth_tie, ManifoldScratch& scratch, std::vector<int>& kept) {
  std::vector<Vec3>& p = scratch.points;  // the group's midpoints, then the chosen ones' in at
  std::vector<char>& taken = scratch.taken;
  p.clear();
  Vec3 centre = Vec3::Zero();
  double deepest = INFINITY;
  for (int i : group) {
    p.push_back(midpoint(contacts[i]));
    centre += p.back();
    deepest = std::min(deepest, contacts[i].gap);
  }
  centre /= static_cast<double>(group.size());
  taken.assign(group.size(), 0);
  Vec3 at[4];
  for (int have = 0; have < limit; ++have) {
    int next = -1;
    if (have == 0) {  // scores > 0 for the deepest, 0 for the rest
      next = best_of(taken, [&](int k) {
        return contacts[group[std::size_t(k)]].gap <= deepest + depth_tie
                   ? 1.0 + (p[std::size_t(k)] - centre).squaredNorm()
                   : 0.0;
      });
    } else if (have == 1) {
      next = best_of(taken, [&](int k) { return (p[std::size_t(k)] - at[0]).squaredNorm(); });
    } else if (have == 2) {
      next = best_of(taken, [&](int k) {
        return (at[1] - at[0]).cross(p[std::size_t(k)] - at[0]).squaredNorm();
      });
    } else if (have == 3) {
      // A quadrilateral's area is half its diagonals' cross product; of the three ways the
      // new point closes one, the largest.
      next = best_of(taken, [&](int k) {
        const Vec3& c = p[std::size_t(k)];
        return std::max({(at[1] - at[0]).cross(c - at[2]).squaredNorm(),
                         (at[2] - at[0]).cross(c - at[1]).squaredNorm(),
                         (c - at[0]).cross(at[2] - at[1]).squaredNorm()});
      });
    } else {
      next = best_of(taken, [&](int k) {
        double nearest = INFINITY;
        for (std::size_t j = 0; j < taken.size(); ++j)
          if (taken[j]) nearest = std::min(nearest, (p[std::size_t(k)] - p[j]).squaredNorm());
        return nearest;
      });
    }
    taken[std::size_t(next)] = 1;
    if (have < 4) at[have] = p[std::size_t(next)];
    kept.push_back(group[std::size_t(next)]);
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
        keep_points(contacts, group, limit, depth_tie, scratch, kept);
    }
  }
  std::sort(kept.begin(), kept.end());
  enforced.swap(kept);
}

}  // namespace pegsim
