// Picking: the ray from the camera meets the right body (exact shapes, nearest first).
#include <gtest/gtest.h>

#include "engine/dynamics/simulator.hpp"
#include "gui/render/orbit_camera.hpp"
#include "gui/render/picking.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

struct Cascade {
  Scene scene = load_scene(test::scene_path("cascading_polyhedra"));
  FramePtr frame = make_snapshot(scene.model, scene.initial, nullptr);
  int index(const char* name) const { return scene.model.body_index(name); }
};

TEST(Picking, ARayFromAboveHitsTheTopmostBody) {
  Cascade c;
  const Vec3 oct = c.frame->bodies[std::size_t(c.index("octahedron"))].position;
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, oct + Vec3(0, 0, 10), Vec3(0, 0, -1)),
            c.index("octahedron"));
  // Beside both polyhedra but over the pedestal.
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, Vec3(0.8, -0.8, 10), Vec3(0, 0, -1)),
            c.index("pedestal"));
  // Beside the pedestal: the ground plane.
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, Vec3(3, 3, 10), Vec3(0, 0, -1)), c.index("ground"));
  // Upwards into the sky: nothing.
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, Vec3(3, 3, 10), Vec3(0, 0, 1)), -1);
}

// The ground is drawn as a tile (drawn_extent); a ray that meets the plane beyond it shows the
// sky there, and a click on the sky selects nothing.
TEST(Picking, TheGroundIsPickedOnlyWhereItIsDrawn) {
  Cascade c;
  const DrawnExtent extent = drawn_extent(4.0);
  EXPECT_DOUBLE_EQ(extent.half_width, 12.0);
  // Beside the pedestal and the polyhedra (x = 5): towards_horizon meets z = 0 at y = 20.
  const Vec3 eye(5, -20, 2), towards_horizon = Vec3(0, 1, -0.05).normalized();
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, eye, towards_horizon), c.index("ground"));
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, eye, towards_horizon, extent), -1);
  const Vec3 steeper = Vec3(0, 1, -0.2).normalized();  // meets it at y = -10, on the tile
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, eye, steeper, extent), c.index("ground"));
}

TEST(Picking, ASideRayHitsTheNearerOfTwoBodiesOnItsLine) {
  Cascade c;
  const Vec3 tet = c.frame->bodies[std::size_t(c.index("tetrahedron"))].position;
  // Horizontal ray at the tetrahedron's height passes above the pedestal (top at z = 2).
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, tet + Vec3(-10, 0, 0), Vec3(1, 0, 0)),
            c.index("tetrahedron"));
  // Just below its bounding sphere (and above the pedestal's top at z = 2): misses everything.
  EXPECT_EQ(pick_body(c.scene.model, *c.frame, tet + Vec3(-10, 0, -0.51), Vec3(1, 0, 0)), -1);
}

TEST(Picking, PolytopeHitDistanceIsExact) {
  Cascade c;
  const Body& pedestal = c.scene.model.bodies[std::size_t(c.index("pedestal"))];
  const BodyState& s = c.frame->bodies[std::size_t(c.index("pedestal"))];
  auto t = ray_hit(pedestal, s, Vec3(0.2, 0.3, 7.0), Vec3(0, 0, -2));  // unnormalized dir
  ASSERT_TRUE(t);
  EXPECT_NEAR(*t, 2.5, 1e-12);  // top face at z = 2
  Body sphere;
  sphere.shape = Shape::sphere(0.5);
  BodyState at;
  at.position = Vec3(1, 0, 0);
  EXPECT_NEAR(*ray_hit(sphere, at, Vec3(-2, 0, 0), Vec3(1, 0, 0)), 2.5, 1e-12);
  EXPECT_FALSE(ray_hit(sphere, at, Vec3(-2, 0.6, 0), Vec3(1, 0, 0)));
}

TEST(Picking, TheCameraRayThroughABodysProjectionPicksIt) {
  Cascade c;
  OrbitCamera cam;
  cam.fit(Vec3(-2, -2, 0), Vec3(2, 2, 4));
  for (bool ortho : {false, true}) {
    for (const char* name : {"tetrahedron", "octahedron", "pedestal"}) {
      const Vec3 p = c.frame->bodies[std::size_t(c.index(name))].position;
      // Project p into normalized device coordinates by hand.
      const Vec3 rel = p - cam.eye();
      const double depth = ortho ? cam.distance : rel.dot(cam.forward());
      const double aspect = 1.6;
      const double x = rel.dot(cam.right()) / (depth / cam.distance * cam.half_height() * aspect);
      const double y = rel.dot(cam.up()) / (depth / cam.distance * cam.half_height());
      const auto ray = cam.ray(x, y, aspect, ortho);
      EXPECT_EQ(pick_body(c.scene.model, *c.frame, ray.origin, ray.dir), c.index(name))
          << name << (ortho ? " ortho" : " perspective");
    }
  }
}

}  // namespace
}  // namespace pegsim::gui
