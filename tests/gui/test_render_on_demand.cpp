// The window renders on demand: frames reach the X server while something changes (a run, a
// camera move) and none while the window is paused and untouched (a paused window that kept
// rendering used 40 % of a core). Frames are counted at glXSwapBuffers (swap_counter.hpp).
#include <gtest/gtest.h>

#include <QComboBox>
#include <QTest>
#include <cstdio>

#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "swap_counter.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::presented_frames;
using test::wait_until;

// Frames presented over `ms` of the event loop running with nothing to do.
long frames_while_idle(int ms) {
  const long before = presented_frames();
  wait_until([] { return false; }, ms);
  return presented_frames() - before;
}

TEST(RenderOnDemand, APausedWindowPresentsNoFramesAndARunningOneDoes) {
  test::Window win(0, "stack10");
  // Loading uploads geometry over a few frames; then the window settles.
  ASSERT_TRUE(wait_until([] { return presented_frames() > 0; }))
      << "no frame counted: glXSwapBuffers is not reached (not GLX?)";
  wait_until([] { return false; }, 1000);
  EXPECT_EQ(frames_while_idle(1500), 0) << "the paused window keeps rendering";

  // Running as fast as possible: new frames are shown, so new images are presented (the rate
  // is printed: the figure in docs/benchmarks.md).
  win.w.speedBox()->setCurrentIndex(win.w.speedBox()->count() - 1);
  QTest::keyClick(&win.w, Qt::Key_Space);
  wait_until([] { return false; }, 500);
  const long running = frames_while_idle(3000);
  QTest::keyClick(&win.w, Qt::Key_Space);
  std::printf("stack10 running as fast as possible: %.1f frames presented/s\n", running / 3.0);
  EXPECT_GE(running, 3) << "a running simulation is drawn";

  // A camera move is one redraw, then quiet again.
  wait_until([] { return false; }, 500);
  const long before = presented_frames();
  OrbitCamera closer = win.w.sceneView()->camera();
  closer.distance *= 0.8;
  win.w.sceneView()->setCamera(closer);
  ASSERT_TRUE(wait_until([&] { return presented_frames() > before; }));
  wait_until([] { return false; }, 500);
  EXPECT_EQ(frames_while_idle(1500), 0) << "rendering did not stop after the camera move";
}

}  // namespace
}  // namespace pegsim::gui
