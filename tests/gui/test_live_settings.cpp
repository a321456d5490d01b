// Switching solver and step size in the Settings dock while the simulation runs: the run never
// stops, and the frames that follow each switch were stepped with the new settings; the
// interactive preset chosen there runs on its sweep budget.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <cmath>

#include "engine/core/settings.hpp"
#include "engine/core/settings_preset.hpp"
#include "engine/solvers/solver.hpp"
#include "gui/ui/settings_panel.hpp"
#include "window_fixture.hpp"

namespace pegsim::gui {
namespace {

using test::wait_until;

TEST(LiveSettings, SwitchingSolverAndStepSizeWhileRunningKeepsTheRunGoingWithTheNewSettings) {
  test::Window win(0);
  std::vector<FramePtr> frames;
  QObject::connect(win.w.simulation()->worker(), &SimWorker::framesReady, &win.w,
                   [&frames](const QList<FramePtr>& batch) {
                     frames.insert(frames.end(), batch.begin(), batch.end());
                   });
  auto* h = win.w.settingsPanel()->findChild<QDoubleSpinBox*>("h");
  auto* solver = win.w.settingsPanel()->findChild<QComboBox*>("solver");
  ASSERT_TRUE(h && solver);
  // Iterative solvers reach 1e-3 on this scene; at 1e-6 PGS can still end a step at 7e-5 after
  // 10 000 sweeps, and a step no solver answers stops the run by design (FailurePolicy::Stop).
  auto* tolerance = win.w.settingsPanel()->findChild<QLineEdit*>("tolerance");
  ASSERT_NE(tolerance, nullptr);
  tolerance->setText("1e-3");
  emit tolerance->editingFinished();
  QTest::keyClick(&win.w, Qt::Key_Space);  // play
  ASSERT_TRUE(wait_until([&] { return frames.size() >= 5; }));

  std::vector<std::string> names = solver_names();
  names.push_back(names.front());  // and back to the first
  const double steps[] = {0.002, 0.004, 0.001, 0.003};
  for (std::size_t i = 0; i < names.size(); ++i) {
    const double new_h = steps[i % 4];
    solver->setCurrentText(QString::fromStdString(names[i]));
    h->setValue(new_h);
    const std::size_t mark = frames.size();
    ASSERT_DOUBLE_EQ(win.w.settingsPanel()->settings().tolerance, 1e-3);
    // Five frames stepped with both new settings arrive, each h after the one before.
    auto with_new = [&] {
      int n = 0;
      for (std::size_t k = mark; k < frames.size(); ++k)
        n += frames[k]->configured_solver == names[i] && std::abs(frames[k]->h - new_h) < 1e-12;
      return n;
    };
    ASSERT_TRUE(wait_until([&] { return with_new() >= 5; }, 30000))
        << names[i] << ": " << frames.size() - mark << " frames since the switch, "
        << (frames.empty()
                ? std::string("none")
                : frames.back()->configured_solver + " h=" + std::to_string(frames.back()->h))
        << (frames.empty() || !frames.back()->solve.failed
                ? ""
                : ", failed: " + frames.back()->solve.failure);
    const FrameSnapshot& last = *frames.back();
    const FrameSnapshot& before = *frames[frames.size() - 2];
    EXPECT_EQ(last.step, before.step + 1);
    EXPECT_NEAR(last.time - before.time, new_h, 1e-12);
    EXPECT_FALSE(last.solve.failed) << names[i] << ": " << last.solve.failure;
  }
  // Still running: more frames come without any command.
  const std::size_t n = frames.size();
  EXPECT_TRUE(wait_until([&] { return frames.size() > n + 5; }, 10000)) << "the run stopped";
  QTest::keyClick(&win.w, Qt::Key_Space);
}

// The formulation switched while a jointed scene with contacts runs (rolling_cart: revolute
// wheels on the ground): with path, which takes every formulation, each applies from the next
// step (the joints as free rows under mixed-lcp, the quadratic cone under ncp) and no step
// fails. The list is the engine's. The tolerance is 1e-8: where the switches fall depends on
// the wall clock, and anitescu-potra at the cart's impact (from step 27, failing at step 34)
// is a problem no solver answers to 1e-10 (path 2.8e-9, Lemke out of pivots): its 16 wheel
// contacts span 7 normal directions, the joints' regularization makes the other 9 stiff
// (eigenvalues of 3e-12), and a failed step stops the run by design.
TEST(LiveSettings, SwitchingTheFormulationWhileRunningAppliesFromTheNextStep) {
  test::Window win(0, "rolling_cart");
  auto* formulation = win.w.settingsPanel()->findChild<QComboBox*>("formulation");
  auto* solver = win.w.settingsPanel()->findChild<QComboBox*>("solver");
  auto* problem = win.w.settingsPanel()->findChild<QLabel*>("problem");
  ASSERT_TRUE(formulation && solver && problem);
  std::vector<std::string> items;
  for (int i = 0; i < formulation->count(); ++i)
    items.push_back(formulation->itemText(i).toStdString());
  EXPECT_EQ(items, formulation_names());
  solver->setCurrentText("path");
  auto* tolerance = win.w.settingsPanel()->findChild<QLineEdit*>("tolerance");
  ASSERT_NE(tolerance, nullptr);
  tolerance->setText("1e-8");
  emit tolerance->editingFinished();

  std::vector<FramePtr> frames;
  QObject::connect(win.w.simulation()->worker(), &SimWorker::framesReady, &win.w,
                   [&frames](const QList<FramePtr>& batch) {
                     frames.insert(frames.end(), batch.begin(), batch.end());
                   });
  QTest::keyClick(&win.w, Qt::Key_Space);  // play
  ASSERT_TRUE(wait_until([&] { return frames.size() >= 3; }));
  for (const char* name : {"mixed-lcp", "ncp", "anitescu-potra", "stewart-trinkle"}) {
    formulation->setCurrentText(name);
    EXPECT_TRUE(problem->text().isEmpty()) << name << ": " << problem->text().toStdString();
    const std::size_t mark = frames.size();
    auto stepped_with = [&] {
      int n = 0;
      for (std::size_t k = mark; k < frames.size(); ++k)
        n += frames[k]->formulation == name && frames[k]->configured_solver == "path";
      return n;
    };
    // A failed step stops the run: no need to wait for frames that will not come.
    auto failure = [&]() -> const FrameSnapshot* {
      for (const FramePtr& f : frames)
        if (f->solve.failed) return f.get();
      return nullptr;
    };
    ASSERT_TRUE(wait_until([&] { return stepped_with() >= 3 || failure(); }, 30000)) << name;
    ASSERT_EQ(failure(), nullptr) << name << ": step " << failure()->step << " ("
                                  << failure()->formulation
                                  << ") failed: " << failure()->solve.failure;
    bool seen = false;
    for (std::size_t k = mark; k < frames.size(); ++k) {
      if (seen) {
        EXPECT_EQ(frames[k]->formulation, name) << "frame " << frames[k]->step;
      }
      seen |= frames[k]->formulation == name;
      EXPECT_FALSE(frames[k]->solve.failed) << name << ": " << frames[k]->solve.failure;
    }
  }
  QTest::keyClick(&win.w, Qt::Key_Space);
}

// The geometrically implicit formulation from the Settings dock: rolling_disc opens under it
// (its scene setting), the frames say so and hold the end-of-step contact under the disc; on a
// scene with joints the dock shows why it cannot apply, and the run keeps its formulation.
TEST(LiveSettings, TheGeometricallyImplicitFormulationRunsTheDiscAndIsRefusedForJoints) {
  test::Window win(0, "rolling_disc");
  auto* formulation = win.w.settingsPanel()->findChild<QComboBox*>("formulation");
  auto* problem = win.w.settingsPanel()->findChild<QLabel*>("problem");
  ASSERT_TRUE(formulation && problem);
  EXPECT_EQ(formulation->currentText(), "geometrically-implicit");
  win.run(20);
  const FramePtr f = win.w.sceneView()->frame();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->formulation, "geometrically-implicit");
  EXPECT_FALSE(f->solve.failed) << f->solve.failure;
  ASSERT_EQ(f->contacts.size(), 1u);
  EXPECT_NEAR(f->bodies[1].position.y(), 1.0, 1e-9);
  EXPECT_NEAR(f->contacts[0].point_a.x(), f->bodies[1].position.x(), 1e-9)
      << "a1 under the centre at the end of the step";

