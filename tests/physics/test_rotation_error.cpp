// Thesis §5.3, Fig. 5.24-5.25: the overlap error of one semi-implicit step. Two horizontal
// blocks touch (the top one's bottom vertices on the bottom one's top face, normals +z fixed at
// the start of the step) and both turn at omega = 1 rad/s; no gravity, no friction. The contact
// constraints see only the relative sliding of the blocks (omega x (c_bottom - c_top) is
// horizontal), so both turn freely by theta = omega h and their faces, still parallel, end
// H (1 - cos theta) apart inside each other (H = 0.5 m between the centres): with the top face
// 1 m long the overlap area is 0.5 (1 - cos h), ~0.25 h^2. The thesis' table (areas for
// h = 0.01 ... 0.5; block sizes not given) matches this to the digits it prints.
#include <gtest/gtest.h>

#include <cmath>

#include "../engine/dynamics/test_world.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/metrics/overlap.hpp"

namespace pegsim {
namespace {

// The 2D experiment extruded along y: blocks 2 x 2 x 0.5 (bottom) and 1 x 1 x 0.5 (top), turning
// about y. The overlap volume over the top block's 1 m depth is the area of the 2D figure.
double one_step_overlap_area(double h) {
  test::World w;
  const int bottom =
      w.add_box("bottom", Vec3(2, 2, 0.5), 1.0, Vec3(0, 0, 0), Quat::Identity(), 0.0);
  const int top = w.add_box("top", Vec3(1, 1, 0.5), 1.0, Vec3(0, 0, 0.5), Quat::Identity(), 0.0);
  for (int b : {bottom, top}) w.state.bodies[b].angular_velocity = Vec3(0, 1, 0);
  Settings s;
  s.h = h;
  s.gravity = Vec3::Zero();
  Simulator sim(w.model, w.state, s);
  const StepReport& r = sim.step();
  EXPECT_FALSE(r.failed);
  int enforced = 0;
  for (std::size_t i = 0; i < r.contacts.size(); ++i) {
    if (!r.enforced[i]) continue;
    ++enforced;
    EXPECT_NEAR(r.contacts[i].normal.z(), 1.0, 1e-12);  // n = +z, as at the start of the step
    EXPECT_NEAR(r.normal_impulse[i], 0.0, 1e-12);       // the blocks only slide
  }
  EXPECT_EQ(enforced, 4);  // the top block's four bottom vertices
  EXPECT_NEAR(total_overlap(sim.model(), w.state).volume, 0.0, 1e-15);  // before: touching
  return total_overlap(sim.model(), sim.state()).volume / 1.0;          // / the 1 m depth
}

TEST(RotationError, OneStepOverlapMatchesTheThesisTable) {
  struct Row {
    double h, thesis, half_unit;  // Fig. 5.25 (a)-(f): area, half a unit of its last digit
  };
  for (const Row& row : {Row{0.01, 0.000025, 5e-7}, Row{0.1, 0.0025, 5e-5}, Row{0.2, 0.01, 5e-3},
                         Row{0.3, 0.0223, 5e-5}, Row{0.4, 0.0395, 5e-5}, Row{0.5, 0.0612, 5e-5}}) {
    SCOPED_TRACE("h = " + std::to_string(row.h));
    const double area = one_step_overlap_area(row.h);
    EXPECT_NEAR(area, 0.5 * (1.0 - std::cos(row.h)), 1e-12);
    // The thesis prints 1-3 significant digits: equal to within half a unit of the last.
    EXPECT_NEAR(area, row.thesis, row.half_unit);
  }
}

}  // namespace
}  // namespace pegsim
