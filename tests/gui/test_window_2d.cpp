// Planar (2D) scenes in the window: seen down the z axis through an orthographic lens fitted
// to the scene, rotation locked; polygons drawn as flat faces where their poses say.
#include <gtest/gtest.h>

#include <QTest>

#include "gui/render/scene_view.hpp"
#include "io/scene.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::capture;
using test::wait_until;

bool reddish(const QColor& c) {
  return c.red() > c.green() + 50 && c.red() > c.blue() + 50;
}
bool bluish(const QColor& c) {
  return c.blue() > c.red() + 30 && c.blue() > c.green() + 10;
}
bool background(const QColor& c) {
  return c.red() > 200 && c.green() > 200 && c.blue() > 200;
}

TEST(PlanarWindow, TriangleDropIsSeenFromAboveWithEachTriangleWhereItsPoseProjects) {
  test::Window win(60, "triangle_drop");  // 0.6 s: the small triangle is still falling
  SceneView* view = win.w.sceneView();
  ASSERT_TRUE(view->camera().planar);
  ASSERT_TRUE(view->orthographic());
  view->setOrthographic(false);
  EXPECT_TRUE(view->orthographic()) << "a 2D scene is always seen through the orthographic lens";
  EXPECT_TRUE(view->camera().forward().isApprox(Vec3(0, 0, -1)));
  win.w.setOverlay("contacts", false);
  win.w.setOverlay("aabbs", false);

  const FrameSnapshot& f = *view->frame();
  const Vec3 base = f.bodies[0].position, falling = f.bodies[1].position;
  QPointF pb, pf;
  ASSERT_TRUE(view->project(base, pb));
  ASSERT_TRUE(view->project(falling, pf));
  const QRect inside(0, 0, view->width(), view->height());
  // Fitted: both triangles, 7 m apart vertically at the start, are in the view.
  ASSERT_TRUE(inside.contains(pb.toPoint()) && inside.contains(pf.toPoint()))
      << pb.x() << "," << pb.y() << " " << pf.x() << "," << pf.y();
  EXPECT_LT(pf.y(), pb.y()) << "+y is up on the screen";
  EXPECT_GT(pf.x(), pb.x()) << "+x is right: the falling triangle starts right of the apex";

  const QImage image = capture(view);
  ASSERT_EQ(image.size(), view->size());
  EXPECT_TRUE(reddish(image.pixelColor(pf.toPoint())))
      << "the falling triangle (#c83c3c) at its centre of mass";
  EXPECT_TRUE(bluish(image.pixelColor(pb.toPoint()))) << "the base (#4f6fb0) at its centre of mass";
  // 1.5 circumradii (1.41 m) above the falling triangle's centre: sky.
  QPointF above;
  ASSERT_TRUE(view->project(falling + Vec3(0, 1.5 * 2.45 / std::sqrt(3.0), 0), above));
  EXPECT_TRUE(background(image.pixelColor(above.toPoint())));
  // Each corner of the falling triangle, turned and moved by its pose: 15 % of the way in
  // from the corner is red, 15 % of the way out is not.
  const Scene scene = load_scene(test::scene_path("triangle_drop"));
  for (const Vec2& v : scene.model.bodies[1].shape.polygon->vertices) {
    const Vec3 corner = to_world(f.bodies[1], Vec3(v.x(), v.y(), 0.0));
    QPointF in, out;
    ASSERT_TRUE(view->project(falling + 0.85 * (corner - falling), in));
    ASSERT_TRUE(view->project(falling + 1.15 * (corner - falling), out));
    EXPECT_TRUE(reddish(image.pixelColor(in.toPoint())))
        << "inside corner " << v.transpose() << " at " << in.x() << "," << in.y() << " "
        << image.pixelColor(in.toPoint()).name().toStdString();
    EXPECT_FALSE(reddish(image.pixelColor(out.toPoint()))) << "outside corner " << v.transpose();
  }
  EXPECT_EQ(view->bodyAt(pf.toPoint()), 1);
  EXPECT_EQ(view->bodyAt(pb.toPoint()), 0);
  EXPECT_EQ(view->bodyAt(above.toPoint()), -1);

  // A left drag pans (no orbit): the falling triangle moves on screen with the mouse.
  const OrbitCamera before = view->camera();
  QWindow* gl = view->renderWindow();
  const QPoint from = (pf + QPointF(-60, 0)).toPoint();
  QTest::mousePress(gl, Qt::LeftButton, {}, from);
  for (int k = 1; k <= 5; ++k) QTest::mouseMove(gl, from + QPoint(10 * k, 8 * k));
  QTest::mouseRelease(gl, Qt::LeftButton, {}, from + QPoint(50, 40));
  EXPECT_EQ(view->camera().azimuth, before.azimuth);
  EXPECT_EQ(view->camera().elevation, before.elevation);
  EXPECT_TRUE(view->camera().forward().isApprox(Vec3(0, 0, -1)));
  QPointF moved;
  ASSERT_TRUE(view->project(falling, moved));
  EXPECT_NEAR(moved.x() - pf.x(), 50.0, 2.0);
  EXPECT_NEAR(moved.y() - pf.y(), 40.0, 2.0);
}

}  // namespace
}  // namespace pegsim::gui
