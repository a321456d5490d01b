// Seeded random points for the thesis' random bodies (§5.2.3: "the convex hull of ten randomly
// generated points between values of ±0.25"): std::mt19937_64 with our own mapping of its
// bits to [0, 1), so the same seed gives the same points on every platform (the standard
// distributions are implementation-defined).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// `count` points uniform in [-extent, extent]^2 (x then y from each pair of draws).
std::vector<Vec2> random_points_2d(std::uint64_t seed, int count, double extent);
// `count` points uniform in [-extent, extent]^3 (x, y, z from each triple of draws).
std::vector<Vec3> random_points_3d(std::uint64_t seed, int count, double extent);

}  // namespace pegsim
