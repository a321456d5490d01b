// The NCP with the quadratic cone (thesis (2.18)-(2.20)) of a real pile: pour20 under
// formulation ncp, whose contact blocks are coupled through the cubes (M's off-diagonal blocks),
// unlike the particles of test_ncp.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

// pour20's NCP of step `step` (the first cubes land from step 17 on), solved by fischer-newton
// without fallback; z is the answer the step used.
struct RecordedNcp {
  Ncp ncp;
  VecX z;
};

RecordedNcp pour20_ncp(int step) {
  Scene scene = load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes" / "pour20.json");
  Settings s = scene.settings;
  s.formulation = Formulation::Ncp;
  s.solver = "fischer-newton";
  s.fallbacks = {};
  s.on_failure = FailurePolicy::Continue;
  Simulator sim(scene.model, scene.initial, s);
  for (int k = 1; k < step; ++k) sim.step();
  const StepReport& r = sim.step();
  RecordedNcp out;
  if (r.ncp) out.ncp = *r.ncp;
  if (r.solution) out.z = *r.solution;
  return out;
}

// Step 23 (two cubes on the floor, five contacts, 20 rows): Ncp::jacobian against central
// differences of Ncp::evaluate, at points around the step's answer moved off the cone's kinks
// (|p_t| > 0), where F is differentiable: rows (2.18), (2.19) couple p_n, u_t = G_t^T nu of
// every contact of the same cubes, and sigma; row (2.20) p_n and p_t.
TEST(NcpPile, JacobianMatchesFiniteDifferencesOnPour20) {
  const RecordedNcp rec = pour20_ncp(23);
  const Ncp& ncp = rec.ncp;
  const int n = ncp.size();
  ASSERT_EQ(n, 20);
  ASSERT_EQ(rec.z.size(), n);
  // The contacts are coupled: some off-diagonal block of M is nonzero.
  double coupling = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i / 4 != j / 4) coupling = std::max(coupling, std::abs(ncp.linear.M(i, j)));
  EXPECT_GT(coupling, 0.1);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> offset(-0.02, 0.02);
  constexpr double h = 1e-6;
  for (int trial = 0; trial < 20; ++trial) {
    VecX z = rec.z;
    for (int i = 0; i < n; ++i) z(i) += offset(rng);
    for (const FrictionCone& c : ncp.cones) z(c.slip()) = std::abs(z(c.slip()));
    VecX w, F;
    ncp.evaluate(z, w, F);
    MatX J;
    ncp.jacobian(z, w, J);
    for (int j = 0; j < n; ++j) {
      VecX zp = z, zm = z, wp, wm, Fp, Fm;
      zp(j) += h;
      zm(j) -= h;
      ncp.evaluate(zp, wp, Fp);
      ncp.evaluate(zm, wm, Fm);
      const VecX fd = (Fp - Fm) / (2.0 * h);
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(J(i, j), fd(i), 1e-7 * (1.0 + std::abs(fd(i))))
            << "trial " << trial << " row " << i << " column " << j;
    }
  }
}

}  // namespace
}  // namespace pegsim
