#include "engine/dynamics/primary_search.hpp"

#include <algorithm>

namespace pegsim {
namespace {

bool tried(const PrimarySearch& s) {
  const std::size_t n = s.choice.size();
  for (std::size_t at = 0; at + n <= s.visited.size(); at += n)
    if (std::equal(s.choice.begin(), s.choice.end(), s.visited.begin() + at)) return true;
  return false;
}

int candidates(const PrimarySearch& s, int k) {
  const int end = k + 1 < static_cast<int>(s.cand_first.size()) ? s.cand_first[k + 1]
                                                                : static_cast<int>(s.cand.size());
  return end - s.cand_first[k];
}

// The contact (index into the step's contacts) of group k's candidate c.
int candidate_contact(const PrimarySearch& s, int k, int c) {
  const ConstraintGroup& g = s.base.groups[s.groups[k]];
  return s.base.members[g.first + s.cand[s.cand_first[k] + c]];
}

}  // namespace

bool begin_primary_search(const std::vector<Contact>& contacts, const ConstraintSet& set,
                          PrimarySearch& s) {
  s.groups.clear();
  s.cand_first.clear();
  s.cand.clear();
  s.visited.clear();
  for (int gi = 0; gi < static_cast<int>(set.groups.size()); ++gi) {
    const ConstraintGroup& g = set.groups[gi];
    if (g.kind != ConstraintKind::InterContact) continue;  // X: no force of its own (§4.2.3)
    const int first = static_cast<int>(s.cand.size());
    for (int k = 0; k < g.count; ++k)
      if (contacts[set.members[g.first + k]].primary()) s.cand.push_back(k);
    if (static_cast<int>(s.cand.size()) - first < 2) {
      s.cand.resize(first);
      continue;
    }
    s.groups.push_back(gi);
    s.cand_first.push_back(first);
  }
  s.choice.assign(s.groups.size(), 0);
  if (s.groups.empty()) return false;
  s.base = set;
  return true;
}

double primary_violation(const ConstraintSet& set, const ConstraintGroup& g,
                         const std::vector<double>& end_rate, double h, double impulse_floor) {
  if (!(g.impulse > impulse_floor)) return 0.0;
  double largest = end_rate[set.primary(g)];
  for (int k = g.first + 1; k < g.first + g.count; ++k)
    largest = std::max(largest, end_rate[set.members[k]]);
  const double below = h * (largest - end_rate[set.primary(g)]);
  return below > kGapTie ? below : 0.0;
}

bool next_primary_leaf(const std::vector<double>& violation, const std::vector<double>& end_rate,
                       PrimarySearch& s) {
  // Each group that breaks (4.13) moves to the candidate that ended highest, other than the
  // one it has (if the largest gap is a C_kappa contact's, the current primary may be it).
  for (std::size_t k = 0; k < s.groups.size(); ++k) {
    if (violation[k] == 0.0) continue;
    const int n = candidates(s, static_cast<int>(k));
    int best = -1;
    for (int c = 0; c < n; ++c) {
      if (c == s.choice[k]) continue;
      if (best < 0 || end_rate[candidate_contact(s, static_cast<int>(k), c)] >
                          end_rate[candidate_contact(s, static_cast<int>(k), best)])
        best = c;
    }
    s.choice[k] = best;
  }
  if (!tried(s)) return true;
  // Else the next untried leaf, counting the choices as the digits of a mixed-radix number.
  const std::size_t total = s.visited.size() / std::max<std::size_t>(1, s.choice.size());
  for (std::size_t step = 0; step <= total; ++step) {
    for (std::size_t k = s.choice.size(); k-- > 0;) {
      if (++s.choice[k] < candidates(s, static_cast<int>(k))) break;
      s.choice[k] = 0;
    }
    if (!tried(s)) return true;
  }
  return false;
}

void leaf_constraints(const PrimarySearch& s, ConstraintSet& set) {
  set = s.base;
  for (std::size_t k = 0; k < s.groups.size(); ++k) {
    const ConstraintGroup& g = set.groups[s.groups[k]];
    const int at = s.cand[s.cand_first[k] + s.choice[k]];
    auto first = set.members.begin() + g.first;
    std::rotate(first, first + at, first + at + 1);  // the chosen one first, the rest in order
  }
}

void mark_leaf_visited(PrimarySearch& s) {
  s.visited.insert(s.visited.end(), s.choice.begin(), s.choice.end());
}

}  // namespace pegsim
