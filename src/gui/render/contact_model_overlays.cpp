// The overlays of the contact models (thesis Ch. 4): SM traps and the constraint groups a
// model made of the step's contacts.
#include <algorithm>
#include <cstdint>

#include "engine/contact_models/sm_traps.hpp"
#include "gui/render/feature_geometry.hpp"
#include "gui/render/overlay.hpp"

namespace pegsim::gui {
namespace {

const BodyState* state_of(const OverlayContext& c, int body) {
  return body >= 0 && std::size_t(body) < c.frame.bodies.size() &&
                 std::size_t(body) < c.model.bodies.size()
             ? &c.frame.bodies[std::size_t(body)]
             : nullptr;
}

// A feature as drawn: a vertex as a marker, an edge as a segment, a face as its outline.
void draw_feature(const OverlayContext& c, int body, const Feature& feature, const Rgb& color,
                  const Sketch::Marker& marker, Sketch& out) {
  const BodyState* s = state_of(c, body);
  if (!s) return;
  const std::vector<Vec3> p = feature_points(c.model.bodies[std::size_t(body)], *s, feature);
  if (p.size() == 1) out.markers.push_back({p[0], color, marker.size, marker.ring});
  for (std::size_t k = 0; p.size() > 1 && k < p.size(); ++k) {
    if (p.size() == 2 && k == 1) break;  // an edge is one segment, a face a closed loop
    out.segments.push_back({p[k], p[(k + 1) % p.size()], color});
  }
}

// SM traps (thesis §4.1, Fig. 4.1, 5.12): the trapped vertex (or edge) in red, and for each
// of its contacts the facet of the other body that traps it (pink outline) with the normal
// of the half-space that contact keeps the feature in (trap_plane_normal).
class SmTraps : public Overlay {
 public:
  std::string key() const override { return "traps"; }
  std::string label() const override { return "SM traps"; }
  std::string shortcut() const override { return "Ctrl+7"; }
  bool on_by_default() const override { return false; }
  std::vector<LegendEntry> legend() const override {
    return {{kSmTrapFeature, "SM trap: the trapped vertex or edge"},
            {kSmTrapFacet, "the facets whose half-spaces trap it"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double length = 0.06 * c.scene_size;
    for (const SmTrap& t : c.frame.sm_traps) {
      draw_feature(c, t.body, t.feature, kSmTrapFeature, {{}, {}, kTrapMarker, true}, out);
      const std::int64_t end =
          std::min(std::int64_t{t.first} + t.count, std::int64_t(c.frame.sm_trap_contacts.size()));
      for (std::int64_t k = std::max(t.first, 0); k < end; ++k) {
        const int i = c.frame.sm_trap_contacts[std::size_t(k)];
        if (i < 0 || i >= int(c.frame.contacts.size())) continue;
        const ContactSnapshot& con = c.frame.contacts[std::size_t(i)];
        const bool feature_is_a = con.body_a == t.body;
        draw_feature(c, feature_is_a ? con.body_b : con.body_a,
                     feature_is_a ? con.feature_b : con.feature_a, kSmTrapFacet,
                     {{}, {}, kTrapFacetMarker}, out);
        // trap_plane_normal: the contact normal turned from the facet onto the trapped body.
        const Vec3 m = feature_is_a ? Vec3(-con.normal) : con.normal;
        const Vec3 at = feature_is_a ? Vec3(con.point_a + con.gap * con.normal) : con.point_a;
        out.arrows.push_back({at, at + length * m, kSmTrapFacet});
      }
    }
  }
};

// Constraint groups (thesis §4.2): a U-constraint as a marker at its contact, an I- or
// X-constraint as links from its primary contact (the larger marker, the one whose normal
// carries the impulse, (4.14)) to each of its other contacts; colour by kind.
class ConstraintGroups : public Overlay {
 public:
  std::string key() const override { return "groups"; }
  std::string label() const override { return "Constraint groups"; }
  std::string shortcut() const override { return "Ctrl+8"; }
  bool on_by_default() const override { return false; }
  std::vector<LegendEntry> legend() const override {
    return {{kUnilateralGroup, "U-constraint (unilateral)"},
            {kInterContactGroup, "I-constraint (inter-contact), its primary contact larger"},
            {kCrossContactGroup, "X-constraint (cross-contact)"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const ConstraintSet& set = c.frame.constraints;
    const int n = int(c.frame.contacts.size());
    for (const ConstraintGroup& g : set.groups) {
      const Rgb& color = group_color(g.kind);
      // In 64 bits, so that a crafted first near 2^31 cannot wrap past the check.
      if (g.count < 1 || g.first < 0 ||
          std::int64_t{g.first} + g.count > std::int64_t(set.members.size()))
        continue;
      const int primary = set.members[std::size_t(g.first)];
      if (primary < 0 || primary >= n) continue;
      const Vec3& p = c.frame.contacts[std::size_t(primary)].point_a;
      out.markers.push_back({p, color, kPrimaryMarker});
      for (int k = g.first + 1; k < g.first + g.count; ++k) {
        const int m = set.members[std::size_t(k)];
        if (m < 0 || m >= n) continue;
        const Vec3& q = c.frame.contacts[std::size_t(m)].point_a;
        out.markers.push_back({q, color, kMemberMarker});
        out.segments.push_back({p, q, color});
      }
    }
  }
};

}  // namespace

const Rgb& group_color(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::Unilateral:
      return kUnilateralGroup;
    case ConstraintKind::InterContact:
      return kInterContactGroup;
    case ConstraintKind::CrossContact:
      return kCrossContactGroup;
  }
  return kUnilateralGroup;
}

std::unique_ptr<Overlay> sm_traps_overlay() {
  return std::make_unique<SmTraps>();
}
std::unique_ptr<Overlay> constraint_groups_overlay() {
  return std::make_unique<ConstraintGroups>();
}

}  // namespace pegsim::gui
