#include "engine/contact_models/standard_model.hpp"

#include <cmath>

namespace pegsim {

bool same_physical_contact(const Contact& c1, const Contact& c2) {
  const bool same_order = c1.body_a == c2.body_a && c1.body_b == c2.body_b;
  const bool swapped = c1.body_a == c2.body_b && c1.body_b == c2.body_a;
  if (!same_order && !swapped) return false;
  if (std::abs(c1.gap - c2.gap) > kSamePoint) return false;
  // Swapping A and B negates the normal and keeps the gap, so the midpoint is invariant.
  const Vec3 m1 = c1.point_a + 0.5 * c1.gap * c1.normal;
  const Vec3 m2 = c2.point_a + 0.5 * c2.gap * c2.normal;
  if ((m1 - m2).norm() > kSamePoint) return false;
  const double cosine = c1.normal.dot(c2.normal) * (swapped ? -1.0 : 1.0);
  return 1.0 - cosine <= kSameNormal;
}

void standard_model(const std::vector<Contact>& contacts, std::vector<int>& enforced,
                    std::vector<int>& duplicate_of, SmEnforce which) {
  enforced.clear();
  duplicate_of.assign(contacts.size(), -1);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (!sm_enforces(contacts[i], which)) continue;
    for (int j : enforced) {
      if (same_physical_contact(contacts[j], contacts[i])) {
        duplicate_of[i] = j;
        break;
      }
    }
    if (duplicate_of[i] < 0) enforced.push_back(static_cast<int>(i));
  }
}

}  // namespace pegsim
