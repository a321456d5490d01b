// The keyboard as docs/desktop-app.md specifies it, through real key events sent to the window:
// Space play/pause, Left/Right one frame (Right at the live end steps the simulation),
// Home/End, F fit view; and the same keys typed into a Settings field stay text editing.
#include <gtest/gtest.h>

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QTest>

#include "gui/render/scene_view.hpp"
#include "gui/ui/settings_panel.hpp"
#include "gui/ui/timeline_bar.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

qint64 shown_step(test::Window& win) {
  return win.w.sceneView()->frame()->step;
}

TEST(Keyboard, ArrowsHomeAndEndMoveThroughTheFramesAndRightStepsAtTheLiveEnd) {
  test::Window win(10);
  win.w.activateWindow();
  ASSERT_EQ(shown_step(win), 10);
  QTest::keyClick(&win.w, Qt::Key_Left);
  QTest::keyClick(&win.w, Qt::Key_Left);
  EXPECT_EQ(shown_step(win), 8);
  QTest::keyClick(&win.w, Qt::Key_Right);
  EXPECT_EQ(shown_step(win), 9);
  QTest::keyClick(&win.w, Qt::Key_Home);
  EXPECT_EQ(shown_step(win), 0);
  QTest::keyClick(&win.w, Qt::Key_End);
  EXPECT_EQ(shown_step(win), 10);
  // At the end of the live run Right makes a new frame.
  QTest::keyClick(&win.w, Qt::Key_Right);
  ASSERT_TRUE(wait_until([&] { return win.w.timeline()->frameCount() == 12; }));
  EXPECT_EQ(shown_step(win), 11);
}

TEST(Keyboard, SpacePlaysAndPausesTheRun) {
  test::Window win(0);
  QTest::keyClick(&win.w, Qt::Key_Space);
  ASSERT_TRUE(wait_until([&] { return win.w.timeline()->frameCount() > 10; }));
  QTest::keyClick(&win.w, Qt::Key_Space);
  wait_until([] { return false; }, 300);  // the last batch arrives
  const qint64 n = win.w.timeline()->frameCount();
  wait_until([] { return false; }, 300);
  EXPECT_EQ(win.w.timeline()->frameCount(), n) << "still running after the second Space";
}

TEST(Keyboard, FFitsTheViewAlsoWhenThe3DViewHasTheFocus) {
  test::Window win(0);
  SceneView* view = win.w.sceneView();
  const double fitted = view->camera().distance;
  QWheelEvent zoom(QPointF(10, 10), QPointF(10, 10), {}, QPoint(0, -1200), Qt::NoButton,
                   Qt::NoModifier, Qt::NoScrollPhase, false);
  QWindow* gl = view->renderWindow();
  gl->requestActivate();
  ASSERT_TRUE(QTest::qWaitForWindowActive(gl)) << "the 3D view takes the focus";
  QCoreApplication::sendEvent(gl, &zoom);
  ASSERT_GT(view->camera().distance, 1.5 * fitted) << "the wheel zooms out";
  QTest::keyClick(gl, Qt::Key_F);
  EXPECT_NEAR(view->camera().distance, fitted, 1e-9 * fitted);
}

TEST(Keyboard, KeysTypedIntoASettingsFieldEditTheTextInsteadOfDrivingTheTimeline) {
  test::Window win(10);
  auto* h = win.w.settingsPanel()->findChild<QDoubleSpinBox*>("h");
  ASSERT_NE(h, nullptr);
  win.w.activateWindow();
  h->setFocus();
  ASSERT_TRUE(wait_until([&] { return h->hasFocus(); }, 2000));
  const double h0 = h->value();
  for (Qt::Key k :
       {Qt::Key_End, Qt::Key_Left, Qt::Key_Left, Qt::Key_Home, Qt::Key_Right, Qt::Key_Space})
    QTest::keyClick(h, k);
  EXPECT_EQ(shown_step(win), 10) << "the arrows moved the timeline, not the cursor";
  EXPECT_EQ(win.w.timeline()->frameCount(), 11) << "Right stepped the simulation";
  // The cursor moved inside the text: after End, two Lefts, Home and one Right it sits at 1.
  EXPECT_EQ(h->findChild<QLineEdit*>()->cursorPosition(), 1);
  wait_until([] { return false; }, 200);
  EXPECT_EQ(win.w.timeline()->frameCount(), 11) << "Space started the run";
  EXPECT_DOUBLE_EQ(h->value(), h0);
}

}  // namespace
}  // namespace pegsim::gui
