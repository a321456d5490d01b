// Picking as geometry: the body a ray from the camera meets first. Kept apart from the
// renderer so it is exact (the collision shapes, not the drawn triangles) and testable.
#pragma once

#include <limits>
#include <optional>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "gui/sim/frame_snapshot.hpp"

namespace pegsim::gui {

// How much of an unbounded shape is drawn, and so can be clicked: a plane as a square tile of
// half-width `half_width` about its origin, a half-plane as a strip `half_width` either side
// of its origin and `depth` deep below its boundary line. Beyond it one sees the sky.
struct DrawnExtent {
  double half_width = std::numeric_limits<double>::infinity();
  double depth = std::numeric_limits<double>::infinity();
};
// What the view draws for a scene of this size (the renderer and picking share it).
DrawnExtent drawn_extent(double scene_size);

// Ray parameter t >= 0 where origin + t * dir enters the body's shape (dir need not be unit);
// nullopt if it misses. A plane counts as its solid half-space, within `extent`.
std::optional<double> ray_hit(const Body& body, const BodyState& state, const Vec3& origin,
                              const Vec3& dir, const DrawnExtent& extent = {});

// Index of the nearest visible body the ray hits in `frame`, or -1.
int pick_body(const Model& model, const FrameSnapshot& frame, const Vec3& origin, const Vec3& dir,
              const DrawnExtent& extent = {});

}  // namespace pegsim::gui
