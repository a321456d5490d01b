// A scene's "joints" array: joints between bodies named in "bodies" (or the world), defined by
// an anchor point and an axis in the world at t = 0 (docs/scene-format.md).
#pragma once

#include "io/json_node.hpp"
#include "io/scene.hpp"

namespace pegsim {

// Appends the joints to scene.model.joints. Unless a joint says "collide": true, its two bodies
// are added to each other's no-collide lists. Throws SceneError naming file, pointer and what
// was expected.
void read_joints(const JsonNode& list, Scene& scene);

// Adds `other` to the body's no-collide list, once (a jointed pair, a robot's links).
void add_no_collide(Body& body, int other);

}  // namespace pegsim
