// The contact models in the window: the SM-trap and constraint-group overlays on rendered
// pixels, in live and replayed frames, through their shortcuts; the inspector's group
// column; and the side-by-side run of a second contact model drawn translucent over the first.
#include <gtest/gtest.h>

#include <QAction>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>

#include "engine/dynamics/simulator.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "gui/ui/settings_panel.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::capture;
using test::wait_until;

// Pixels that differ clearly between two captures, within `radius` of `at` (whole image: -1).
int changed(const QImage& a, const QImage& b, QPoint at = {}, int radius = -1) {
  int n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      if (radius >= 0 && (std::abs(x - at.x()) > radius || std::abs(y - at.y()) > radius)) continue;
      const QColor p = a.pixelColor(x, y), q = b.pixelColor(x, y);
      n += std::abs(p.red() - q.red()) + std::abs(p.green() - q.green()) +
               std::abs(p.blue() - q.blue()) >
           60;
    }
  return n;
}

// Cube a's corner vertex just beyond static cube b's corner, no gravity (thesis Fig. 4.1 in
// 3D): an SM trap in every step (as in tests/cli/test_cli_traps_overlap.cpp).
QString traps_scene(const QTemporaryDir& dir) {
  const QString file = dir.filePath("traps.json");
  std::ofstream(file.toStdString()) << R"({"name": "traps", "duration": 0.05,
    "settings": {"h": 0.01, "gravity": [0, 0, 0]},
    "bodies": [
      {"name": "ground", "shape": {"type": "plane"}, "position": [0, 0, 0]},
      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [5, 0, 2], "static": true},
      {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [6.01, 1.01, 3.01], "mass": 1}
    ]})";
  return file;
}

void open(test::Window& win, const QString& file) {
  win.opened.clear();
  win.w.openFile(file);
  ASSERT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
}

// The red markers of the traps overlay in the frame on screen.
std::vector<Vec3> trapped_markers(SceneView* view) {
  std::vector<Vec3> out;
  for (const auto& m : view->overlaySketch("traps").markers)
    if (m.color == kSmTrapFeature) out.push_back(m.at);
  return out;
}

TEST(ContactModelWindow, SmTrapsAreDrawnInLiveAndReplayedFramesAndTheInspectorNamesTheGroups) {
  QTemporaryDir dir;
  test::Window win(0);
  open(win, traps_scene(dir));
  win.run(2);
  SceneView* view = win.w.sceneView();
  ASSERT_FALSE(view->frame()->sm_traps.empty());
  QAction* traps = win.w.overlayAction("traps");
  ASSERT_NE(traps, nullptr);
  EXPECT_FALSE(traps->isChecked());
  win.w.setOverlay("contacts", false);
  win.w.setOverlay("aabbs", false);
  const std::vector<Vec3> live = trapped_markers(view);
  ASSERT_FALSE(live.empty());
  QPointF at;
  ASSERT_TRUE(view->project(live[0], at));
  const QImage off = capture(view);
  QTest::keyClick(&win.w, Qt::Key_7, Qt::ControlModifier);
  ASSERT_TRUE(traps->isChecked()) << "Ctrl+7 turns the SM traps on";
  const QImage on = capture(view);
  EXPECT_GE(changed(off, on, at.toPoint(), 4), 20) << "of the 81 pixels around the trapped vertex";

  // The inspector: body a's contacts are each a U-constraint of the standard model.
  ASSERT_TRUE(win.w.selectBodyNamed("a"));
  QTableWidget* table = win.w.inspector()->contactTable();
  ASSERT_EQ(table->horizontalHeaderItem(6)->text(), "group");
  ASSERT_GT(table->rowCount(), 0);
  for (int r = 0; r < table->rowCount(); ++r)
    if (table->item(r, 5)->text() == "yes") {
      EXPECT_TRUE(table->item(r, 6)->text().startsWith("U #")) << r;
    }

  // The same run recorded and replayed: the same trap, drawn at the same place.
  const QString run = dir.filePath("traps.h5");
  {
    const Scene scene = load_scene(dir.filePath("traps.json").toStdString());
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 3; ++k) sim.step();
    writer.close();
  }
  open(win, run);
  win.w.showFrameIndex(2);
  ASSERT_TRUE(win.w.replaying());
  EXPECT_TRUE(traps->isChecked());
  const std::vector<Vec3> replayed = trapped_markers(view);
  ASSERT_EQ(replayed.size(), live.size());
  for (std::size_t i = 0; i < live.size(); ++i)
    EXPECT_TRUE(replayed[i].isApprox(live[i], 1e-12)) << i;
  ASSERT_TRUE(view->project(replayed[0], at));
  const QImage replay_on = capture(view);
  win.w.setOverlay("traps", false);
  const QImage replay_off = capture(view);
  EXPECT_GE(changed(replay_off, replay_on, at.toPoint(), 4), 20);
}

