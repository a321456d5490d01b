// Picking as geometry: the body a ray from the camera meets first. Kept apart from the
// renderer so it is exact (the collision shapes, not the drawn triangles) and testable.
#pragma once

#include <optional>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "gui/sim/frame_snapshot.hpp"

namespace pegsim::gui {

// Ray parameter t >= 0 where origin + t * dir enters the body's shape (dir need not be unit);
// nullopt if it misses. A plane counts as its solid half-space.
std::optional<double> ray_hit(const Body& body, const BodyState& state, const Vec3& origin,
                              const Vec3& dir);

// Index of the nearest visible body the ray hits in `frame`, or -1.
int pick_body(const Model& model, const FrameSnapshot& frame, const Vec3& origin, const Vec3& dir);

}  // namespace pegsim::gui
