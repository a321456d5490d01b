#include "engine/contact_models/sm_traps.hpp"

#include <algorithm>
#include <tuple>

#include "engine/contact_models/standard_model.hpp"

namespace pegsim {
namespace {

// A feature that can be trapped: a vertex, or an edge.
bool trappable(FeatureKind k) {
  return k == FeatureKind::Vertex || k == FeatureKind::Edge;
}
// A facet of a polytope or polygon (face, edge, or a vertex); smooth surfaces are no corner.
bool facet(FeatureKind k) {
  return k == FeatureKind::Face || k == FeatureKind::Edge || k == FeatureKind::Vertex;
}

bool before(const SmTrapWorkspace::Entry& x, const SmTrapWorkspace::Entry& y) {
  return std::tie(x.body, x.part, x.kind, x.index, x.other_body, x.other_part, x.contact) <
         std::tie(y.body, y.part, y.kind, y.index, y.other_body, y.other_part, y.contact);
}

bool same_feature(const SmTrapWorkspace::Entry& x, const SmTrapWorkspace::Entry& y) {
  return x.body == y.body && x.part == y.part && x.kind == y.kind && x.index == y.index &&
         x.other_body == y.other_body && x.other_part == y.other_part;
}

}  // namespace

Vec3 trap_plane_normal(const Contact& contact, int body) {
  return body == contact.body_b ? contact.normal : Vec3(-contact.normal);
}

void find_sm_traps(const std::vector<Contact>& contacts, SmTrapWorkspace& workspace,
                   std::vector<SmTrap>& traps, std::vector<int>& trap_contacts, SmEnforce which) {
  traps.clear();
  trap_contacts.clear();
  std::vector<SmTrapWorkspace::Entry>& entries = workspace.entries;
  entries.clear();
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    if (!sm_enforces(c, which)) continue;
    const int ci = static_cast<int>(i);
    // Edge-edge contacts constrain both edges; vertex-face ones only the vertex.
    if (trappable(c.feature_b.kind) && facet(c.feature_a.kind))
      entries.push_back({c.body_b, static_cast<int>(c.feature_b.kind), c.feature_b.index, c.body_a,
                         ci, c.part_b, c.part_a});
    if (trappable(c.feature_a.kind) && facet(c.feature_b.kind))
      entries.push_back({c.body_a, static_cast<int>(c.feature_a.kind), c.feature_a.index, c.body_b,
                         ci, c.part_a, c.part_b});
  }
  std::sort(entries.begin(), entries.end(), before);

  for (std::size_t first = 0, end = 0; first < entries.size(); first = end) {
    end = first + 1;
    while (end < entries.size() && same_feature(entries[first], entries[end])) ++end;
    if (end - first < 2) continue;
    // Trapped when two of the feature's planes differ (Fig. 4.1).
    const int body = entries[first].body;
    bool trapped = false;
    for (std::size_t i = first; i < end && !trapped; ++i) {
      const Vec3 mi = trap_plane_normal(contacts[entries[i].contact], body);
      for (std::size_t j = i + 1; j < end && !trapped; ++j)
        trapped =
            1.0 - mi.dot(trap_plane_normal(contacts[entries[j].contact], body)) > kSameTrapPlane;
    }
    if (!trapped) continue;
    SmTrap t;
    t.body = body;
    t.feature = {static_cast<FeatureKind>(entries[first].kind), entries[first].index};
    t.other_body = entries[first].other_body;
    t.first = static_cast<int>(trap_contacts.size());
    t.count = static_cast<int>(end - first);
    for (std::size_t i = first; i < end; ++i) trap_contacts.push_back(entries[i].contact);
    traps.push_back(t);
  }
}

}  // namespace pegsim
