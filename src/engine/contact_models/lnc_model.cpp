#include "engine/contact_models/lnc_model.hpp"

#include "engine/contact_models/constraint_groups.hpp"

namespace pegsim {
namespace {

// A vertex against a face or plane (3D), or against an edge or half-plane (2D, where (4.2)-
// (4.4) were first derived: a vertex near the two edges of a corner).
bool vertex_on_facet(const Contact& c) {
  const FeatureKind f = c.feature_a.kind;
  return c.feature_b.kind == FeatureKind::Vertex &&
         (f == FeatureKind::Face || f == FeatureKind::Plane || f == FeatureKind::Edge ||
          f == FeatureKind::HalfPlane);
}

bool same_vertex_and_body(const Contact& c1, const Contact& c2) {
  // Per convex part of a compound (§4.5): the facets of different parts are not alternatives.
  return c1.body_a == c2.body_a && c1.body_b == c2.body_b && c1.part_a == c2.part_a &&
         c1.part_b == c2.part_b && c1.feature_b.index == c2.feature_b.index;
}

}  // namespace

void lnc_model(const std::vector<Contact>& contacts, ConstraintSet& set) {
  set.clear();
  const int n = static_cast<int>(contacts.size());
  std::vector<char> taken(n, 0);
  std::vector<int> members;
  for (int i = 0; i < n; ++i) {
    if (taken[i]) continue;
    members.assign(1, i);
    if (vertex_on_facet(contacts[i])) {
      for (int j = i + 1; j < n; ++j) {
        if (vertex_on_facet(contacts[j]) && same_vertex_and_body(contacts[i], contacts[j])) {
          members.push_back(j);
          taken[j] = 1;
        }
      }
    }
    add_inter_contact(contacts, ConstraintKind::InterContact, members, set);  // (4.2)-(4.4)
  }
}

}  // namespace pegsim
