// The simulation worker on its thread: frames match a direct Simulator run bit for bit, and
// settings sent while running apply from the next step; recording the live run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QList>
#include <QThread>
#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "gui/sim/sim_thread.hpp"
#include "io/run_reader.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

using test::qt_app;
using test::scene_path;
using test::wait_until;

struct Harness {
  SimThread thread;
  QObject context;  // receives on the test's thread
  QList<FramePtr> frames;
  FramePtr initial;
  ModelPtr model;
  Settings settings;
  int steps_done = 0;
  int settings_applied = 0;
  qsizetype frames_at_settings = -1;
  QString error;
  bool running = false;
  QThread* worker_thread = nullptr;

  Harness() {
    qt_app();
    SimWorker* w = thread.worker();
    QObject::connect(w, &SimWorker::sceneLoaded, &context,
                     [this](ModelPtr m, Settings s, QString, QString, FramePtr f) {
                       model = m;
                       settings = s;
                       initial = f;
                     });
    QObject::connect(w, &SimWorker::framesReady, &context,
                     [this](const QList<FramePtr>& f) { frames += f; });
    // A direct connection runs in the emitting thread: where the steps were taken.
    QObject::connect(
        w, &SimWorker::framesReady, w, [this] { worker_thread = QThread::currentThread(); },
        Qt::DirectConnection);
    QObject::connect(w, &SimWorker::stepsDone, &context, [this] { ++steps_done; });
    QObject::connect(w, &SimWorker::loadFailed, &context,
                     [this](QString, QString m) { error = m; });
    QObject::connect(w, &SimWorker::runningChanged, &context, [this](bool on) { running = on; });
    QObject::connect(w, &SimWorker::settingsApplied, &context, [this](Settings) {
      ++settings_applied;
      frames_at_settings = frames.size();
    });
  }
  void load(const std::string& scene) {
    emit thread.loadScene(QString::fromStdString(scene));
    ASSERT_TRUE(wait_until([this] { return initial || !error.isEmpty(); })) << "no answer";
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
  }
};

void expect_same(const FrameSnapshot& f, const Simulator& sim, const StepReport& r) {
  EXPECT_EQ(f.step, sim.state().step);
  EXPECT_EQ(f.time, sim.state().time);
  ASSERT_EQ(f.bodies.size(), sim.state().bodies.size());
  for (std::size_t i = 0; i < f.bodies.size(); ++i) {
    const BodyState& a = f.bodies[i];
    const BodyState& b = sim.state().bodies[i];
    // Bit for bit: the same operations in the same order on another thread.
    EXPECT_TRUE(a.position == b.position) << "body " << i << " step " << f.step;
    EXPECT_TRUE(a.orientation.coeffs() == b.orientation.coeffs()) << "body " << i;
    EXPECT_TRUE(a.velocity == b.velocity) << "body " << i;
    EXPECT_TRUE(a.angular_velocity == b.angular_velocity) << "body " << i;
  }
  ASSERT_EQ(f.contacts.size(), r.contacts.size()) << "step " << f.step;
  for (std::size_t k = 0; k < f.contacts.size(); ++k) {
    EXPECT_EQ(f.contacts[k].gap, r.contacts[k].gap);
    EXPECT_TRUE(f.contacts[k].normal == r.contacts[k].normal);
    EXPECT_EQ(f.contacts[k].normal_impulse, r.normal_impulse[k]);
    EXPECT_TRUE(f.contacts[k].friction_impulse == r.friction_impulse[k]);
    EXPECT_EQ(f.contacts[k].enforced, bool(r.enforced[k]));
    EXPECT_EQ(f.contacts[k].primary, r.contacts[k].primary());
  }
  EXPECT_EQ(f.solve.residual, r.solve.residual);
  EXPECT_EQ(f.solve.problem_size, r.problem_size);
}

TEST(SimWorker, RunStepsMatchesADirectSimulatorRunBitForBit) {
  Harness h;
  h.load(scene_path("cascading_polyhedra"));
  emit h.thread.runSteps(120);
  ASSERT_TRUE(wait_until([&] { return h.steps_done == 1; }));
  ASSERT_EQ(h.frames.size(), 120);
  EXPECT_NE(h.worker_thread, nullptr);
  EXPECT_NE(h.worker_thread, QThread::currentThread())
      << "frames were not produced on the worker thread";

  const Scene scene = load_scene(scene_path("cascading_polyhedra"));
  Simulator sim(scene.model, scene.initial, scene.settings);
  bool saw_contacts = false;
  for (const FramePtr& f : h.frames) {
    const StepReport& r = sim.step();
    expect_same(*f, sim, r);
    saw_contacts |= r.problem_size > 0;
  }
  EXPECT_TRUE(saw_contacts) << "120 steps should include landings on the pedestal";
}

