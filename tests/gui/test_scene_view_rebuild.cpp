// The view's entity tree is rebuilt when a file opens: the old bodies (and a comparison's
// translucent ones) are deleted, possibly in the same turn of the event loop that made them.
// Qt3D queues a new node for its backend until the loop turns; a queued node whose ancestor is
// deleted first is left in that queue, and the next turn crashed on it.
#include <gtest/gtest.h>

#include <QCoreApplication>

#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

TEST(SceneViewRebuild, BodiesMadeAndReplacedInOneTurnOfTheEventLoop) {
  test::Window win(20, "cascading_polyhedra");
  SceneView* view = win.w.sceneView();
  const ModelPtr model = view->model();
  const FramePtr frame = view->frame();
  ASSERT_TRUE(model && frame);
  for (int round = 0; round < 3; ++round) {
    view->setModel(model, view->impulseScale());
    QCoreApplication::processEvents();            // the new root reaches the backend
    view->showFrame(frame);                       // the first frame builds the bodies under it
    view->showGhost(frame);                       // and the translucent comparison
    view->setModel(model, view->impulseScale());  // before the loop turns
    view->showFrame(frame);
    wait_until([] { return false; }, 200);
    ASSERT_TRUE(view->frame());
  }
  EXPECT_EQ(view->frame()->step, frame->step);
}

}  // namespace
}  // namespace pegsim::gui
