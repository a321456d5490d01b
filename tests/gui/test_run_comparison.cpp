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

// `steps` steps of the scene under `model`, recorded from step `from` on; with `change_h_at`,
// h = 0.005 from that step on (a settings change the run file records).
QString record(const QTemporaryDir& dir, const std::string& scene_name, ContactModel model,
               int steps, int from = 0, int change_h_at = -1) {
  const QString file =
      dir.filePath(QString::fromStdString(scene_name) + "-" + QString(to_string(model)) + "-" +
                   QString::number(from) + ".h5");
  Scene scene = load_scene(test::scene_path(scene_name));
  scene.settings.contact_model = model;
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int k = 0; k < from; ++k) sim.step();
  RunWriter writer(file.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                   sim.state());
  sim.add_observer(&writer);
  for (int k = from; k < steps; ++k) {
    if (k == change_h_at) {
      Settings s = sim.settings();
      s.h = 0.005;
      sim.set_settings(s);
    }
    sim.step();
  }
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
  EXPECT_TRUE(win.w.windowTitle().contains("triangle_drop-peg-0.h5"))
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

// A run file re-simulated under another contact model: its embedded scene from its first
// frame with its settings. The engine is deterministic, so the translucent run is bit for bit
// the run recorded under that model; re-simulated under its own model it is the run itself,
// also when the recording started late and changed h on the way.
TEST(RunComparison, ARunFileReSimulatedUnderAnotherModelIsThatModelsRun) {
  QTemporaryDir dir;
  const QString sm = record(dir, "triangle_drop", ContactModel::Standard, 150);
  const QString peg = record(dir, "triangle_drop", ContactModel::Peg, 150);
  test::Window win(0, "triangle_drop");
  win.opened.clear();
  win.w.openFile(sm);
  ASSERT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
  bool finished = false;
  QObject::connect(&win.w, &MainWindow::comparisonFinished, [&] { finished = true; });
  ASSERT_TRUE(win.w.compareWith("peg"));
  EXPECT_EQ(win.w.comparedModel(), "peg");
  ASSERT_TRUE(wait_until([&] { return finished; }, 60000));
  EXPECT_TRUE(win.w.comparisonFailure().isEmpty()) << win.w.comparisonFailure().toStdString();
  const RunFileSource recorded(peg.toStdString());
  ASSERT_EQ(win.w.comparisonSource()->count(), recorded.count());
  for (const qint64 k : {0, 1, 60, 150}) {
    win.w.showFrameIndex(k);
    EXPECT_TRUE(win.w.comparisonCaughtUp());
    const FramePtr ghost = win.w.sceneView()->ghost();
    ASSERT_TRUE(ghost) << k;
    EXPECT_EQ(ghost->step, k);
    for (std::size_t b = 0; b < ghost->bodies.size(); ++b) {
      EXPECT_EQ(ghost->bodies[b].position, recorded.frame(k)->bodies[b].position) << k;
      EXPECT_EQ(ghost->bodies[b].orientation.coeffs(),
                recorded.frame(k)->bodies[b].orientation.coeffs())
          << k;
    }
  }
  EXPECT_TRUE(win.w.windowTitle().contains("peg")) << win.w.windowTitle().toStdString();

  // From step 40 on, h halved at step 90: each frame as recorded.
  const QString late = record(dir, "triangle_drop", ContactModel::Standard, 150, 40, 90);
  win.opened.clear();
  win.w.openFile(late);
  ASSERT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
  EXPECT_TRUE(win.w.comparedModel().isEmpty()) << "a new file ends the comparison";
  finished = false;
  ASSERT_TRUE(win.w.compareWith("sm"));
  ASSERT_TRUE(wait_until([&] { return finished; }, 60000));
  const RunFileSource own(late.toStdString());
  ASSERT_EQ(win.w.comparisonSource()->count(), own.count());
  for (const std::int64_t k :
       {std::int64_t(0), std::int64_t(49), std::int64_t(50), own.count() - 1}) {
    const FramePtr theirs = win.w.comparisonSource()->frame(k);
    EXPECT_EQ(theirs->step, own.frame(k)->step) << k;
    EXPECT_EQ(theirs->time, own.frame(k)->time) << k;
    EXPECT_EQ(theirs->bodies[1].position, own.frame(k)->bodies[1].position) << k;
  }
  EXPECT_EQ(own.frame(own.count() - 1)->h, 0.005);

  // An unknown model is refused with the known ones named.
  EXPECT_FALSE(win.w.compareWith("pegg"));
  EXPECT_TRUE(win.w.lastError().contains("sm, lnc, peg, corrective"))
      << win.w.lastError().toStdString();
}

}  // namespace
}  // namespace pegsim::gui
