// The main window under Xvfb: overlays toggled through their actions, picking through the
// view's camera, the inspector, the timeline over the live history, and bad files.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <cmath>
#include <functional>
#include <optional>

#include "gui/render/scene_view.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "gui/ui/main_window.hpp"
#include "gui/ui/settings_panel.hpp"
#include "gui/ui/status_panel.hpp"
#include "gui/ui/timeline_bar.hpp"
#include "qt_app.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::scene_path;
using test::wait_until;
using test::Window;

TEST(MainWindow, OverlayActionsToggleEachOverlayIndependently) {
  Window win(60);
  SceneView* view = win.w.sceneView();
  ASSERT_GT(view->frame()->contacts.size(), 0u)
      << "after 60 steps the polyhedra touch the pedestal";
  for (const auto& o : view->overlays()) {
    QAction* a = win.w.overlayAction(o->key());
    ASSERT_NE(a, nullptr) << o->key();
    EXPECT_EQ(a->shortcut(), QKeySequence(QString::fromStdString(o->shortcut())));
    EXPECT_EQ(view->overlayEnabled(o->key()), o->on_by_default());
  }
  // The window opens with contacts and bounding boxes on, nothing else.
  EXPECT_TRUE(view->overlayEnabled("contacts"));
  EXPECT_TRUE(view->overlayEnabled("aabbs"));
  EXPECT_FALSE(view->overlayEnabled("normals"));
  win.w.overlayAction("aabbs")->trigger();
  EXPECT_FALSE(view->overlayEnabled("aabbs"));
  EXPECT_TRUE(view->overlayEnabled("contacts"));
  win.w.overlayAction("contacts")->trigger();
  win.w.overlayAction("aabbs")->trigger();
  EXPECT_FALSE(view->overlayEnabled("contacts"));
  EXPECT_TRUE(view->overlayEnabled("aabbs"));
  // What the view draws for the frame: every contact a marker, three bounded boxes.
  EXPECT_EQ(view->overlaySketch("contacts").markers.size(), view->frame()->contacts.size());
  EXPECT_EQ(view->overlaySketch("aabbs").segments.size(), 36u);
}

TEST(MainWindow, ClickingWhereABodyIsDrawnSelectsItAndFillsTheInspector) {
  Window win(0);
  SceneView* view = win.w.sceneView();
  const int oct = 3;  // ground, pedestal, tetrahedron, octahedron
  const Vec3 p = view->frame()->bodies[oct].position;
  const OrbitCamera& cam = view->camera();
  const Vec3 rel = p - cam.eye();
  const double depth = rel.dot(cam.forward());
  const double w = view->width(), h = view->height();
  const double x = rel.dot(cam.right()) / (depth / cam.distance * cam.half_height() * (w / h));
  const double y = rel.dot(cam.up()) / (depth / cam.distance * cam.half_height());
  const QPoint pixel(int((x + 1) * 0.5 * w), int((1 - y) * 0.5 * h));
  EXPECT_EQ(view->bodyAt(pixel), oct);
  win.w.selectBody(view->bodyAt(pixel));
  EXPECT_EQ(view->selectedBody(), oct);
  EXPECT_NE(win.w.inspector()->summaryText().indexOf("octahedron"), -1);
  EXPECT_NE(win.w.inspector()->summaryText().indexOf("kinetic energy"), -1);
  // Seen from the front (level), the top of the view is sky and the bottom is ground.
  view->setViewPreset(ViewPreset::Front);
  EXPECT_EQ(view->bodyAt(QPoint(int(w) / 2, 2)), -1);
  EXPECT_EQ(view->bodyAt(QPoint(2, int(h) - 2)), 0);
}

TEST(MainWindow, TheTimelineScrubsTheLiveHistory) {
  Window win(30);
  TimelineBar* t = win.w.timeline();
  ASSERT_EQ(t->frameCount(), 31);  // the initial frame and 30 steps
  EXPECT_EQ(t->current(), 30);
  t->setCurrent(10);
  EXPECT_EQ(win.w.sceneView()->frame()->step, 10);
  t->stepForward();
  EXPECT_EQ(win.w.sceneView()->frame()->step, 11);
  t->toStart();
  EXPECT_EQ(win.w.sceneView()->frame()->step, 0);
  t->toEnd();
  EXPECT_EQ(win.w.sceneView()->frame()->step, 30);
}

