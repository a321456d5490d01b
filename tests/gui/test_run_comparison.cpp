// Comparing two run files of one scene: the second drawn translucent over the first at the
// same step, named in the view's legend and the title, from the menu and the command line.
// triangle_drop under sm and peg (thesis Fig. 5.12): the standard model holds the triangle on
// the apex (an SM trap), PEG lets it slide off, so the two runs part visibly.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <QWheelEvent>

#include "engine/dynamics/simulator.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

QString record(const QTemporaryDir& dir, const std::string& scene_name, ContactModel model,
               int steps) {
  const QString file =
      dir.filePath(QString::fromStdString(scene_name) + "-" + QString(to_string(model)) + ".h5");
  Scene scene = load_scene(test::scene_path(scene_name));
  scene.settings.contact_model = model;
  Simulator sim(scene.model, scene.initial, scene.settings);
  RunWriter writer(file.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                   sim.state());
  sim.add_observer(&writer);
  for (int k = 0; k < steps; ++k) sim.step();
  writer.close();
  return file;
}

TEST(RunComparison, ASecondRunFileIsDrawnOverTheFirstAtTheSameStep) {
  QTemporaryDir dir;
  const QString sm = record(dir, "triangle_drop", ContactModel::Standard, 150);
  const QString peg = record(dir, "triangle_drop", ContactModel::Peg, 150);
  test::Window win(0, "triangle_drop");
  EXPECT_FALSE(win.w.compareWithRun(peg)) << "a live run compares with a model, not a file";
  win.opened.clear();
  win.w.openFile(sm);
  ASSERT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
  const int legend_height = win.w.sceneView()->legendImage().height();
  ASSERT_TRUE(win.w.compareWithRun(peg));
  EXPECT_EQ(win.w.comparedRun(), peg);
  EXPECT_TRUE(win.w.windowTitle().contains("triangle_drop-peg.h5"))
      << win.w.windowTitle().toStdString();
  EXPECT_GT(win.w.sceneView()->legendImage().height(), legend_height) << "both runs named";

  const RunFileSource other(peg.toStdString());
  for (const qint64 k : {0, 60, 150}) {
    win.w.showFrameIndex(k);
    const FramePtr ghost = win.w.sceneView()->ghost();
    ASSERT_TRUE(ghost) << k;
    EXPECT_EQ(ghost->step, win.w.sceneView()->frame()->step);
    EXPECT_EQ(ghost->bodies[1].position, other.frame(k)->bodies[1].position);
  }
  // The comparison's overlays are drawn too, paler and thinner.
  const Sketch own = win.w.sceneView()->overlaySketch("aabbs");
  const Sketch pale = win.w.sceneView()->comparisonSketch("aabbs");
  ASSERT_EQ(pale.segments.size(), own.segments.size());
  EXPECT_EQ(pale.segments[0].width, 1.0);
  EXPECT_GT(pale.segments[0].color[1], own.segments[0].color[1]) << "mixed with white";
  // At step 150 the runs have parted: the trapped triangle stays, PEG's has slid away.
  const int triangle = win.w.sceneView()->model()->body_index("falling");
  ASSERT_GE(triangle, 0);
  const Vec3 held = win.w.sceneView()->frame()->bodies[std::size_t(triangle)].position;
  const Vec3 slid = win.w.sceneView()->ghost()->bodies[std::size_t(triangle)].position;
  EXPECT_GT((held - slid).norm(), 0.5) << "the example shows a visible difference";

  // Side by side: the comparison in a second view, the first without the translucent copy;
  // the cameras move together.
  win.w.setSideBySide(true);
  SceneView* side = win.w.sideView();
  ASSERT_TRUE(wait_until([&] { return side->isVisible(); }));
  EXPECT_FALSE(win.w.sceneView()->ghost());
  ASSERT_TRUE(side->frame());
  EXPECT_EQ(side->frame()->step, win.w.sceneView()->frame()->step);
  EXPECT_EQ(side->frame()->bodies[std::size_t(triangle)].position, slid);
  EXPECT_EQ(side->camera().distance, win.w.sceneView()->camera().distance);
  win.w.sceneView()->fitAll();
  const double before = side->camera().distance;
  QWheelEvent wheel(QPointF(50, 50), QPointF(50, 50), QPoint(), QPoint(0, 480), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(win.w.sceneView()->renderWindow(), &wheel);
  EXPECT_LT(side->camera().distance, 0.7 * before) << "zooming one view zooms the other";
  EXPECT_TRUE((side->camera().target - win.w.sceneView()->camera().target).norm() < 1e-12);
  win.w.showFrameIndex(60);
  EXPECT_EQ(side->frame()->step, win.w.sceneView()->frame()->step);
  win.w.setSideBySide(false);
  EXPECT_FALSE(side->isVisible());
  EXPECT_TRUE(win.w.sceneView()->ghost()) << "translucent again";

  // A run of another scene is refused with the reason, and the comparison stays as it was.
  const QString other_scene = record(dir, "hello_world", ContactModel::Standard, 5);
  EXPECT_FALSE(win.w.compareWithRun(other_scene));
  EXPECT_TRUE(win.w.lastError().contains("not a run of the same scene"))
      << win.w.lastError().toStdString();
  EXPECT_EQ(win.w.comparedRun(), peg);
  // Opening another file ends the comparison.
  win.opened.clear();
  win.w.openFile(other_scene);
  ASSERT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
  EXPECT_TRUE(win.w.comparedRun().isEmpty());
  EXPECT_FALSE(win.w.sceneView()->ghost());
}

}  // namespace
}  // namespace pegsim::gui