TEST(SimWorker, PlayPauseProducesConsecutiveStepsThatMatchTheSimulator) {
  Harness h;
  h.load(scene_path("cascading_polyhedra"));
  emit h.thread.setSpeed(0.0);  // as fast as possible
  emit h.thread.play();
  ASSERT_TRUE(wait_until([&] { return h.frames.size() >= 40; }));
  emit h.thread.pause();
  ASSERT_TRUE(wait_until([&] { return !h.running; }));
  const qsizetype n = h.frames.size();
  QThread::msleep(50);
  QCoreApplication::processEvents();
  EXPECT_EQ(h.frames.size(), n) << "frames kept coming after pause";

  const Scene scene = load_scene(scene_path("cascading_polyhedra"));
  Simulator sim(scene.model, scene.initial, scene.settings);
  for (const FramePtr& f : h.frames) expect_same(*f, sim, sim.step());
}

TEST(SimWorker, SettingsChangedWhileRunningApplyFromTheNextStep) {
  Harness h;
  h.load(scene_path("cascading_polyhedra"));
  const double h0 = h.settings.h;
  emit h.thread.setSpeed(0.0);
  emit h.thread.play();
  ASSERT_TRUE(wait_until([&] { return h.frames.size() >= 10; }));
  Settings s = h.settings;
  s.h = h0 / 4.0;
  emit h.thread.setSettings(s);
  ASSERT_TRUE(wait_until(
      [&] { return h.settings_applied == 1 && h.frames.size() > h.frames_at_settings + 5; }));
  emit h.thread.pause();
  ASSERT_TRUE(wait_until([&] { return !h.running; }));
  const qsizetype m = h.frames_at_settings;
  // Every step before the change used h0, every step after it the new h.
  for (qsizetype k = 1; k < m; ++k)
    EXPECT_NEAR(h.frames[k]->time - h.frames[k - 1]->time, h0, 1e-12) << k;
  for (qsizetype k = m; k < h.frames.size(); ++k)
    EXPECT_NEAR(h.frames[k]->time - h.frames[k - 1]->time, h0 / 4.0, 1e-12) << k;
}

TEST(SimWorker, SingleStepAndResetAndUnusableSettings) {
  Harness h;
  h.load(scene_path("hello_world"));
  emit h.thread.stepOnce();
  ASSERT_TRUE(wait_until([&] { return h.frames.size() == 1; }));
  EXPECT_EQ(h.frames[0]->step, 1);
  QString rejected;
  QObject::connect(h.thread.worker(), &SimWorker::settingsRejected, &h.context,
                   [&](QString why) { rejected = why; });
  Settings bad = h.settings;
  bad.solver = "no-such-solver";
  emit h.thread.setSettings(bad);
  ASSERT_TRUE(wait_until([&] { return !rejected.isEmpty(); }));
  emit h.thread.reset();
  ASSERT_TRUE(wait_until([&] { return h.frames.size() == 2; }));
  EXPECT_EQ(h.frames[1]->step, 0);
  EXPECT_TRUE(h.frames[1]->bodies[1].position == h.initial->bodies[1].position);
  emit h.thread.stepOnce();
  ASSERT_TRUE(wait_until([&] { return h.frames.size() == 3; }));
  EXPECT_EQ(h.frames[2]->time, h.frames[0]->time) << "the rejected settings must not be used";
}

TEST(SimWorker, ABadSceneIsReportedAndTheWorkerStaysUsable) {
  Harness h;
  emit h.thread.loadScene("/nonexistent/scene.json");
  ASSERT_TRUE(wait_until([&] { return !h.error.isEmpty(); }));
  EXPECT_NE(h.error.indexOf("/nonexistent/scene.json"), -1) << h.error.toStdString();
  h.error.clear();
  h.load(scene_path("hello_world"));
  EXPECT_TRUE(h.model);
}

}  // namespace
}  // namespace pegsim::gui

