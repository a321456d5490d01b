// Issue 27 item 4: the status bar shows the largest overlap of any body pair in the frame on
// screen (exact, metrics/overlap.hpp), an area in m² in a 2D scene, so that bodies passing
// through each other show even when no enforced contact measures them.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <fstream>
#include <string>

#include "gui/ui/main_window.hpp"
#include "gui/ui/status_panel.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;
using test::Window;

// Opens `file` in the window; the status bar's overlap once its first frame is shown.
QString open_and_read_overlap(Window& win, const std::string& file, const QString& expected) {
  win.opened.clear();
  win.w.openFile(QString::fromStdString(file));
  EXPECT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
  wait_until([&] { return win.w.statusPanel()->overlapText() == expected; }, 5000);
  return win.w.statusPanel()->overlapText();
}

TEST(StatusOverlap, TheOpenedScenesLargestPairOverlapIsShown) {
  QTemporaryDir dir;
  // Two unit cubes 0.1 m inside each other: a 0.1 x 1 x 1 box, 0.1 m³.
  const std::string cubes = dir.filePath("cubes.json").toStdString();
  std::ofstream(cubes) << R"({"name": "cubes", "settings": {"gravity": [0, 0, 0]}, "bodies": [
    {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [-0.45, 0, 0], "mass": 1},
    {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [0.45, 0, 0], "mass": 1}]})";
  // The same in 2D: two unit squares 0.25 m inside each other, 0.25 m².
  const std::string squares = dir.filePath("squares.json").toStdString();
  std::ofstream(squares) << R"({"name": "squares", "dimension": 2, "bodies": [
    {"name": "a", "shape": {"type": "rectangle", "size": [1, 1]}, "position": [-0.375, 0]},
    {"name": "b", "shape": {"type": "rectangle", "size": [1, 1]}, "position": [0.375, 0]}]})";

  Window win(0);
  // cascading_polyhedra's initial state: every body apart.
  EXPECT_EQ(win.w.statusPanel()->overlapText(), "overlap 0 m³");
  EXPECT_EQ(open_and_read_overlap(win, cubes, "overlap 1.00e-01 m³"), "overlap 1.00e-01 m³");
  EXPECT_EQ(open_and_read_overlap(win, squares, "overlap 2.50e-01 m²"), "overlap 2.50e-01 m²");
}

TEST(StatusOverlap, IsMeasuredOnTheFrameGivenAndHiddenWithoutAModel) {
  Window win(0);
  const Scene sc = load_scene(test::scene_path("hello_world"));
  FrameSnapshot f;
  f.bodies = sc.initial.bodies;
  win.w.statusPanel()->showFrame(f, &sc.model);
  EXPECT_EQ(win.w.statusPanel()->overlapText(), "overlap 0 m³");
  // Sunk 0.2 m into the ground: 1 x 1 x 0.2 m³.
  f.bodies[1].position.z() = 0.3;
  win.w.statusPanel()->showFrame(f, &sc.model);
  EXPECT_EQ(win.w.statusPanel()->overlapText(), "overlap 2.00e-01 m³");
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->overlapText(), "");
}

// The status bar counts the frame's SM traps, so a trap hunter sees at once where they are.
TEST(StatusBar, CountsTheFramesSmTraps) {
  Window win(0);
  FrameSnapshot f;
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->trapsText(), "0 SM traps");
  f.sm_traps.resize(1);
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->trapsText(), "1 SM trap");
  f.sm_traps.resize(3);
  win.w.statusPanel()->showFrame(f);
  EXPECT_EQ(win.w.statusPanel()->trapsText(), "3 SM traps");
}

// On triangle_drop under the standard model the falling triangle's vertex is trapped on the
// static apex (thesis §5.2.1): the status bar of such a frame says so.
TEST(StatusBar, ShowsTheTrapsOfTriangleDrop) {
  Window win(0, "triangle_drop");
  win.run(150);
  qint64 trapped = -1;
  for (qint64 k = 0; k < win.w.source()->count() && trapped < 0; ++k)
    if (!win.w.source()->frame(k)->sm_traps.empty()) trapped = k;
  ASSERT_GE(trapped, 0) << "triangle_drop under sm meets an SM trap";
  win.w.showFrameIndex(trapped);
  EXPECT_TRUE(wait_until([&] { return win.w.statusPanel()->trapsText() != "0 SM traps"; }));
  EXPECT_NE(win.w.statusPanel()->trapsText(), "0 SM traps");
}

}  // namespace
}  // namespace pegsim::gui
