// Overlays on rendered pixels: markers keep their size in pixels as the view zooms, overlays lie
// over the bodies (a resting cube's impulses, hidden inside bodies when depth-tested), and the
// legend of the overlays that are on is drawn in the view and so in every exported image.
#include <gtest/gtest.h>

#include <QAbstractAxis>
#include <QChart>
#include <QDir>
#include <QImage>
#include <QTest>
#include <QWheelEvent>
#include <QXYSeries>
#include <cmath>

#include "gui/plots/plots_panel.hpp"
#include "gui/render/legend_image.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::capture;
using test::wait_until;

bool near(const QColor& c, const Rgb& rgb, int tolerance = 6) {
  return std::abs(c.red() - int(std::lround(rgb[0] * 255))) <= tolerance &&
         std::abs(c.green() - int(std::lround(rgb[1] * 255))) <= tolerance &&
         std::abs(c.blue() - int(std::lround(rgb[2] * 255))) <= tolerance;
}

// Whether `rgb` is drawn within `radius` pixels of `at` (a 3-pixel shaft, rounded projections),
// give or take `tolerance` per channel.
bool drawn_near(const QImage& image, QPointF at, const Rgb& rgb, int tolerance, int radius = 2) {
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const QPoint p = at.toPoint() + QPoint(dx, dy);
      if (image.rect().contains(p) && near(image.pixelColor(p), rgb, tolerance)) return true;
    }
  return false;
}

// The width of the run of `rgb` pixels through `at` along its row.
int run_width(const QImage& image, QPoint at, const Rgb& rgb) {
  if (!near(image.pixelColor(at), rgb)) return 0;
  int left = at.x(), right = at.x();
  while (left > 0 && near(image.pixelColor(left - 1, at.y()), rgb)) --left;
  while (right + 1 < image.width() && near(image.pixelColor(right + 1, at.y()), rgb)) ++right;
  return right - left + 1;
}

// hello_world's cube at rest on the ground: four primary contacts at its bottom corners, drawn
// over the orange cube (the same orange as primary contacts, so only the outline tells them).
struct RestingCube : test::Window {
  RestingCube() : test::Window(150, "hello_world") {
    for (const auto& o : w.sceneView()->overlays()) w.setOverlay(o->key(), o->key() == "contacts");
    w.sceneView()->fitAll();
  }
  // A contact drawn inside the view, away from its edges.
  QPoint contact() {
    for (const ContactSnapshot& c : view()->frame()->contacts) {
      QPointF at;
      if (view()->project(c.point_a, at) &&
          QRectF(20, 20, view()->width() - 40, view()->height() - 40).contains(at))
        return at.toPoint();
    }
    ADD_FAILURE() << "no contact in view";
    return {};
  }
  SceneView* view() { return w.sceneView(); }
  void zoom(int wheel) {
    QWheelEvent e(QPointF(100, 100), QPointF(100, 100), QPoint(), QPoint(0, wheel), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view()->renderWindow(), &e);
  }
};

TEST(OverlayPixels, AContactMarkerKeepsItsPixelSizeWhenTheViewZooms) {
  RestingCube cube;
  ASSERT_EQ(cube.view()->frame()->contacts.size(), 4u);
  cube.view()->setLegendVisible(false);
  std::vector<int> widths;
  for (const int wheel : {0, 600}) {  // 0.999^600: 0.55 times the distance
    cube.zoom(wheel);
    const QImage image = capture(cube.view());
    widths.push_back(run_width(image, cube.contact(), kPrimaryContact));
  }
  // The diamond's middle row: 2 x 5 px, the centre pixel, give or take the rasterizer's pixel.
  EXPECT_NEAR(widths[0], 2 * kContactMarker + 1, 2.0);
  EXPECT_NEAR(widths[1], widths[0], 1.0) << "sized in world units it would grow 1.8 times";
}

TEST(OverlayPixels, ImpulsesOfARestingCubeAreDrawnOverTheBodies) {
  RestingCube cube;
  cube.view()->setLegendVisible(false);
  cube.w.setOverlay("impulses", true);
  // Each arrow pushes the cube up from below the ground, where depth testing would hide it:
  // a point a third of the way along each shaft, inside the ground, shows the arrow's colour.
  const Sketch arrows = cube.view()->overlaySketch("impulses");
  ASSERT_GE(arrows.arrows.size(), 1u);
  const QImage image = capture(cube.view());
  int checked = 0;
  for (const Sketch::Arrow& a : arrows.arrows) {
    const Vec3 inside = a.from + (a.to - a.from) / 3.0;
    ASSERT_LT(inside.z(), 0.0) << "below the ground's surface";
    QPointF at, tip;
    ASSERT_TRUE(cube.view()->project(inside, at) && cube.view()->project(a.to, tip));
    // Far enough from the tip that the contact's marker there does not cover it.
    if (std::hypot(tip.x() - at.x(), tip.y() - at.y()) < 2.0 * kContactMarker + 4.0) continue;
    ++checked;
    EXPECT_TRUE(drawn_near(image, at, kImpulseColor, 6)) << "at " << at.x() << ", " << at.y();
  }
  EXPECT_GE(checked, 2) << "arrows long enough on screen";
  cube.w.setOverlay("normals", true);
  const Sketch normals = cube.view()->overlaySketch("normals");
  const QImage with_normals = capture(cube.view());
  for (const Sketch::Arrow& a : normals.arrows) {
    QPointF at;
    ASSERT_TRUE(cube.view()->project(a.from + 0.5 * (a.to - a.from), at));
    EXPECT_TRUE(drawn_near(with_normals, at, kNormalColor, 6))
        << "a normal between the bodies, at " << at.x() << ", " << at.y();
  }
}

