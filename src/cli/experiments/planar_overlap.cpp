#include "cli/experiments/planar_overlap.hpp"

#include <cmath>
#include <vector>

#include "engine/geometry/polygon_overlap.hpp"

namespace pegsim::cli {

double planar_overlap_area(const Model& model, const State& state) {
  const int n = static_cast<int>(model.bodies.size());
  // World vertices (counter-clockwise: a rotation about z keeps the order) and bounds.
  std::vector<std::vector<Vec2>> world(n);
  std::vector<Vec2> lo(n), hi(n);
  for (int i = 0; i < n; ++i) {
    const Body& b = model.bodies[i];
    if (b.shape.kind != ShapeKind::Polygon || !b.present_at(state.time)) continue;
    const BodyState& s = state.bodies[i];
    lo[i] = Vec2::Constant(INFINITY);
    hi[i] = Vec2::Constant(-INFINITY);
    for (const Vec2& v : b.shape.polygon->vertices) {
      const Vec2 w = (s.position + s.orientation * Vec3(v.x(), v.y(), 0.0)).head<2>();
      world[i].push_back(w);
      lo[i] = lo[i].cwiseMin(w);
      hi[i] = hi[i].cwiseMax(w);
    }
  }
  double total = 0.0;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      if (world[a].empty() || world[b].empty() || !model.may_collide(a, b)) continue;
      if ((lo[a].array() > hi[b].array()).any() || (lo[b].array() > hi[a].array()).any()) continue;
      total += polygon_overlap_area(world[a], world[b]);
    }
  return total;
}

}  // namespace pegsim::cli