// A scene whose mesh collides as its hull loads and runs, and its warning is reported.
TEST(MainWindow, SceneWarningsAreReported) {
  Window win(0);
  QTemporaryDir dir;
  const QString scene = dir.filePath("l.json");
  QFile file(scene);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(QString(R"({"bodies": [{"name": "l", "shape": {"type": "mesh", "file": "%1"}}]})")
                 .arg(QString(PEGSIM_SOURCE_DIR) + "/tests/io/data/meshes/l_one_object.obj")
                 .toUtf8());
  file.close();
  win.w.openFile(scene);
  ASSERT_TRUE(wait_until([&] { return !win.w.lastWarnings().isEmpty(); }));
  EXPECT_TRUE(win.w.lastWarnings().front().contains("its convex hull holds 17 % more"))
      << win.w.lastWarnings().front().toStdString();
  win.w.openFile(QString(PEGSIM_SOURCE_DIR) + "/scenes/hello_world.json");
  ASSERT_TRUE(wait_until([&] { return win.w.currentFile().endsWith("hello_world.json"); }));
  EXPECT_TRUE(win.w.lastWarnings().isEmpty());
}

// A robot file opens as a scene of its own, and what it has that pegsim does not model is said.
TEST(MainWindow, ARobotFileOpensDirectly) {
  Window win(0);
  const QString panda =
      QString(PEGSIM_SOURCE_DIR) + "/scenes/robots/panda_description/urdf/panda.urdf";
  win.w.openFile(panda);
  // The warnings follow the scene in a signal of their own.
  ASSERT_TRUE(
      wait_until([&] { return win.w.currentFile() == panda && !win.w.lastWarnings().isEmpty(); }));
  EXPECT_TRUE(win.w.lastWarnings().front().contains("panda_finger_joint2"))
      << win.w.lastWarnings().front().toStdString();
}

TEST(MainWindow, BadFilesAreReportedWithTheirNameAndTheWindowKeepsWorking) {
  Window win(0);
  QTemporaryDir dir;
  const QString bad_scene = dir.filePath("broken.json");
  const QString bad_run = dir.filePath("broken.h5");
  for (const QString& f : {bad_scene, bad_run}) {
    QFile file(f);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{ \"bodies\": [ { \"name\": 3 ");
  }
  win.failed.clear();
  win.w.openFile(bad_scene);
  ASSERT_TRUE(wait_until([&] { return !win.failed.isEmpty(); }));
  EXPECT_NE(win.w.lastError().indexOf("broken.json"), -1) << win.w.lastError().toStdString();
  win.failed.clear();
  win.w.openFile(bad_run);
  ASSERT_TRUE(wait_until([&] { return !win.failed.isEmpty(); }));
  EXPECT_NE(win.w.lastError().indexOf("broken.h5"), -1) << win.w.lastError().toStdString();
  // The scene loaded before is still there and still runs.
  bool done = false;
  QObject::connect(&win.w, &MainWindow::stepsDone, [&done] { done = true; });
  win.w.runSteps(5);
  ASSERT_TRUE(wait_until([&done] { return done; }));
  EXPECT_EQ(win.w.sceneView()->frame()->step, 5);
}

}  // namespace
}  // namespace pegsim::gui

