// The overlays of issue 4 (contact points, normals, impulses, AABBs, body frames) and of
// issue 5 (joints).
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
  std::vector<LegendEntry> legend() const override {
    return {{kPrimaryContact, "primary contact: applicable and feasible (enforced by SM)"},
            {kSecondaryContact, "secondary contact"},
            {kClosestPointB,
             "geometrically implicit: a2, the end-of-step closest point on body B (a1 on A)"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    for (const ContactSnapshot& k : c.frame.contacts) {
      const Rgb& color = k.primary ? kPrimaryContact : kSecondaryContact;
      out.markers.push_back({k.point_a, color, kContactMarker});
      // The gap as a segment to the point on B, so a separated pair is visible as such.
      const Vec3 on_b = k.point_on_b();
      if ((on_b - k.point_a).norm() > 1e-9) out.segments.push_back({k.point_a, on_b, color});
      if (k.implicit) out.markers.push_back({on_b, kClosestPointB, kContactMarker});
    }
  }
};

class ContactNormals : public Overlay {
 public:
  std::string key() const override { return "normals"; }
  std::string label() const override { return "Contact normals"; }
  std::string shortcut() const override { return "Ctrl+2"; }
  bool on_by_default() const override { return false; }
  std::vector<LegendEntry> legend() const override {
    return {{kNormalColor, "contact normal, from body A onto body B"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double length = 0.08 * c.scene_size;
    for (const ContactSnapshot& k : c.frame.contacts)
      out.arrows.push_back({k.point_a, k.point_a + length * k.normal, kNormalColor});
  }
};

class ContactImpulses : public Overlay {
 public:
  std::string key() const override { return "impulses"; }
  std::string label() const override { return "Contact impulses"; }
  std::string shortcut() const override { return "Ctrl+3"; }
  bool on_by_default() const override { return false; }
  std::vector<LegendEntry> legend() const override {
    return {{kImpulseColor, "contact impulse on body B (normal and friction), pushing it"}};
  }
  // The impulse on B ends at B's contact point, so it lies outside B, in A: drawn over the
  // bodies it shows even for a body resting on another.
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double min_length = 1e-4 * c.scene_size;
    for (const ContactSnapshot& k : c.frame.contacts) {
      const Vec3 arrow = c.impulse_scale * k.impulse();
      if (!k.enforced || arrow.norm() < min_length) continue;
      const Vec3 on_b = k.point_on_b();
      out.arrows.push_back({on_b - arrow, on_b, kImpulseColor});
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
  bool background() const override { return true; }
  std::vector<LegendEntry> legend() const override {
    return {{kAabbIdle, "bounding box"},
            {kAabbActive, "bounding box of a body with an enforced contact"}};
  }
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
  std::vector<LegendEntry> legend() const override {
    return {{kAxisColors[0], "body frame x"},
            {kAxisColors[1], "body frame y"},
            {kAxisColors[2], "body frame z"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    for (std::size_t i = 0; i < c.frame.bodies.size() && i < c.model.bodies.size(); ++i) {
      const Body& body = c.model.bodies[i];
      const ShapeKind kind = body.shape.kind;
      if (kind == ShapeKind::Plane || kind == ShapeKind::HalfPlane || !c.frame.present(int(i)))
        continue;
      double radius = kind == ShapeKind::Polytope   ? body.shape.polytope->bounding_radius
                      : kind == ShapeKind::Polygon  ? body.shape.polygon->bounding_radius
                      : kind == ShapeKind::Compound ? body.shape.compound->bounding_radius
                                                    : body.shape.radius;
      const double length = std::max(0.8 * radius, 0.02 * c.scene_size);
      const BodyState& s = c.frame.bodies[i];
      for (int a = 0; a < 3; ++a)
        out.arrows.push_back(
            {s.position, s.position + length * (s.orientation * Vec3::Unit(a)), kAxisColors[a]});
    }
  }
};

// Each joint's two frames (thesis §2.2.3): {J_a} as arrows x, y, z at its origin, {J_b} as
// shorter plain axes, the anchor as a marker, the joint axis z_a as a line where the joint
// leaves motion along or about it free, grey links from the bodies' centres, and the
// separation of the two origins (red when the joint is violated by more than a micrometre).
class Joints : public Overlay {
 public:
  std::string key() const override { return "joints"; }
  std::string label() const override { return "Joints"; }
  std::string shortcut() const override { return "Ctrl+6"; }
  bool on_by_default() const override { return true; }  // nothing to draw without joints
  bool applies(const Model& model) const override { return !model.joints.empty(); }
  std::vector<LegendEntry> legend() const override {
    return {{kJointColor, "joint anchor and axis"},
            {kJointSelected, "the joint shown in the Inspector"},
            {kJointLink, "body centre to its joint frame"},
            {kJointError, "joint error: origin of frame A to origin of frame B"}};
  }
  void draw(const OverlayContext& c, Sketch& out) const override {
    const double length = 0.1 * c.scene_size;
    for (std::size_t k = 0; k < c.frame.joints.size() && k < c.model.joints.size(); ++k) {
      const Joint& joint = c.model.joints[k];
      const JointFrames& f = c.frame.joints[k].frames;
      const bool selected = int(k) == c.selected_joint;
      out.markers.push_back({f.origin_a, selected ? kJointSelected : kJointColor,
                             selected ? kJointSelectedMarker : kJointMarker});
      for (int a = 0; a < 3; ++a) {
        out.arrows.push_back({f.origin_a, f.origin_a + length * f.axes_a.col(a), kAxisColors[a]});
        out.segments.push_back(
            {f.origin_b, f.origin_b + 0.6 * length * f.axes_b.col(a), kAxisColors[a]});
      }
      if (joint.type != JointType::Fixed && joint.type != JointType::Spherical) {
        const Vec3 axis = 2.0 * length * f.axes_a.col(2);
        out.segments.push_back(
            {f.origin_a - axis, f.origin_a + axis, selected ? kJointSelected : kJointColor});
      }
      auto link = [&](int body, const Vec3& origin) {
        if (body >= 0 && std::size_t(body) < c.frame.bodies.size())
          out.segments.push_back({c.frame.bodies[std::size_t(body)].position, origin, kJointLink});
      };
      link(joint.body_a, f.origin_a);
      link(joint.body_b, f.origin_b);
      // Prismatic and cylindrical joints slide along z_a: only an error is red.
      if ((f.origin_b - f.origin_a).norm() > 1e-9)
        out.segments.push_back(
            {f.origin_a, f.origin_b,
             c.frame.joints[k].error.position > 1e-6 ? kJointError : kJointColor});
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
  out.push_back(std::make_unique<Joints>());
  out.push_back(sm_traps_overlay());
  out.push_back(constraint_groups_overlay());
  out.push_back(common_volumes_overlay());
  return out;
}

}  // namespace pegsim::gui
