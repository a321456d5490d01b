#include "gui/render/screen_sketch.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pegsim::gui {
namespace {

using Polygon = std::vector<Vec3>;  // convex, planar, in order

void fan(const Polygon& p, const Rgb& color, ColoredVertices& out) {
  for (std::size_t k = 1; k + 1 < p.size(); ++k) {
    out.add(p[0], color);
    out.add(p[k], color);
    out.add(p[k + 1], color);
  }
}

// The polygon grown by `by` metres on every side: each corner moves along the bisector of its
// two edges' outward normals n1, n2 by by (n1 + n2) / (1 + n1 . n2), so every edge moves by `by`.
Polygon grown(const Polygon& p, double by) {
  const std::size_t n = p.size();
  const Vec3 normal = (p[1] - p[0]).cross(p[2] - p[0]).normalized();
  std::vector<Vec3> outward(n);
  for (std::size_t k = 0; k < n; ++k)
    outward[k] = (p[(k + 1) % n] - p[k]).cross(normal).normalized();
  Polygon out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const Vec3& n1 = outward[(k + n - 1) % n];
    const Vec3& n2 = outward[k];
    out[k] = p[k] + by * (n1 + n2) / std::max(1.0 + n1.dot(n2), 0.2);  // sharp tips capped
  }
  return out;
}

bool degenerate(const Polygon& p) {
  const double span = std::max((p[1] - p[0]).norm(), (p[2] - p[0]).norm());
  return !((p[1] - p[0]).cross(p[2] - p[0]).norm() > 1e-12 * span * span) || !(span > 0.0);
}

// Every outline is drawn before every fill, so that touching primitives (the edges of a box,
// an arrow's shaft and head) join without a dark seam.
struct Layers {
  ColoredVertices outlines, fills;
};

void outlined(const Polygon& p, const Rgb& color, double outline, Layers& out) {
  if (degenerate(p)) return;
  fan(grown(p, outline), kOutlineColor, out.outlines);
  fan(p, color, out.fills);
}

// Across `d` on the screen: perpendicular to it and to the line of sight (screen right when d
// runs along the line of sight).
Vec3 across(const Vec3& d, const PixelScale& s) {
  const Vec3 side = s.forward.cross(d);
  return side.norm() > 1e-9 * d.norm() ? Vec3(side.normalized()) : s.right;
}

Polygon strip(const Vec3& a, const Vec3& b, double width_px, const PixelScale& s) {
  const Vec3 side = across(b - a, s);
  const double wa = 0.5 * width_px * s.at(a), wb = 0.5 * width_px * s.at(b);
  return {a - wa * side, b - wb * side, b + wb * side, a + wa * side};
}

void segment(const Sketch::Segment& g, const PixelScale& s, Layers& out) {
  if (!((g.b - g.a).norm() > 0.0)) return;
  outlined(strip(g.a, g.b, g.width, s), g.color, kOutlinePixels * s.at(g.a), out);
}

Polygon diamond(const Vec3& at, double radius, const PixelScale& s) {
  return {at + radius * s.right, at + radius * s.up, at - radius * s.right, at - radius * s.up};
}

void marker(const Sketch::Marker& m, const PixelScale& s, Layers& out) {
  const double px = s.at(m.at), r = m.size * px, o = kOutlinePixels * px;
  if (!m.ring) {
    outlined(diamond(m.at, r, s), m.color, o, out);
    return;
  }
  // A band between two diamonds, four trapezoids, over a band one outline wider each way.
  auto band = [&](double outer, double inner, const Rgb& color, ColoredVertices& to) {
    const Polygon a = diamond(m.at, outer, s), b = diamond(m.at, std::max(inner, 0.0), s);
    for (std::size_t k = 0; k < 4; ++k)
      fan({a[k], a[(k + 1) % 4], b[(k + 1) % 4], b[k]}, color, to);
  };
  const double inner = r - kRingPixels * px;
  band(r + o * std::sqrt(2.0), inner - o * std::sqrt(2.0), kOutlineColor, out.outlines);
  band(r, inner, m.color, out.fills);
}

void arrow(const Sketch::Arrow& a, const PixelScale& s, Layers& out) {
  const Vec3 d = a.to - a.from;
  const double length = d.norm();
  if (!(length > 0.0)) return;
  const Vec3 axis = d / length;
  const double px = s.at(a.to);
  // Seen end-on an arrow has no length on screen: a diamond at its tip says where it is.
  if (s.forward.cross(axis).norm() < 0.05) {
    outlined(diamond(a.to, 0.4 * a.head * px, s), a.color, kOutlinePixels * px, out);
    return;
  }
  const double tip = std::min(a.head * px, 0.6 * length);  // a short arrow is mostly head
  const Vec3 base = a.to - tip * axis, side = across(d, s);
  const double half = 0.45 * tip;
  const Polygon head_triangle{base - half * side, a.to, base + half * side};
  outlined(strip(a.from, base, kShaftPixels, s), a.color, kOutlinePixels * px, out);
  outlined(head_triangle, a.color, kOutlinePixels * px, out);
}

}  // namespace

ColoredVertices screen_triangles(const Sketch& sketch, const PixelScale& scale) {
  Layers layers;
  for (const Sketch::Segment& g : sketch.segments) segment(g, scale, layers);
  for (const Sketch::Arrow& a : sketch.arrows) arrow(a, scale, layers);
  for (const Sketch::Marker& m : sketch.markers) marker(m, scale, layers);
  ColoredVertices& out = layers.outlines;
  out.positions.insert(out.positions.end(), layers.fills.positions.begin(),
                       layers.fills.positions.end());
  out.colors.insert(out.colors.end(), layers.fills.colors.begin(), layers.fills.colors.end());
  return out;
}

}  // namespace pegsim::gui