// PEG on cascading_polyhedra makes I-constraints by step 60 (tests/physics/test_peg_scenes.cpp):
// Ctrl+8 draws them, in the I colour at the primary.
TEST(ContactModelWindow, ConstraintGroupsOfPegAreDrawnAtTheirPrimaryContacts) {
  test::Window win(0);
  Settings s = win.w.settingsPanel()->settings();
  s.contact_model = ContactModel::Peg;
  win.w.settingsPanel()->setSettings(s);
  emit win.w.simulation()->setSettings(s);
  win.run(60);
  SceneView* view = win.w.sceneView();
  qint64 frame = -1;
  for (qint64 k = win.w.source()->count() - 1; k >= 0 && frame < 0; --k)
    for (const ConstraintGroup& g : win.w.source()->frame(k)->constraints.groups)
      if (g.kind == ConstraintKind::InterContact && g.count > 1) frame = k;
  ASSERT_GE(frame, 0) << "an I-constraint within 60 PEG steps";
  win.w.showFrameIndex(frame);
  EXPECT_EQ(view->frame()->contact_model, "peg");
  win.w.setOverlay("contacts", false);
  win.w.setOverlay("aabbs", false);
  const Sketch sketch = [&] {
    win.w.setOverlay("groups", true);
    Sketch sk = view->overlaySketch("groups");
    win.w.setOverlay("groups", false);
    return sk;
  }();
  Vec3 primary = Vec3::Zero();
  bool found = false;
  for (const auto& m : sketch.markers)
    if (!found && m.color == kInterContactGroup) {
      primary = m.at;
      found = true;
    }
  ASSERT_TRUE(found);
  QPointF at;
  ASSERT_TRUE(view->project(primary, at));
  const QImage off = capture(view);
  QTest::keyClick(&win.w, Qt::Key_8, Qt::ControlModifier);
  ASSERT_TRUE(win.w.overlayAction("groups")->isChecked());
  const QImage on = capture(view);
  EXPECT_GE(changed(off, on, at.toPoint(), 4), 10) << "around an I-constraint's primary contact";
}

// Side by side (issue 6): triangle_drop under SM with PEG drawn over it. Both runs advance
// together; the SM traps the falling triangle's vertex on the static apex (thesis §5.2.1),
// PEG's I- and X-constraints let it slide off, so the two runs part.
TEST(ContactModelWindow, CompareWithModelRunsBothAndTheyDivergeOnATrapScene) {
  test::Window win(0, "triangle_drop");
  bool has_action = false;
  for (QAction* a : win.w.findChildren<QAction*>())
    has_action |= a->text() == "&Compare with Model…";
  EXPECT_TRUE(has_action);
  win.w.compareWith("peg");
  EXPECT_EQ(win.w.comparedModel(), "peg");
  EXPECT_NE(win.w.windowTitle().indexOf("compared with peg"), -1);
  const int steps = 150;
  win.run(steps);
  const FrameSource* other = win.w.comparisonSource();
  ASSERT_TRUE(wait_until([&] { return other->count() >= steps + 1; }, 60000))
      << other->count() << " comparison frames";
  SceneView* view = win.w.sceneView();
  win.w.showFrameIndex(steps);
  ASSERT_TRUE(view->ghost());
  EXPECT_EQ(view->frame()->step, steps);
  EXPECT_EQ(view->ghost()->step, steps);
  EXPECT_EQ(view->frame()->contact_model, "sm");
  EXPECT_EQ(view->ghost()->contact_model, "peg");
  int traps = 0, inter = 0;
  for (qint64 k = 0; k < win.w.source()->count(); ++k)
    traps += int(win.w.source()->frame(k)->sm_traps.size());
  for (qint64 k = 0; k < other->count(); ++k)
    for (const ConstraintGroup& g : other->frame(k)->constraints.groups)
      inter += g.kind == ConstraintKind::InterContact;
  EXPECT_GT(traps, 0) << "the standard model meets SM traps";
  EXPECT_GT(inter, 0) << "PEG answers with I-constraints";
  // Step by step, the largest distance between a body in one run and in the other.
  double apart = 0.0;
  qint64 first_apart = -1;
  for (qint64 k = 0; k <= steps; ++k) {
    const FramePtr a = win.w.source()->frame(k), b = win.w.comparisonFrame(k);
    ASSERT_EQ(a->step, b->step);
    for (std::size_t i = 0; i < a->bodies.size(); ++i) {
      const double d = (a->bodies[i].position - b->bodies[i].position).norm();
      if (d > 1e-3 && first_apart < 0) first_apart = k;
      apart = std::max(apart, d);
    }
  }
  std::printf(
      "triangle_drop sm vs peg, %d steps: %d SM traps, %d I-constraints, bodies apart by up to "
      "%.4g m, "
      "first by more than 1 mm at step %lld\n",
      steps, traps, inter, apart, static_cast<long long>(first_apart));
  EXPECT_GT(apart, 1e-2) << "the runs diverge";
  // The ghost is drawn: hiding it changes the picture (at a frame where PEG's triangle is still
  // in view, sliding down the apex's side).
  win.w.showFrameIndex(first_apart + 10);
  const QImage with = capture(view);
  win.w.compareWith({});
  EXPECT_FALSE(view->ghost());
  EXPECT_EQ(win.w.windowTitle().indexOf("compared"), -1);
  const QImage without = capture(view);
  EXPECT_GT(changed(with, without), 100);
}

}  // namespace
}  // namespace pegsim::gui
