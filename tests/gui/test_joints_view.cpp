// Joints in the window (issue 5): the joints overlay on rendered pixels, picking a joint,
// the inspector's values against the engine's joint_error / joint_coordinates, the joint
// plots, and the settings dock listing the engine's solvers and formulations.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <QXYSeries>
#include <cmath>
#include <numbers>

#include "engine/dynamics/simulator.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "engine/solvers/solver.hpp"
#include "gui/plots/plots_panel.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "gui/ui/main_window.hpp"
#include "gui/ui/settings_panel.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::capture;
using test::wait_until;

// The engine's numbers for the joint in the frame on screen.
struct EngineJoint {
  JointError error;
  JointCoordinates coordinates;
};
EngineJoint engine_joint(const Model& model, const FrameSnapshot& frame, int k) {
  const State state{frame.time, frame.step, frame.bodies};
  return {joint_error(state, model.joints[std::size_t(k)]),
          joint_coordinates(state, model.joints[std::size_t(k)])};
}

TEST(JointsView, TheJointsOverlayChangesThePixelsAtTheAnchorAndAClickThereInspectsTheJoint) {
  test::Window win(30, "pendulum");
  SceneView* view = win.w.sceneView();
  ASSERT_EQ(view->frame()->joints.size(), 1u);
  ASSERT_TRUE(view->overlayEnabled("joints")) << "on at start";
  QPointF anchor;
  ASSERT_TRUE(view->project(view->frame()->joints[0].frames.origin_a, anchor));
  const QPoint pixel = anchor.toPoint();
  ASSERT_TRUE(QRect(0, 0, view->width(), view->height()).contains(pixel));

  win.w.setOverlay("joints", false);
  const QImage off = capture(view);
  win.w.setOverlay("joints", true);
  const QImage on = capture(view);
  ASSERT_EQ(off.size(), on.size());
  int changed = 0;
  for (int dy = -4; dy <= 4; ++dy)
    for (int dx = -4; dx <= 4; ++dx) {
      const QColor a = off.pixelColor(pixel + QPoint(dx, dy)),
                   b = on.pixelColor(pixel + QPoint(dx, dy));
      changed += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                     std::abs(a.blue() - b.blue()) >
                 60;
    }
  EXPECT_GE(changed, 20) << "of the 81 pixels around the hinge's projected anchor " << pixel.x()
                         << ", " << pixel.y();

  // A click on the anchor picks the joint, not the rod behind it.
  EXPECT_EQ(view->jointAt(pixel), 0);
  EXPECT_EQ(view->jointAt(pixel + QPoint(40, 40)), -1);
  QTest::mouseClick(view->renderWindow(), Qt::LeftButton, {}, pixel);
  ASSERT_TRUE(wait_until([&] { return win.w.selectedJoint() == 0; }));
  EXPECT_EQ(view->selectedJoint(), 0);
  InspectorPanel* inspector = win.w.inspector();
  EXPECT_EQ(inspector->jointList()->currentRow(), 0);
  EXPECT_EQ(inspector->jointValue("type"), "revolute");
  EXPECT_EQ(inspector->jointValue("body A"), "world");
  EXPECT_EQ(inspector->jointValue("body B"), "rod");
  EXPECT_TRUE(inspector->jointValue("displacement (m)").isEmpty())
      << "a revolute joint does not slide";

  // The inspector's numbers are the engine's, in every frame shown.
  const Scene scene = load_scene(test::scene_path("pendulum"));
  for (qint64 k : {30, 12, 1}) {
    win.w.showFrameIndex(k);
    const EngineJoint e = engine_joint(scene.model, *view->frame(), 0);
    EXPECT_NEAR(inspector->jointValue("angle (rad)").toDouble(), e.coordinates.angle,
                1e-5 * std::abs(e.coordinates.angle) + 1e-12)
        << "frame " << k;
    EXPECT_NEAR(inspector->jointValue("angle (deg)").toDouble(),
                e.coordinates.angle * 180 / std::numbers::pi,
                1e-5 * std::abs(e.coordinates.angle * 180 / std::numbers::pi) + 1e-12);
    EXPECT_NEAR(inspector->jointValue("position error (m)").toDouble(), e.error.position,
                1e-5 * e.error.position + 1e-300);
    EXPECT_NEAR(inspector->jointValue("rotation error (rad)").toDouble(), e.error.angle,
                1e-5 * e.error.angle + 1e-300);
  }
  EXPECT_NE(inspector->jointValue("angle (rad)").toDouble(), 0.0)
      << "frame 1 has moved from the start";
}

// powerball_arm's joints are implicit PD drives: after live steps the inspector shows the
// shoulder drive's effort of the last step, the engine's (the same scene stepped as often
// here); a recorded frame does not know it and shows no such row.
TEST(JointsView, TheInspectorShowsAnImplicitDrivesEffort) {
  test::Window win(20, "powerball_arm");
  win.w.selectJoint(1);
  InspectorPanel* inspector = win.w.inspector();
  const Scene scene = load_scene(test::scene_path("powerball_arm"));
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (int k = 0; k < 20; ++k) ASSERT_FALSE(sim.step().failed);
  const double effort = sim.last_report().joints[1].drive_effort;
  EXPECT_GT(std::abs(effort), 1.0) << "the shoulder carries the arm";
  EXPECT_NEAR(inspector->jointValue("drive effort (N m)").toDouble(), effort,
              1e-5 * std::abs(effort));
  win.w.showFrameIndex(0);
  EXPECT_TRUE(inspector->jointValue("drive effort (N m)").isEmpty())
      << "the initial frame has none";
}

