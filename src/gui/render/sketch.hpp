// A Sketch: coloured primitives in world coordinates that overlays produce and the renderer
// draws. Overlays stay free of Qt3D, so they are testable and survive a renderer change.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim::gui {

using Rgb = std::array<float, 3>;

// Lengths along the primitives are in metres; widths and sizes across them in screen pixels,
// so that they read the same at any zoom. Each is drawn over the bodies with a dark outline.
struct Sketch {
  struct Segment {
    Vec3 a, b;
    Rgb color;
    double width = 2.0;  // px
  };
  struct Arrow {
    Vec3 from, to;
    Rgb color;
    double head = 12.0;  // length of the tip, px (at most a third of the arrow)
  };
  struct Marker {
    Vec3 at;
    Rgb color;
    double size;        // px from the centre to a corner of the diamond
    bool ring = false;  // hollow: the point it marks stays visible
  };

  std::vector<Segment> segments;
  std::vector<Arrow> arrows;
  std::vector<Marker> markers;

  void clear() {
    segments.clear();
    arrows.clear();
    markers.clear();
  }
  bool empty() const { return segments.empty() && arrows.empty() && markers.empty(); }
  void box(const Vec3& lo, const Vec3& hi, const Rgb& color);  // 12 edges
};

}  // namespace pegsim::gui
