// The NCP with the quadratic cone (2.18)-(2.20) at its kinks: every NCP solver takes the steps
// where a cone row sits at p_t = 0, a frictionless contact (mu = 0: the cone is the point
// p_t = 0) and a contact that loses its load (p_n = 0: a cube's corner lifting as it slides).
// Before the fix, fischer-newton stopped at step 48 of the cubes (residual 1.3e-4) and
// minmap-newton on 5-7 of the 120 sliding steps (residuals 2e-3..5e-3).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/dynamics/simulator.hpp"
#include "ncp_settings.hpp"
#include "step_measures.hpp"
#include "test_world.hpp"

namespace pegsim {
namespace {

using test::kNcpSolvers;
using test::ncp_settings;
using test::pose_difference;

using test::kG;
// Two tilted frictionless cubes dropped on the ground (corner, edge and face contacts, bouncing
// off each other, up to 10 contacts): with mu = 0 every cone row mu p_n - |p_t| sits at its kink.
// Each NCP solver solves all 150 steps to the tolerance and keeps the LCP's poses, since without
// friction the two formulations are the same problem. Measured: 7e-9 (fixed-point) to 6e-8
// (minmap-newton): from step 47, where the contacts grow from 9 to 10 (a degenerate set), the
// answers of tolerance 1e-12 differ in velocity by 3e-8 m/s, and the poses drift apart linearly.
TEST(NcpKinks, FrictionlessCubesSolveWithEverySolver) {
  test::World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.0);
  w.add_box("a", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.9),
            Quat(Eigen::AngleAxisd(0.3, Vec3(1, 2, 3).normalized())), 0.0);
  w.add_box("b", Vec3(0.5, 0.5, 0.5), 0.5, Vec3(0.2, 0.1, 2.0),
            Quat(Eigen::AngleAxisd(0.7, Vec3(3, 1, 2).normalized())), 0.0);
  Settings lcp;
  lcp.tolerance = 1e-12;
  for (const std::string& solver : kNcpSolvers) {
    Simulator a(w.model, w.state, ncp_settings(solver));
    Simulator b(w.model, w.state, lcp);
    double worst = 0.0;
    for (int k = 0; k < 150; ++k) {
      const StepReport& ra = a.step();
      ASSERT_FALSE(ra.failed) << solver << " step " << k << ": " << ra.failure;
      if (ra.problem_size > 0) {
        EXPECT_EQ(ra.solve.solver, solver);
      }
      ASSERT_FALSE(b.step().failed);
      worst = std::max(worst, pose_difference(a.state(), b.state()));
    }
    EXPECT_LE(worst, 1e-7) << solver;
  }
}

// A unit cube pushed at 1.5 mu m g through its centre slides along the push, 12 directions of
// 10 steps each: on some steps one corner's contact loses its load (p_n = 0) while the block
// slides. Every solver solves each step and the block keeps v_N = N h (P / m - mu g) d.
TEST(NcpKinks, PushedSlidingCubeSolvesWithEverySolver) {
  const double mu = 0.5, h = 0.01;
  for (const std::string& solver : kNcpSolvers) {
    double worst = 0.0;
    for (int k = 0; k < 12; ++k) {
      const double angle = 0.2 + 2.0 * M_PI * k / 12;
      const Vec3 d(std::cos(angle), std::sin(angle), 0.0);
      test::World w;
      w.add_plane("ground", Vec3::Zero(), Quat::Identity(), mu);
      const int box = w.add_box("block", Vec3(1, 1, 1), 1.0, Vec3(0, 0, 0.5), Quat::Identity(), mu);
      Simulator sim(w.model, w.state, ncp_settings(solver));
      for (int step = 1; step <= 10; ++step) {
        sim.apply_wrench(box, 1.5 * mu * kG * d, Vec3::Zero());
        const StepReport& r = sim.step();
        ASSERT_FALSE(r.failed) << solver << " direction " << k << " step " << step << ": "
                               << r.failure;
        const Vec3 expected = step * h * (1.5 * mu * kG - mu * kG) * d;
        worst = std::max(worst, (sim.state().bodies[box].velocity - expected).norm());
      }
    }
    EXPECT_LE(worst, 1e-9) << solver;
  }
}

}  // namespace
}  // namespace pegsim
