#include "engine/geometry/random_points.hpp"

#include <random>

namespace pegsim {
namespace {

// The top 53 bits of a draw as a double in [0, 1): exact, the same on every platform.
double unit(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}
double coordinate(std::mt19937_64& engine, double extent) {
  return extent * (2.0 * unit(engine) - 1.0);
}

}  // namespace

std::vector<Vec2> random_points_2d(std::uint64_t seed, int count, double extent) {
  std::mt19937_64 engine(seed);
  std::vector<Vec2> points(count > 0 ? count : 0);
  for (Vec2& p : points) {
    const double x = coordinate(engine, extent);
    p = Vec2(x, coordinate(engine, extent));
  }
  return points;
}

std::vector<Vec3> random_points_3d(std::uint64_t seed, int count, double extent) {
  std::mt19937_64 engine(seed);
  std::vector<Vec3> points(count > 0 ? count : 0);
  for (Vec3& p : points) {
    const double x = coordinate(engine, extent);
    const double y = coordinate(engine, extent);
    p = Vec3(x, y, coordinate(engine, extent));
  }
  return points;
}

}  // namespace pegsim
