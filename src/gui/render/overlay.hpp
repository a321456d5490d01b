// The overlay mechanism: each overlay draws one kind of annotation of a frame into a Sketch.
// The UI builds its menu, toolbar and shortcuts from the registry, so a new overlay (SM traps,
// joints, constraint groups) only has to be added to standard_overlays().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/model.hpp"
#include "gui/render/sketch.hpp"
#include "gui/sim/frame_snapshot.hpp"

namespace pegsim::gui {

// One colour of an overlay and what it marks, for the legend (Help ▸ Overlay Legend).
struct LegendEntry {
  Rgb color;
  std::string meaning;
};

struct OverlayContext {
  const Model& model;
  const FrameSnapshot& frame;
  double scene_size = 1.0;     // a length for sizing arrows and markers, m
  double impulse_scale = 1.0;  // metres of arrow per N s of impulse
  int selected_joint = -1;     // drawn highlighted
};

class Overlay {
 public:
  virtual ~Overlay() = default;
  virtual std::string key() const = 0;       // "contacts": command line and settings name
  virtual std::string label() const = 0;     // "Contact points": menu text
  virtual std::string shortcut() const = 0;  // "Ctrl+1": key sequence text
  virtual bool on_by_default() const = 0;
  virtual std::vector<LegendEntry> legend() const = 0;  // every colour it draws, in order
  // Drawn under the other overlays (lines that would otherwise cross their markers).
  virtual bool background() const { return false; }
  // Whether it can draw anything for this model (the in-view legend lists only those).
  virtual bool applies(const Model&) const { return true; }
  virtual void draw(const OverlayContext& context, Sketch& out) const = 0;
};

// Contact points, contact normals, contact impulses, AABBs, body frames, joints, SM traps,
// constraint groups, common volumes (in that order).
std::vector<std::unique_ptr<Overlay>> standard_overlays();
// The contact models' overlays (contact_model_overlays.cpp, volume_overlay.cpp).
std::unique_ptr<Overlay> sm_traps_overlay();
std::unique_ptr<Overlay> constraint_groups_overlay();
std::unique_ptr<Overlay> common_volumes_overlay();

// Colours shared with the overlay legend in docs/desktop-app.md.
inline constexpr Rgb kPrimaryContact{1.0f, 0.55f, 0.0f};   // orange
inline constexpr Rgb kSecondaryContact{0.6f, 0.2f, 0.9f};  // purple
inline constexpr Rgb kClosestPointB{0.55f, 0.35f, 0.1f};   // brown: a2 (geometrically implicit)
inline constexpr Rgb kNormalColor{0.1f, 0.8f, 0.2f};       // green
inline constexpr Rgb kImpulseColor{0.95f, 0.1f, 0.6f};     // magenta
inline constexpr Rgb kAabbIdle{0.2f, 0.4f, 1.0f};          // blue
inline constexpr Rgb kAabbActive{1.0f, 0.1f, 0.1f};        // red: the body has an enforced contact
inline constexpr Rgb kJointColor{0.0f, 0.75f, 0.8f};       // teal: anchor and joint axis
inline constexpr Rgb kJointSelected{1.0f, 0.85f, 0.1f};    // yellow: the inspected joint
inline constexpr Rgb kJointLink{0.3f, 0.3f, 0.3f};         // grey: body centre to its joint frame
inline constexpr Rgb kJointError{1.0f, 0.0f, 0.0f};        // red: origin of J_a to origin of J_b
inline constexpr Rgb kSmTrapFeature{0.9f, 0.0f, 0.0f};     // red: the trapped vertex or edge
inline constexpr Rgb kSmTrapFacet{1.0f, 0.35f, 0.75f};     // pink: the facets that trap it
inline constexpr Rgb kUnilateralGroup{0.15f, 0.45f, 0.95f};  // blue: U-constraint
inline constexpr Rgb kInterContactGroup{0.95f, 0.7f, 0.0f};  // amber: I-constraint
inline constexpr Rgb kCrossContactGroup{0.0f, 0.7f, 0.55f};  // sea green: X-constraint
inline constexpr Rgb kVolumeOutline{0.0f, 0.9f, 0.9f};       // cyan: a common volume's edges
inline constexpr Rgb kVolumeCentroid{1.0f, 1.0f, 1.0f};      // white: its centroid
inline constexpr Rgb kVolumeForce{0.55f, 0.0f, 0.25f};       // maroon: its normal force
// Marker sizes, screen pixels from the centre to a corner (Sketch::Marker).
inline constexpr double kContactMarker = 5.0;
inline constexpr double kJointMarker = 7.0;
inline constexpr double kJointSelectedMarker = 9.0;
inline constexpr double kTrapMarker = 11.0;  // a ring: the trapped vertex shows inside it
inline constexpr double kTrapFacetMarker = 5.0;
inline constexpr double kPrimaryMarker = 7.0;  // constraint groups
inline constexpr double kMemberMarker = 4.5;
const Rgb& group_color(ConstraintKind kind);
inline constexpr Rgb kAxisColors[3]{
    {1.0f, 0.2f, 0.2f}, {0.2f, 0.9f, 0.2f}, {0.3f, 0.4f, 1.0f}};  // x, y, z

}  // namespace pegsim::gui
