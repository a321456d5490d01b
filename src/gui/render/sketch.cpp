#include "gui/render/sketch.hpp"

namespace pegsim::gui {

void Sketch::box(const Vec3& lo, const Vec3& hi, const Rgb& color) {
  auto corner = [&](int i) {
    return Vec3(i & 1 ? hi.x() : lo.x(), i & 2 ? hi.y() : lo.y(), i & 4 ? hi.z() : lo.z());
  };
  // Corners i and j share an edge when their indices differ in exactly one bit.
  for (int i = 0; i < 8; ++i)
    for (int bit = 1; bit < 8; bit <<= 1)
      if (!(i & bit)) segments.push_back({corner(i), corner(i | bit), color});
}

}  // namespace pegsim::gui
