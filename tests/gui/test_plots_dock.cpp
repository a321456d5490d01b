// The Plots dock on the live run and on a run file: the drawn points are the frames' values,
// the cursor follows the timeline, and a run file is read without blocking the window.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXYSeries>

#include "engine/dynamics/simulator.hpp"
#include "gui/plots/plots_panel.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/timeline_bar.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

QPointF last_point(QXYSeries* s) {
  EXPECT_NE(s, nullptr);
  return s && s->count() ? s->at(s->count() - 1) : QPointF(-1e300, -1e300);
}

TEST(PlotsDock, LivePlotsShowTheSelectedBodyAndTheCursorFollowsTheTimeline) {
  test::Window win(40);
  PlotsPanel* plots = win.w.plotsPanel();
  EXPECT_FALSE(win.w.plotsDock()->isVisible()) << "hidden until asked for";
  win.w.plotsDock()->toggleViewAction()->trigger();  // View ▸ Plots
  ASSERT_TRUE(wait_until([&] { return win.w.plotsDock()->isVisible() && win.w.plotsComplete(); }));
  const int oct = 3;
  win.w.selectBody(oct);
  const FramePtr end = win.w.sceneView()->frame();
  ASSERT_EQ(plots->series("position z")->count(), 41);
  EXPECT_DOUBLE_EQ(last_point(plots->series("position z")).x(), end->time);
  EXPECT_DOUBLE_EQ(last_point(plots->series("position z")).y(), end->bodies[oct].position.z());
  EXPECT_DOUBLE_EQ(last_point(plots->series("velocity x")).y(), end->bodies[oct].velocity.x());
  EXPECT_DOUBLE_EQ(last_point(plots->series("contacts")).y(), double(end->contacts.size()));
  EXPECT_NEAR(last_point(plots->series("kinetic")).y(), plots->data().kinetic.back(), 0.0);
  EXPECT_GT(plots->series("residual")->count(), 0) << "the polyhedra touch: steps were solved";
  // Ten more steps reach the plots within the refresh period.
  win.run(10);
  ASSERT_TRUE(wait_until([&] { return plots->series("position z")->count() == 51; }, 3000));
  // The cursor is the frame on screen.
  QTest::keyClick(&win.w, Qt::Key_Home);
  EXPECT_DOUBLE_EQ(plots->series("cursor position")->at(0).x(), 0.0);
  win.w.timeline()->setCurrent(20);
  const double t20 = win.w.sceneView()->frame()->time;
  for (const char* chart : {"cursor position", "cursor energy", "cursor residual"})
    EXPECT_DOUBLE_EQ(plots->series(chart)->at(1).x(), t20) << chart;
}

TEST(PlotsDock, ARunFileIsDecimatedAndReadFromTheEventLoop) {
  QTemporaryDir dir;
  const QString run = dir.filePath("drop.h5");
  const Scene scene = load_scene(test::scene_path("sphere_drop"));
  {
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 2500; ++k) sim.step();
    writer.close();
  }
  test::Window win(0);
  win.w.plotsDock()->show();
  wait_until([] { return false; }, 500);  // the dock's first layout and paint are not the file's
  win.w.openFile(run);
  win.w.selectBody(1);
  EXPECT_FALSE(win.w.plotsComplete()) << "the file is read later, from the event loop";
  ASSERT_TRUE(wait_until([&] { return win.w.plotsComplete(); }));
  PlotsPanel* plots = win.w.plotsPanel();
  QXYSeries* z = plots->series("position z");
  // 2501 frames in 834 buckets of 3; a bucket over which z changes is drawn as a stroke from its
  // lowest to its highest value (two points), one at rest as one point.
  std::size_t strokes = 0;
  for (const auto& m : plots->data().motion)
    strokes += m[1][kPositionX + 2].lo != m[1][kPositionX + 2].hi;
  EXPECT_GT(strokes, 10u) << "the fall and the bounces";
  ASSERT_EQ(std::size_t(z->count()), 834 + strokes);
  const FramePtr last = win.w.source()->frame(2500);
  EXPECT_DOUBLE_EQ(last_point(z).x(), last->time);
  EXPECT_DOUBLE_EQ(last_point(z).y(), last->bodies[1].position.z());
  EXPECT_NEAR(z->at(0).y(), 2.0, 0.01) << "sample 0: frames 0..2, still near the start at 2 m";
  EXPECT_NEAR(last_point(z).y(), 0.5, 0.01) << "the ball rests on the ground";
  EXPECT_NEAR(last_point(plots->series("potential")).y(),
              scene.model.bodies[1].mass * 9.81 * last->bodies[1].position.z(), 1e-6);
  win.w.showFrameIndex(1000);
  EXPECT_DOUBLE_EQ(plots->series("cursor velocity")->at(0).x(), win.w.sceneView()->frame()->time);

  // The landing's acceleration peak, in whichever frame of its bucket it falls, is on the plot.
  const std::vector<State> states = RunReader(run.toStdString()).states(0, 2501);
  double peak = -HUGE_VAL;
  for (std::size_t k = 1; k < states.size(); ++k)
    peak =
        std::max(peak, (states[k].bodies[1].velocity.z() - states[k - 1].bodies[1].velocity.z()) /
                           (states[k].time - states[k - 1].time));
  ASSERT_GT(peak, 50.0) << "an impact";
  double plotted = -HUGE_VAL;
  const QXYSeries* a = plots->series("acceleration z");
  for (int i = 0; i < a->count(); ++i) plotted = std::max(plotted, a->at(i).y());
  EXPECT_DOUBLE_EQ(plotted, peak);
}

// Opening Plots takes its room from the view: Settings and Inspector keep their heights.
TEST(PlotsDock, OpeningPlotsLeavesTheRightDocksTheirHeight) {
  test::Window win(0);
  auto* settings = win.w.findChild<QDockWidget*>("Settings");
  auto* inspector = win.w.findChild<QDockWidget*>("Inspector");
  ASSERT_TRUE(settings && inspector);
  wait_until([] { return false; }, 300);
  const int settings_height = settings->height(), inspector_height = inspector->height();
  const int view_height = win.w.sceneView()->height();
  win.w.plotsDock()->show();
  ASSERT_TRUE(wait_until([&] { return win.w.sceneView()->height() < view_height - 100; }));
  EXPECT_EQ(settings->height(), settings_height);
  EXPECT_EQ(inspector->height(), inspector_height);
  EXPECT_LT(win.w.plotsDock()->geometry().right(), settings->geometry().left())
      << "Plots lies beside the right docks, under the view";
}

}  // namespace
}  // namespace pegsim::gui
