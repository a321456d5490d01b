// The overlap error summed over body pairs (thesis §5.2.3-5.2.4), on a world whose pair volumes
// are known in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "../collision/collision_world.hpp"
#include "engine/metrics/overlap.hpp"

namespace pegsim {
namespace {

TEST(OverlapTotals, SumsEveryPairExactly) {
  test::CollisionWorld w;
  w.add_plane();                                      // z <= 0
  w.add_cube(1.0, Vec3(0, 0, 0.49));                  // 0.01 m into the ground: 0.01 m^3
  w.add_cube(1.0, Vec3(0.8, 0.1, 0.49));              // 0.2 x 0.9 x 1 with the first cube,
                                                      // and 0.01 m^3 into the ground
  w.add_sphere(0.5, Vec3(5, 0, 0.4));                 // a cap of depth 0.1 in the ground
  const int far = w.add_sphere(0.3, Vec3(10, 0, 2));  // alone
  (void)far;
  const OverlapTotals t = total_overlap(w.model, w.state);
  const double cap = M_PI * 0.01 * (1.5 - 0.1) / 3.0;
  EXPECT_NEAR(t.volume, 0.01 + 0.01 + 0.2 * 0.9 * 1.0 + cap, 1e-13);
  EXPECT_NEAR(t.max_pair_volume, 0.18, 1e-13);
  EXPECT_EQ(t.overlapping_pairs, 4);
  EXPECT_EQ(t.unmeasured_pairs, 0);

  // A sphere dipping 0.09 into a cube's top face adds its cap; one over the cube's corner the
  // octant of its ball (centred on the corner).
  w.add_sphere(0.2, Vec3(0.0, 0.0, 1.1));
  const OverlapTotals u = total_overlap(w.model, w.state);
  EXPECT_EQ(u.unmeasured_pairs, 0);
  EXPECT_NEAR(u.volume, t.volume + M_PI * 0.09 * 0.09 * (0.6 - 0.09) / 3.0, 1e-13);
  w.state.bodies.back().position = Vec3(-0.5, -0.5, 0.99);
  EXPECT_NEAR(total_overlap(w.model, w.state).volume, t.volume + M_PI * 0.008 / 6.0, 1e-13);
  w.state.bodies.back().position.z() = 1.3;  // clear of the cube
  EXPECT_NEAR(total_overlap(w.model, w.state).volume, t.volume, 1e-15);
}

}  // namespace
}  // namespace pegsim