// The view's top-left corner shows the legend pixel for pixel, in the window's screenshot too.
TEST(OverlayPixels, TheLegendIsInTheViewAndInTheScreenshot) {
  RestingCube cube;
  cube.w.setOverlay("impulses", true);
  const QImage legend = cube.view()->legendImage();
  ASSERT_FALSE(legend.isNull());
  capture(cube.view());  // the new legend's texture is uploaded over a frame or two
  const QString file = QDir::temp().filePath("pegsim-legend-test.png");
  bool saved = false, done = false;
  cube.w.saveWindowImage(file, [&](bool ok) {
    saved = ok;
    done = true;
  });
  ASSERT_TRUE(wait_until([&] { return done; }));
  ASSERT_TRUE(saved);
  const QImage shot(file);
  const QPoint origin =
      cube.view()->mapTo(&cube.w, QPoint(SceneView::kLegendMargin, SceneView::kLegendMargin));
  int same = 0;
  for (int y = 0; y < legend.height(); ++y)
    for (int x = 0; x < legend.width(); ++x) {
      const QColor a = legend.pixelColor(x, y), b = shot.pixelColor(origin + QPoint(x, y));
      same += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                  std::abs(a.blue() - b.blue()) <=
              12;
    }
  EXPECT_GE(same, 0.97 * legend.width() * legend.height())
      << "of " << legend.width() << " x " << legend.height() << " legend pixels";
  // The impulse arrows' scale is a line of it; hiding it clears the corner.
  cube.w.setOverlay("impulses", false);
  EXPECT_LT(cube.view()->legendImage().height(), legend.height());
  cube.view()->setLegendVisible(false);
  EXPECT_TRUE(cube.view()->legendImage().isNull());
  const QImage hidden = capture(cube.view());
  EXPECT_NE(hidden.pixel(SceneView::kLegendMargin + 1, SceneView::kLegendMargin + 1),
            kLegendBackground);
}

// The in-view legend lists each overlay that is on with a swatch per colour, and notes.
TEST(OverlayPixels, TheLegendImageHasARowPerColourAndNote) {
  test::qt_app(true);
  EXPECT_TRUE(legend_image({}, {}).isNull());
  std::unique_ptr<Overlay> contacts;
  for (auto& o : standard_overlays())
    if (o->key() == "contacts") contacts = std::move(o);
  const QImage one = legend_image({{contacts->label(), contacts->legend()}}, {});
  const QImage more =
      legend_image({{contacts->label(), contacts->legend()}}, {"impulse arrows: 1 m = 2 N s"});
  ASSERT_FALSE(one.isNull());
  EXPECT_GT(more.height(), one.height());
  EXPECT_GT(one.width(), 100);
  // The primary contact's swatch is in it.
  int found = 0;
  for (int y = 0; y < one.height(); ++y)
    for (int x = 0; x < one.width(); ++x) found += near(one.pixelColor(x, y), kPrimaryContact, 1);
  EXPECT_GE(found, 16);
  EXPECT_GT(legend_image({{contacts->label(), contacts->legend()}}, {}, 2.0).height(),
            1.8 * one.height())
      << "a presentation scale enlarges it";
}

// A projector's presentation scale: the window's text, the markers and the legend twice as big.
TEST(OverlayPixels, APresentationScaleEnlargesMarkersLegendAndText) {
  RestingCube cube;
  const QImage legend = cube.view()->legendImage();
  const double font = cube.w.font().pointSizeF();
  cube.view()->setLegendVisible(false);
  const QImage normal = capture(cube.view());
  const int before = run_width(normal, cube.contact(), kPrimaryContact);
  cube.w.setPresentationScale(2.0);
  const QImage large = capture(cube.view());  // first: the larger text may resize the view
  const int after = run_width(large, cube.contact(), kPrimaryContact);
  EXPECT_NEAR(after, 2 * before, 3) << before;
  EXPECT_DOUBLE_EQ(cube.w.font().pointSizeF(), 2.0 * font);
  // The plots' text follows (a small fraction of the window's).
  const QFont ticks =
      cube.w.plotsPanel()->series("position x")->chart()->axes().front()->labelsFont();
  EXPECT_NEAR(ticks.pointSizeF(), 0.85 * 2.0 * font, 0.01);
  cube.view()->setLegendVisible(true);
  EXPECT_NEAR(cube.view()->legendImage().height(), 2.0 * legend.height(), 4.0);
}

// Following the moving bodies keeps them in view: the default scene's octahedron slides off the
// pedestal and away, and every moving body stays on screen.
TEST(OverlayPixels, FollowingKeepsTheMovingBodiesInView) {
  test::Window win;
  SceneView* view = win.w.sceneView();
  view->setFollow(true);
  win.run(500);
  const FrameSnapshot& f = *view->frame();
  const Model& model = *view->model();
  Vec3 lo = Vec3::Constant(1e300), hi = Vec3::Constant(-1e300);
  for (std::size_t i = 0; i < f.bodies.size(); ++i) {
    if (model.bodies[i].is_static) continue;
    lo = lo.cwiseMin(f.aabbs[i].lo);
    hi = hi.cwiseMax(f.aabbs[i].hi);
    QPointF at;
    ASSERT_TRUE(view->project(f.bodies[i].position, at)) << model.bodies[i].name;
    EXPECT_TRUE(QRectF(0, 0, view->width(), view->height()).contains(at))
        << model.bodies[i].name << " at " << at.x() << ", " << at.y();
  }
  EXPECT_LT((view->camera().target - 0.5 * (lo + hi)).norm(), 1e-9) << "centred on them";
}

}  // namespace
}  // namespace pegsim::gui