// Released 60 degrees from the vertical, the rod swings through the vertical to 60 degrees on
// the other side (energy conservation): the hinge angle measured from the start reaches
// 120 degrees after half a period (1.77 s at this amplitude; 1.645 s for small ones).
TEST(JointsView, TheJointPlotsShowTheSwingAndABoundedJointError) {
  test::Window win(0, "pendulum");
  win.w.plotsDock()->show();
  win.w.inspector()->jointList()->setCurrentRow(0);  // choosing it in the list selects it
  ASSERT_EQ(win.w.selectedJoint(), 0);
  win.run(200);  // 1 s at h = 0.005
  ASSERT_TRUE(wait_until([&] { return win.w.plotsComplete(); }));
  PlotsPanel* plots = win.w.plotsPanel();
  QXYSeries* angle = plots->series("joint angle");
  QXYSeries* error = plots->series("joint position error");
  QXYSeries* rotation = plots->series("joint rotation error");
  ASSERT_NE(angle, nullptr);
  ASSERT_EQ(angle->count(), 201);
  ASSERT_EQ(error->count(), 201);
  double swing = 0.0, worst = 0.0, worst_rotation = 0.0;
  for (int i = 0; i < angle->count(); ++i) {
    swing = std::max(swing, std::abs(angle->at(i).y()));
    worst = std::max(worst, error->at(i).y());
    worst_rotation = std::max(worst_rotation, rotation->at(i).y());
  }
  EXPECT_NEAR(swing, 2.0 * std::numbers::pi / 3.0, 0.05 * 2.0 * std::numbers::pi / 3.0)
      << "swing " << swing;
  // The stabilized rows (2.28) keep the anchor's velocity along the constraint zero, so the
  // error a step leaves is the chord-versus-arc drift of the swinging anchor point, about
  // (omega h)^2 d / 2 at the bottom: omega^2 = 2 m g d (1 - cos 60 deg) / I_O, d = 0.5 m,
  // I_O = m (1.01 / 12 + d^2) for the 0.1 x 0.1 x 1 m rod.
  const double d = 0.5, inertia = 1.01 / 12.0 + d * d, h = 0.005;
  const double omega2 = 2.0 * 9.81 * d * 0.5 / inertia;
  const double drift = omega2 * h * h * d / 2.0;
  EXPECT_LT(worst, 1.1 * drift) << "hinge anchor error, m; estimate " << drift;
  EXPECT_LT(worst_rotation, 1e-4) << "hinge axis tilt, rad";
  std::printf(
      "pendulum 1 s: swing %.4f rad (2 pi / 3 = %.4f), max anchor error %.3g m (estimate %.3g), "
      "max axis tilt %.3g rad\n",
      swing, 2.0 * std::numbers::pi / 3.0, worst, drift, worst_rotation);
  const Scene scene = load_scene(test::scene_path("pendulum"));
  const EngineJoint last = engine_joint(scene.model, *win.w.sceneView()->frame(), 0);
  EXPECT_DOUBLE_EQ(angle->at(200).y(), last.coordinates.angle);
  EXPECT_DOUBLE_EQ(error->at(200).y(), last.error.position);
}

TEST(JointsView, TheSettingsDockListsTheEngineSolversAndFormulations) {
  test::Window win(0, "pendulum");
  auto items = [](QComboBox* box) {
    std::vector<std::string> out;
    for (int i = 0; i < box->count(); ++i) out.push_back(box->itemText(i).toStdString());
    return out;
  };
  bool solvers = false, formulations = false;
  for (QComboBox* box : win.w.settingsPanel()->findChildren<QComboBox*>()) {
    solvers |= items(box) == solver_names();
    formulations |= items(box) == formulation_names();
  }
  EXPECT_TRUE(solvers);
  EXPECT_TRUE(formulations);
  // The fallback chain is edited as names and refused with the reason when unknown.
  auto* fallbacks = win.w.settingsPanel()->findChild<QLineEdit*>("fallbacks");
  ASSERT_NE(fallbacks, nullptr);
  EXPECT_EQ(fallbacks->text(), "pgs");
  Settings applied;
  bool got = false;
  auto c = QObject::connect(win.w.simulation()->worker(), &SimWorker::settingsApplied,
                            [&](const Settings& s) {
                              applied = s;
                              got = true;
                            });
  fallbacks->setText("psor, interior-point");
  emit fallbacks->editingFinished();
  ASSERT_TRUE(wait_until([&] { return got; }));
  EXPECT_EQ(applied.fallbacks, (std::vector<std::string>{"psor", "interior-point"}));
  QObject::disconnect(c);
}

}  // namespace
}  // namespace pegsim::gui
