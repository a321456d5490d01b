#include "engine/contact_models/constraint_groups.hpp"

#include <algorithm>

namespace pegsim {

void c_split(const std::vector<Contact>& contacts, std::vector<int>& members) {
  std::stable_partition(members.begin(), members.end(),
                        [&](int i) { return contacts[i].primary(); });
}

namespace {

bool same_group(const ConstraintSet& set, const ConstraintGroup& g, ConstraintKind kind,
                const std::vector<int>& members) {
  return g.kind == kind && g.count == static_cast<int>(members.size()) &&
         std::equal(members.begin(), members.end(), set.members.begin() + g.first);
}

}  // namespace

bool add_inter_contact(const std::vector<Contact>& contacts, ConstraintKind kind,
                       std::vector<int> members, ConstraintSet& set) {
  c_split(contacts, members);
  const auto iota_end =
      std::find_if(members.begin(), members.end(), [&](int i) { return !contacts[i].primary(); });
  if (iota_end == members.begin()) return false;
  const auto primary = std::max_element(
      members.begin(), iota_end, [&](int i, int j) { return contacts[i].gap < contacts[j].gap; });
  std::rotate(members.begin(), primary, primary + 1);
  std::sort(members.begin() + 1, members.end());  // one order per set: repeats are found
  if (members.size() == 1) kind = ConstraintKind::Unilateral;
  for (const ConstraintGroup& g : set.groups)
    if (same_group(set, g, kind, members)) return true;
  set.add(kind, members);
  return true;
}

}  // namespace pegsim
