// The scene of the 2D grasp experiments (thesis §5.2.5 frictionless, §5.2.6 with μ = 0.25,
// Fig. 5.17): a five-link two-fingered gripper — a palm and two fingers of two links, four
// PD-controlled revolute joints — closes around a random convex polygon (the hull of 10 points
// in ±0.25 m, §5.2.3's generator) resting on a floor and lifts it. The thesis gives neither
// the gripper's size nor its gains; ours are in grasp_scene.cpp. Generated from a seed, the same
// on every machine (`pegsim-cli experiment grasp_2d --write-scene FILE`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/math.hpp"
#include "engine/core/settings.hpp"

namespace pegsim::cli {

struct GraspSetup {
  std::uint64_t seed = 0;  // the trial: which random polygon
  double h = 0.01;         // step size, s; epsilon = 10 h (as in §5.2.1)
  double mu = 0.0;         // friction between all bodies: 0 (§5.2.5) or 0.25 (§5.2.6)
  double duration = 2.0;   // s
  std::string contact_model = "peg";
  Primaries primaries = Primaries::LargestGap;
};

// The random polygon at rest on the floor, turned so that a stable edge is at the bottom and
// its bounding box centred on x = 0.
struct GraspObject {
  double orientation = 0.0;          // rad, about the centroid
  Vec2 position;                     // centroid, m, with the bottom edge on the floor y = 0
  std::vector<Vec2> vertices;        // in the world at rest, counter-clockwise
  double width = 0.0, height = 0.0;  // of the bounding box, m
  double grasp_height = 0.0;         // m: where the fingertips close on its sides
};
GraspObject grasp_object(std::uint64_t seed);

// The gripper's motion, shared with the tests: the fingers close from kCloseStart to kCloseEnd,
// the palm rises by kLift from kLiftStart to kLiftEnd and holds, both along half cosines.
constexpr double kCloseStart = 0.2, kCloseEnd = 0.7;  // s
constexpr double kLiftStart = 1.0, kLiftEnd = 1.6;    // s
constexpr double kLift = 0.25;                        // m

// The scene (docs/scene-format.md) of one trial; the object is the body named "object".
nlohmann::json grasp_scene(const GraspSetup& setup);

}  // namespace pegsim::cli
