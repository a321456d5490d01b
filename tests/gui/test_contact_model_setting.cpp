// The contact model (thesis Ch. 4: sm, lnc, peg) in the Settings dock: switched while the
// scene runs it applies from the next step, like the solver; a replayed run shows the model
// each frame was stepped with, from the run file's settings log.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QTemporaryDir>
#include <QTest>

#include "engine/dynamics/simulator.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/settings_panel.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

QComboBox* model_box(MainWindow& w) {
  return w.settingsPanel()->findChild<QComboBox*>("contact_model");
}

TEST(ContactModelSetting, TheDockListsTheEngineModelsAndASwitchWhileRunningAppliesFromTheNextStep) {
  test::Window win(0);
  QComboBox* box = model_box(win.w);
  ASSERT_NE(box, nullptr);
  std::vector<std::string> items;
  for (int i = 0; i < box->count(); ++i) items.push_back(box->itemText(i).toStdString());
  EXPECT_EQ(items, contact_model_names());
  EXPECT_EQ(box->currentText(), "sm") << "cascading_polyhedra's own setting";

  std::vector<FramePtr> frames;
  QObject::connect(win.w.simulation()->worker(), &SimWorker::framesReady, &win.w,
                   [&frames](const QList<FramePtr>& batch) {
                     frames.insert(frames.end(), batch.begin(), batch.end());
                   });
  QTest::keyClick(&win.w, Qt::Key_Space);  // play
  ASSERT_TRUE(wait_until([&] { return frames.size() >= 3; }));
  for (const char* name : {"peg", "lnc", "sm"}) {
    box->setCurrentText(name);
    const std::size_t mark = frames.size();
    auto stepped_with = [&] {
      int n = 0;
      for (std::size_t k = mark; k < frames.size(); ++k) n += frames[k]->contact_model == name;
      return n;
    };
    ASSERT_TRUE(wait_until([&] { return stepped_with() >= 3; }, 30000)) << name;
    // Once a frame has the new model every later one has it: no step went back.
    bool seen = false;
    for (std::size_t k = mark; k < frames.size(); ++k) {
      if (seen) {
        EXPECT_EQ(frames[k]->contact_model, name) << "frame " << frames[k]->step;
      }
      seen |= frames[k]->contact_model == name;
      EXPECT_FALSE(frames[k]->solve.failed) << name << ": " << frames[k]->solve.failure;
    }
    EXPECT_EQ(win.w.settingsPanel()->settings().contact_model, [&] {
      ContactModel m{};
      parse_contact_model(name, m);
      return m;
    }());
  }
  const std::size_t n = frames.size();
  EXPECT_TRUE(wait_until([&] { return frames.size() > n + 3; }, 10000)) << "the run stopped";
  QTest::keyClick(&win.w, Qt::Key_Space);
}

TEST(ContactModelSetting, AReplayShowsTheModelEachFrameWasSteppedWith) {
  QTemporaryDir dir;
  const QString run = dir.filePath("models.h5");
  const Scene scene = load_scene(test::scene_path("cascading_polyhedra"));
  {
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    Settings s = scene.settings;
    for (int k = 0; k < 20; ++k) {
      if (k == 10) {  // frames 11.. are stepped with PEG
        s.contact_model = ContactModel::Peg;
        sim.set_settings(s);
      }
      sim.step();
    }
    writer.close();
  }
  test::Window win(0);
  win.w.openFile(run);
  ASSERT_TRUE(win.w.replaying());
  QComboBox* box = model_box(win.w);
  for (auto [frame, name] : {std::pair{5, "sm"}, {15, "peg"}, {11, "peg"}, {10, "sm"}}) {
    win.w.showFrameIndex(frame);
    EXPECT_EQ(box->currentText(), name) << "frame " << frame;
    EXPECT_EQ(win.w.sceneView()->frame()->contact_model, name) << "frame " << frame;
  }
  EXPECT_FALSE(box->isEnabled()) << "history cannot be edited";
}

}  // namespace
}  // namespace pegsim::gui
