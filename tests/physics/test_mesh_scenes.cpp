// The shipped mesh scene (scenes/mesh_tumble.json): an L bracket read from an OBJ file weighs
// what its closed mesh holds, slides down the 30 degree ramp at g (sin 30 - mu cos 30) as the
// step integrates it, and ends at rest lying flat on the floor.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim {
namespace {

TEST(MeshScenes, TheBracketSlidesDownTheRampAtTheCoulombRateAndComesToRest) {
  const Scene scene =
      load_scene(std::filesystem::path(PEGSIM_SOURCE_DIR) / "scenes" / "mesh_tumble.json");
  const int bracket = 2;
  const Body& b = scene.model.bodies[bracket];
  // 40 x 10 + 10 x 20 cm of 5 cm plate, its coordinates read in single precision (Assimp's).
  EXPECT_NEAR(b.mass, 2700.0 * 0.003, 1e-7 * 8.1);
  ASSERT_EQ(b.shape.kind, ShapeKind::Compound);
  EXPECT_TRUE(scene.warnings.empty());

  Simulator sim(scene.model, scene.initial, scene.settings);
  const double t = std::numbers::pi / 6.0, h = scene.settings.h;
  const double a = 9.81 * (std::sin(t) - 0.3 * std::cos(t));  // 2.3563 m/s^2
  const Vec3 down(std::cos(t), 0.0, -std::sin(t)), start = scene.initial.bodies[bracket].position;
  const int k = 160;  // 0.8 s, on the ramp
  for (int i = 0; i < k; ++i) ASSERT_FALSE(sim.step().failed) << i;
  const BodyState& s = sim.state().bodies[bracket];
  // The step's velocity is a k h, its position the sum a h^2 k (k + 1) / 2.
  EXPECT_NEAR(s.velocity.dot(down), a * k * h, 1e-9);
  EXPECT_NEAR((s.position - start).dot(down), a * h * h * k * (k + 1) / 2.0, 1e-9);
  EXPECT_NEAR((s.position - start).y(), 0.0, 1e-12);
  EXPECT_LE((s.orientation.coeffs() - scene.initial.bodies[bracket].orientation.coeffs()).norm(),
            1e-9);
  for (int i = k; i < int(std::lround(scene.duration / h)); ++i)
    ASSERT_FALSE(sim.step().failed) << i;
  const BodyState& end = sim.state().bodies[bracket];
  EXPECT_LE(end.velocity.norm() + end.angular_velocity.norm(), 1e-6);
  // Flat on the floor: the plate's half thickness up, its axis vertical, past the ramp's foot.
  EXPECT_NEAR(end.position.z(), 0.025, 1e-6);
  EXPECT_NEAR((end.orientation * Vec3::UnitZ()).z(), 1.0, 1e-9);
  EXPECT_GT(end.position.x(), 2.0 * std::cos(t));
}

}  // namespace
}  // namespace pegsim