namespace pegsim::gui {
namespace {

TEST(MainWindow, PlayRunsTheLiveSimulationAndPauseStopsIt) {
  Window win(0);
  QAction* play = nullptr;
  for (QAction* a : win.w.findChildren<QAction*>())
    if (a->shortcut() == QKeySequence(Qt::Key_Space)) play = a;
  ASSERT_NE(play, nullptr);
  play->trigger();
  ASSERT_TRUE(test::wait_until([&] { return win.w.timeline()->frameCount() > 20; }));
  play->trigger();
  test::wait_until([] { return false; }, 200);  // let the last batch arrive
  const qint64 n = win.w.timeline()->frameCount();
  test::wait_until([] { return false; }, 200);
  EXPECT_EQ(win.w.timeline()->frameCount(), n) << "still running after pause";
  EXPECT_EQ(win.w.sceneView()->frame()->step, n - 1) << "the view follows the live run";
}

TEST(MainWindow, TheStatusBadgeShowsFallbacksAndFailures) {
  Window win(0);
  FrameSnapshot f;
  f.solve.solver = "pgs";
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->badgeText(), "");
  f.solve.fell_back = true;
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->badgeText(), "FELL BACK");
  EXPECT_EQ(win.w.statusPanel()->badgeToolTip(), "The first solver did not answer; pgs did");
  f.solve.fell_back_how = "the step was taken as 3 shorter steps";  // an implicit step's note
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->badgeToolTip(), "the step was taken as 3 shorter steps");
  f.solve.approximate = true;  // the best answer found, past the live budget
  f.solve.over_budget = true;
  f.solve.time_budget = 0.1;
  f.solve.residual = 0.031;
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->badgeText(), "APPROXIMATE");
  EXPECT_NE(win.w.statusPanel()->badgeToolTip().indexOf("time budget (100 ms)"), -1)
      << win.w.statusPanel()->badgeToolTip().toStdString();
  EXPECT_NE(win.w.statusPanel()->badgeToolTip().indexOf("3.10e-02"), -1);
  f.solve.over_budget = false;  // the interactive preset's sweeps spent
  f.solve.iteration_budget = true;
  f.solve.max_iterations = 20;
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->badgeText(), "APPROXIMATE");
  EXPECT_NE(win.w.statusPanel()->badgeToolTip().indexOf("budget of 20 iterations"), -1)
      << win.w.statusPanel()->badgeToolTip().toStdString();
  f.solve.iteration_budget = false;  // on_failure continue
  win.w.statusPanel()->showFrame(f);
  EXPECT_NE(win.w.statusPanel()->badgeToolTip().indexOf("on_failure continue"), -1);
  f.solve.failed = true;
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->badgeText(), "STEP FAILED");
}

TEST(MainWindow, TheSelectedBodyIsDrawnHighlighted) {
  Window win(0);
  SceneView* view = win.w.sceneView();
  const int oct = 3;
  const Vec3 p = view->frame()->bodies[oct].position;
  const OrbitCamera& cam = view->camera();
  const Vec3 rel = p - cam.eye();
  const double depth = rel.dot(cam.forward());
  const double w = view->width(), h = view->height();
  const QPoint pixel(
      int((rel.dot(cam.right()) / (depth / cam.distance * cam.half_height() * (w / h)) + 1) * 0.5 *
          w),
      int((1 - rel.dot(cam.up()) / (depth / cam.distance * cam.half_height())) * 0.5 * h));
  auto capture = [&] {
    QImage image;
    test::wait_until([] { return false; }, 300);  // the renderer picks up the change
    view->captureImage([&](const QImage& i) { image = i; });
    EXPECT_TRUE(test::wait_until([&] { return !image.isNull(); }));
    return image;
  };
  const QColor before = capture().pixelColor(pixel);
  win.w.selectBody(oct);
  const QColor after = capture().pixelColor(pixel);
  // The octahedron is blue; the highlight adds yellow (red and green) through the ambient term,
  // the same amount of linear light on any face: compared in linear light, since the renderer
  // writes sRGB (a brighter face gains fewer sRGB levels for it).
  auto linear = [](int c) { return std::pow((c / 255.0 + 0.055) / 1.055, 2.4); };
  EXPECT_GT(linear(after.red()) + linear(after.green()),
            linear(before.red()) + linear(before.green()) + 0.05)
      << "before " << before.name().toStdString() << " after " << after.name().toStdString();
}

}  // namespace
}  // namespace pegsim::gui