  test::Window jointed(0, "pendulum");
  auto* other = jointed.w.settingsPanel()->findChild<QComboBox*>("formulation");
  auto* why = jointed.w.settingsPanel()->findChild<QLabel*>("problem");
  ASSERT_TRUE(other && why);
  const std::string before = other->currentText().toStdString();
  other->setCurrentText("geometrically-implicit");
  EXPECT_TRUE(wait_until([&] { return why->text().contains("takes no joints"); }))
      << why->text().toStdString();
  jointed.run(2);
  EXPECT_EQ(jointed.w.sceneView()->frame()->formulation, before);
}

}  // namespace
}  // namespace pegsim::gui

namespace pegsim::gui {
namespace {

using test::wait_until;

// The Settings dock's preset: choosing interactive sets pgs-contact alone with 20 sweeps as a
// budget (the dock shows them), the running stack10 steps on with it, every step either exact
// or marked approximate by its spent budget, never failed; editing a field makes it custom, and
// exact brings the defaults back.
TEST(LiveSettings, TheInteractivePresetRunsOnItsSweepBudget) {
  test::Window win(0, "stack10");
  std::vector<FramePtr> frames;
  QObject::connect(win.w.simulation()->worker(), &SimWorker::framesReady, &win.w,
                   [&frames](const QList<FramePtr>& batch) {
                     frames.insert(frames.end(), batch.begin(), batch.end());
                   });
  SettingsPanel* panel = win.w.settingsPanel();
  auto* preset = panel->findChild<QComboBox*>("preset");
  auto* solver = panel->findChild<QComboBox*>("solver");
  ASSERT_TRUE(preset && solver);
  EXPECT_EQ(preset->currentText(), "exact");
  preset->setCurrentText("interactive");
  emit preset->activated(preset->currentIndex());
  EXPECT_EQ(solver->currentText(), "pgs-contact");
  EXPECT_EQ(panel->findChild<QSpinBox*>("max_iterations")->value(), kInteractiveSweeps);
  EXPECT_TRUE(panel->findChild<QCheckBox*>("iteration_budget")->isChecked());
  EXPECT_EQ(panel->findChild<QSpinBox*>("contacts_per_pair")->value(), kInteractiveContactsPerPair);
  EXPECT_TRUE(panel->settings().fallbacks.empty());
  QTest::keyClick(&win.w, Qt::Key_Space);  // play
  auto interactive = [&] {
    int n = 0;
    for (const FramePtr& f : frames) n += f->configured_solver == "pgs-contact";
    return n;
  };
  ASSERT_TRUE(wait_until([&] { return interactive() >= 20; }, 30000));
  QTest::keyClick(&win.w, Qt::Key_Space);  // pause
  int marked = 0;
  for (const FramePtr& f : frames) {
    if (f->configured_solver != "pgs-contact") continue;
    EXPECT_FALSE(f->solve.failed) << f->solve.failure;
    EXPECT_EQ(f->solve.approximate, f->solve.iteration_budget) << "step " << f->step;
    marked += f->solve.iteration_budget;
  }
  EXPECT_GT(marked, 10);
  panel->findChild<QSpinBox*>("max_iterations")->setValue(30);
  EXPECT_EQ(preset->currentText(), "custom");
  EXPECT_FALSE(panel->choosePreset("fast"));
  EXPECT_TRUE(panel->choosePreset("exact"));  // as pegsim --preset exact does
  EXPECT_EQ(preset->currentText(), "exact");
  EXPECT_EQ(panel->findChild<QSpinBox*>("contacts_per_pair")->value(), 0);
  EXPECT_EQ(solver->currentText(), "lemke");
  EXPECT_EQ(panel->settings().max_iterations, Settings{}.max_iterations);
  EXPECT_FALSE(panel->settings().iteration_budget);
}

}  // namespace
}  // namespace pegsim::gui
