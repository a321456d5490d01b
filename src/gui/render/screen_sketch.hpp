// A Sketch as triangles facing the viewer, sized in screen pixels for one camera: segments as
// strips, arrows as a shaft and a flat head, markers as diamonds (or rings), each over a dark
// outline one pixel wider so it stands out on any body colour. The renderer draws them over
// the bodies in the order given: every outline first, then every fill.
#pragma once

#include "gui/render/mesh_data.hpp"
#include "gui/render/orbit_camera.hpp"
#include "gui/render/sketch.hpp"

namespace pegsim::gui {

inline constexpr Rgb kOutlineColor{0.08f, 0.08f, 0.1f};
inline constexpr double kOutlinePixels = 1.0;
inline constexpr double kShaftPixels = 3.0;  // arrow shaft width
inline constexpr double kRingPixels = 2.5;   // ring marker's band

ColoredVertices screen_triangles(const Sketch& sketch, const PixelScale& scale);

}  // namespace pegsim::gui