namespace pegsim::gui {
namespace {

TEST(MainWindow, AnEditInTheSettingsPanelChangesTheNextStep) {
  Window win(2);
  const double t2 = win.w.sceneView()->frame()->time;
  auto* h = win.w.settingsPanel()->findChild<QDoubleSpinBox*>("h");
  ASSERT_NE(h, nullptr);
  const double h0 = h->value();
  h->setValue(h0 / 2.0);
  bool done = false;
  QObject::connect(&win.w, &MainWindow::stepsDone, [&done] { done = true; });
  win.w.runSteps(1);
  ASSERT_TRUE(test::wait_until([&done] { return done; }));
  EXPECT_NEAR(win.w.sceneView()->frame()->time - t2, h0 / 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(win.w.settingsPanel()->settings().h, h0 / 2.0);
}

// Chooses `to` in the Settings dock's box `name` (which lists `count` choices, `from` chosen):
// the settings the worker applies and answers with.
std::optional<Settings> switch_setting(Window& win, const char* name, int count,
                                       const QString& from, const QString& to) {
  auto* box = win.w.settingsPanel()->findChild<QComboBox*>(name);
  EXPECT_NE(box, nullptr) << name;
  if (!box) return std::nullopt;
  EXPECT_EQ(box->count(), count) << name;
  EXPECT_EQ(box->currentText(), from) << name;
  std::optional<Settings> applied;
  QObject::connect(win.w.simulation()->worker(), &SimWorker::settingsApplied, &win.w,
                   [&applied](const Settings& s) { applied = s; });
  box->setCurrentText(to);
  EXPECT_TRUE(test::wait_until([&applied] { return applied.has_value(); })) << name;
  return applied;
}

// The gyroscopic term (the midpoint rule, backward Euler or the thesis' explicit (2.30)) is
// switched in the dock like any setting: the worker applies it and answers with the settings it now
// runs.
TEST(MainWindow, TheGyroscopicTermIsSwitchedFromTheSettingsPanel) {
  Window win(1);
  const std::optional<Settings> applied =
      switch_setting(win, "gyroscopic", 3, "midpoint", "explicit");
  ASSERT_TRUE(applied.has_value());
  EXPECT_EQ(applied->gyroscopic, Gyroscopic::Explicit);
  EXPECT_EQ(win.w.settingsPanel()->settings().gyroscopic, Gyroscopic::Explicit);
}

// Likewise the friction cone's orientation (docs/friction.md): motion by default, fixed as RPIsim.
TEST(MainWindow, TheConeOrientationIsSwitchedFromTheSettingsPanel) {
  Window win(1);
  const std::optional<Settings> applied =
      switch_setting(win, "cone_orientation", 2, "motion", "fixed");
  ASSERT_TRUE(applied.has_value());
  EXPECT_EQ(applied->cone_orientation, ConeOrientation::Fixed);
  EXPECT_EQ(win.w.settingsPanel()->settings().cone_orientation, ConeOrientation::Fixed);
}

// Likewise the I-constraint primaries: the thesis' largest gap (4.14) or several (4.10)-(4.13).
TEST(MainWindow, ThePrimariesOfIConstraintsAreSwitchedFromTheSettingsPanel) {
  Window win(1);
  const std::optional<Settings> applied =
      switch_setting(win, "primaries", 2, "largest-gap", "several");
  ASSERT_TRUE(applied.has_value());
  EXPECT_EQ(applied->primaries, Primaries::Several);
  EXPECT_EQ(win.w.settingsPanel()->settings().primaries, Primaries::Several);
}

}  // namespace
}  // namespace pegsim::gui

namespace pegsim::gui {
namespace {

// Every action of the window is reachable: the toolbar fits the default window size (no
// overflow "»" button hides any of it), and every action with a shortcut is in a menu.
TEST(MainWindow, TheToolbarFitsTheDefaultWindowAndEveryActionIsReachable) {
  test::Window win(0);
  ASSERT_EQ(win.w.size(), QSize(1280, 800));
  auto* tools = win.w.findChild<QToolBar*>("Main");
  ASSERT_NE(tools, nullptr);
  auto* overflow = tools->findChild<QToolButton*>("qt_toolbar_ext_button");
  EXPECT_TRUE(overflow == nullptr || !overflow->isVisible()) << "the toolbar overflows";
  for (QAction* a : tools->actions()) {
    if (a->isSeparator()) continue;
    QWidget* w = tools->widgetForAction(a);
    ASSERT_NE(w, nullptr) << a->text().toStdString();
    EXPECT_TRUE(w->isVisible()) << a->text().toStdString();
    EXPECT_TRUE(tools->rect().contains(w->geometry())) << a->text().toStdString();
  }
  // The overlays' drop-down holds every overlay.
  auto* overlays = tools->findChild<QToolButton*>("Overlays");
  ASSERT_NE(overlays, nullptr);
  for (const auto& o : win.w.sceneView()->overlays())
    EXPECT_TRUE(overlays->menu()->actions().contains(win.w.overlayAction(o->key()))) << o->key();
  // Every action with a shortcut can be found in the menu bar.
  QSet<QAction*> in_menus;
  std::function<void(QMenu*)> collect = [&](QMenu* menu) {
    for (QAction* a : menu->actions()) {
      in_menus.insert(a);
      if (a->menu()) collect(a->menu());
    }
  };
  for (QAction* a : win.w.menuBar()->actions())
    if (a->menu()) collect(a->menu());
  int with_shortcut = 0;
  for (QAction* a : win.w.findChildren<QAction*>()) {
    if (a->shortcut().isEmpty()) continue;
    ++with_shortcut;
    EXPECT_TRUE(in_menus.contains(a)) << a->text().toStdString();
  }
  EXPECT_GE(with_shortcut, 25);
}

// The standard model's enforced contacts (and where SM traps are looked for): primary ones by
// default, every one within epsilon as the thesis' experiments (§5.2.1).
TEST(MainWindow, WhatTheStandardModelEnforcesIsSwitchedFromTheSettingsPanel) {
  Window win(1);
  const std::optional<Settings> applied = switch_setting(win, "sm_enforce", 2, "primary", "all");
  ASSERT_TRUE(applied.has_value());
  EXPECT_EQ(applied->sm_enforce, SmEnforce::All);
  EXPECT_EQ(win.w.settingsPanel()->settings().sm_enforce, SmEnforce::All);
}

// Help: what each colour of the overlays that are on means, and every shortcut, in the window
// itself rather than only in the docs.
TEST(MainWindow, HelpNamesTheOverlaysColoursAndEveryShortcut) {
  Window win(0);
  QStringList help;
  for (QAction* a : win.w.menuBar()->actions())
    if (a->text() == "&Help")
      for (QAction* h : a->menu()->actions()) help << h->text();
  EXPECT_EQ(help, (QStringList{"Overlay &Legend", "&Keyboard Shortcuts", "&About pegsim"}));

  win.w.setOverlay("contacts", true);
  win.w.setOverlay("traps", false);
  QString legend = win.w.legendHtml();
  EXPECT_NE(legend.indexOf("Contact points"), -1);
  EXPECT_NE(legend.indexOf("primary contact"), -1);
  EXPECT_NE(
      legend.indexOf(
          QColor::fromRgbF(kPrimaryContact[0], kPrimaryContact[1], kPrimaryContact[2]).name()),
      -1);
  EXPECT_EQ(legend.indexOf("SM trap"), -1) << "an overlay that is off is not in the legend";
  win.w.setOverlay("traps", true);
  legend = win.w.legendHtml();
  EXPECT_NE(legend.indexOf("SM trap: the trapped vertex or edge"), -1);

  const QString keys = win.w.shortcutsHtml();
  for (const char* text : {"Open Scene…", "Single Step", "Next Frame", "Fit All", "SM traps"})
    EXPECT_NE(keys.indexOf(text), -1) << text;
  EXPECT_NE(keys.indexOf(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)), -1);
}

}  // namespace
}  // namespace pegsim::gui