namespace pegsim::gui {
namespace {

TEST(SimWorker, RecordsTheLiveRunToARunFileFromTheCurrentFrame) {
  Harness h;
  h.load(test::scene_path("cascading_polyhedra"));
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("pegsim-gui-record-" + std::to_string(::getpid()) + ".h5");
  std::filesystem::remove(file);
  QStringList events, failures;
  QObject::connect(h.thread.worker(), &SimWorker::recordingChanged, &h.context,
                   [&](bool on, QString) { events << (on ? "on" : "off"); });
  QObject::connect(h.thread.worker(), &SimWorker::recordingFailed, &h.context,
                   [&](QString, QString why) { failures << why; });
  emit h.thread.runSteps(10);  // not recorded: recording starts at the current frame
  emit h.thread.startRecording(QString::fromStdString(file.string()), false);
  emit h.thread.runSteps(25);
  emit h.thread.stopRecording();
  ASSERT_TRUE(test::wait_until([&] { return events.size() == 2; }));
  EXPECT_EQ(events, (QStringList{"on", "off"}));
  ASSERT_TRUE(failures.isEmpty()) << failures.join("; ").toStdString();
  ASSERT_EQ(h.frames.size(), 35);
  {
    RunReader reader(file);
    ASSERT_EQ(reader.frame_count(), 26);
    EXPECT_EQ(reader.frame(0).step, 10);
    const RunFrame last = reader.frame(25);
    EXPECT_EQ(last.step, 35);
    for (std::size_t i = 0; i < last.bodies.size(); ++i)
      EXPECT_TRUE(last.bodies[i].position == h.frames.back()->bodies[i].position) << i;
  }
  // An existing file is not replaced without overwrite.
  emit h.thread.startRecording(QString::fromStdString(file.string()), false);
  ASSERT_TRUE(test::wait_until([&] { return !failures.isEmpty(); }));
  EXPECT_NE(failures[0].indexOf(QString::fromStdString(file.filename().string())), -1)
      << failures[0].toStdString();
  EXPECT_EQ(RunReader(file).frame_count(), 26);
  std::filesystem::remove(file);
}

// Live play gives each solve the live budget: with one no solve can meet (1e-12 s) a single step
// of stack10 goes on with the best answer found and its frame says so. A batch (runSteps) and a
// recorded step are exact, and the run file's settings carry no budget.
TEST(SimWorker, LiveStepsGoOnWithTheBestAnswerPastTheLiveBudgetAndRecordingsStayExact) {
  Harness h;
  h.load(test::scene_path("stack10"));
  EXPECT_EQ(h.settings.time_budget, 0.0) << "the scene's own settings, shown in the dock";
  emit h.thread.setLiveTimeBudget(1e-12);
  emit h.thread.stepOnce();
  ASSERT_TRUE(test::wait_until([&] { return h.frames.size() == 1; }));
  const SolveSummary& live = h.frames.back()->solve;
  ASSERT_GT(live.problem_size, 0);
  EXPECT_TRUE(live.approximate);
  EXPECT_TRUE(live.over_budget);
  EXPECT_EQ(live.time_budget, 1e-12);
  EXPECT_GT(live.residual, 0.0);
  EXPECT_FALSE(live.failed);

  emit h.thread.runSteps(1);
  ASSERT_TRUE(test::wait_until([&] { return h.frames.size() == 2; }));
  EXPECT_FALSE(h.frames.back()->solve.approximate);
  EXPECT_EQ(h.frames.back()->solve.time_budget, 0.0);

  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("pegsim-gui-budget-" + std::to_string(::getpid()) + ".h5");
  std::filesystem::remove(file);
  bool stopped = false;
  QObject::connect(h.thread.worker(), &SimWorker::recordingChanged, &h.context,
                   [&](bool on, QString) { stopped = !on; });
  emit h.thread.startRecording(QString::fromStdString(file.string()), false);
  emit h.thread.stepOnce();
  emit h.thread.stopRecording();
  ASSERT_TRUE(test::wait_until([&] { return stopped && h.frames.size() == 3; }));
  EXPECT_FALSE(h.frames.back()->solve.approximate) << "a recorded step is exact";
  {
    RunReader reader(file);
    EXPECT_EQ(reader.header().settings.time_budget, 0.0);
    EXPECT_TRUE(reader.settings_changes().empty());
  }
  std::filesystem::remove(file);

  emit h.thread.stepOnce();  // live again, recording over
  ASSERT_TRUE(test::wait_until([&] { return h.frames.size() == 4; }));
  EXPECT_TRUE(h.frames.back()->solve.over_budget);
}

}  // namespace
}  // namespace pegsim::gui
