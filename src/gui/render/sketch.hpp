// A Sketch: coloured primitives in world coordinates that overlays produce and the renderer
// draws. Overlays stay free of Qt3D, so they are testable and survive a renderer change.
#pragma once

#include <array>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim::gui {

using Rgb = std::array<float, 3>;

struct Sketch {
  struct Segment {
    Vec3 a, b;
    Rgb color;
  };
  struct Arrow {
    Vec3 from, to;
    Rgb color;
    double head;
  };  // head: length of the tip, m
  struct Marker {
    Vec3 at;
    Rgb color;
    double size;
  };  // a small solid octahedron

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
