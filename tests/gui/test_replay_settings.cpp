// A replayed run shows, for each frame, the settings that frame was stepped with: the run
// file's settings log (docs/run-format.md), not only the header's initial settings.
#include <gtest/gtest.h>

#include <QTemporaryDir>

#include "engine/dynamics/simulator.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "gui/ui/settings_panel.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

TEST(ReplaySettings, EachFrameShowsTheSettingsItWasSteppedWith) {
  QTemporaryDir dir;
  const QString run = dir.filePath("changes.h5");
  const Scene scene = load_scene(test::scene_path("sphere_drop"));
  const double h0 = scene.settings.h;
  {
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    Settings s = scene.settings;
    for (int k = 0; k < 30; ++k) {
      if (k == 10) {  // frames 11.. are stepped with h / 2
        s.h = h0 / 2;
        sim.set_settings(s);
      }
      if (k == 20) {  // frames 21.. with PGS
        s.solver = "pgs";
        s.tolerance = 1e-6;
        sim.set_settings(s);
      }
      sim.step();
    }
    writer.close();
  }
  test::Window win(0);
  win.w.openFile(run);
  ASSERT_TRUE(win.w.replaying());
  SettingsPanel* panel = win.w.settingsPanel();
  struct Expect {
    qint64 frame;
    double h;
    const char* solver;
    double tolerance;
  };
  // Scrub forwards and back: each frame's own settings, whatever was shown before.
  for (const Expect& e :
       {Expect{5, h0, "lemke", scene.settings.tolerance},
        Expect{15, h0 / 2, "lemke", scene.settings.tolerance}, Expect{25, h0 / 2, "pgs", 1e-6},
        Expect{11, h0 / 2, "lemke", scene.settings.tolerance},
        Expect{10, h0, "lemke", scene.settings.tolerance}, Expect{21, h0 / 2, "pgs", 1e-6}}) {
    win.w.showFrameIndex(e.frame);
    const Settings shown = panel->settings();
    EXPECT_DOUBLE_EQ(shown.h, e.h) << "frame " << e.frame;
    EXPECT_EQ(shown.solver, e.solver) << "frame " << e.frame;
    EXPECT_DOUBLE_EQ(shown.tolerance, e.tolerance) << "frame " << e.frame;
    // The frame itself carries them too (what the status bar and plots see).
    EXPECT_DOUBLE_EQ(win.w.sceneView()->frame()->h, e.h) << "frame " << e.frame;
    EXPECT_EQ(win.w.sceneView()->frame()->configured_solver, e.solver) << "frame " << e.frame;
  }
  EXPECT_NE(panel->note().indexOf("from frame 21"), -1) << panel->note().toStdString();
  EXPECT_FALSE(panel->isEnabled()) << "a recorded run's settings cannot be edited";
  // Back to a live scene: the panel is the live run's again, without the note.
  win.opened.clear();
  win.w.openFile(QString::fromStdString(test::scene_path("sphere_drop")));
  ASSERT_TRUE(wait_until([&] { return !win.opened.isEmpty(); }));
  EXPECT_TRUE(panel->note().isEmpty());
  EXPECT_TRUE(panel->isEnabled());
}

}  // namespace
}  // namespace pegsim::gui
