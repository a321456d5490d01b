// The overlays of issue 4: contact points, normals, impulses, AABBs and body frames.
#include <cmath>

#include "gui/render/overlay.hpp"

namespace pegsim::gui {
namespace {

class ContactPoints : public Overlay {
 public:
  std::string key() const override { return "contacts"; }
  std::string label() const override { return "Contact points"; }
  std::string shortcut() const override { return "Ctrl+1"; }
  bool on_by_default() const override { return true; }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double size = 0.015 * c.scene_size;
    for (const ContactSnapshot& k : c.frame.contacts) {
      const Rgb& color = k.primary ? kPrimaryContact : kSecondaryContact;
      out.markers.push_back({k.point_a, color, size});
      // The gap as a segment to the point on B, so a separated pair is visible as such.
      if (std::abs(k.gap) > 1e-9) out.segments.push_back({k.point_a, k.point_a + k.gap * k.normal, color});
    }
  }
};

class ContactNormals : public Overlay {
 public:
  std::string key() const override { return "normals"; }
  std::string label() const override { return "Contact normals"; }
  std::string shortcut() const override { return "Ctrl+2"; }
  bool on_by_default() const override { return false; }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double length = 0.08 * c.scene_size;
    for (const ContactSnapshot& k : c.frame.contacts)
      out.arrows.push_back({k.point_a, k.point_a + length * k.normal, kNormalColor, 0.25 * length});
  }
};

class ContactImpulses : public Overlay {
 public:
  std::string key() const override { return "impulses"; }
  std::string label() const override { return "Contact impulses"; }
  std::string shortcut() const override { return "Ctrl+3"; }
  bool on_by_default() const override { return false; }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double min_length = 1e-4 * c.scene_size;
    for (const ContactSnapshot& k : c.frame.contacts) {
      const Vec3 arrow = c.impulse_scale * k.impulse();
      if (!k.enforced || arrow.norm() < min_length) continue;
      const double head = std::min(0.3 * arrow.norm(), 0.03 * c.scene_size);
      out.arrows.push_back({k.point_a, k.point_a + arrow, kImpulseColor, head});
    }
  }
};

class BoundingBoxes : public Overlay {
 public:
  std::string key() const override { return "aabbs"; }
  std::string label() const override { return "Bounding boxes (AABB)"; }
  std::string shortcut() const override { return "Ctrl+4"; }
  // On at start with the contacts: the first thing one sees is which pairs are near.
  bool on_by_default() const override { return true; }
  void draw(const OverlayContext& c, Sketch& out) const override {
    for (std::size_t i = 0; i < c.frame.aabbs.size(); ++i) {
      const Aabb& b = c.frame.aabbs[i];
      // A plane's box is unbounded: nothing meaningful to draw.
      if (!b.lo.allFinite() || !b.hi.allFinite()) continue;
      out.box(b.lo, b.hi, c.frame.has_enforced_contact(int(i)) ? kAabbActive : kAabbIdle);
    }
  }
};

class BodyFrames : public Overlay {
 public:
  std::string key() const override { return "frames"; }
  std::string label() const override { return "Body frames"; }
  std::string shortcut() const override { return "Ctrl+5"; }
  bool on_by_default() const override { return false; }
  void draw(const OverlayContext& c, Sketch& out) const override {
    for (std::size_t i = 0; i < c.frame.bodies.size() && i < c.model.bodies.size(); ++i) {
      const Body& body = c.model.bodies[i];
      const ShapeKind kind = body.shape.kind;
      if (kind == ShapeKind::Plane || kind == ShapeKind::HalfPlane) continue;
      double radius = kind == ShapeKind::Polytope  ? body.shape.polytope->bounding_radius
                      : kind == ShapeKind::Polygon ? body.shape.polygon->bounding_radius
                                                   : body.shape.radius;
      const double length = std::max(0.8 * radius, 0.02 * c.scene_size);
      const BodyState& s = c.frame.bodies[i];
      const Rgb axes[3] = {{1.0f, 0.2f, 0.2f}, {0.2f, 0.9f, 0.2f}, {0.3f, 0.4f, 1.0f}};
      for (int a = 0; a < 3; ++a)
        out.arrows.push_back({s.position, s.position + length * (s.orientation * Vec3::Unit(a)),
                              axes[a], 0.15 * length});
    }
  }
};

}  // namespace

std::vector<std::unique_ptr<Overlay>> standard_overlays() {
  std::vector<std::unique_ptr<Overlay>> out;
  out.push_back(std::make_unique<ContactPoints>());
  out.push_back(std::make_unique<ContactNormals>());
  out.push_back(std::make_unique<ContactImpulses>());
  out.push_back(std::make_unique<BoundingBoxes>());
  out.push_back(std::make_unique<BodyFrames>());
  return out;
}

}  // namespace pegsim::gui
