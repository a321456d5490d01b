#include "gui/sim/sim_worker.hpp"

#include "engine/dynamics/scene_checks.hpp"

#include <cmath>
#include <exception>

#include "io/run_header.hpp"

namespace pegsim::gui {

namespace {
constexpr int kTickBudgetMs = 15;  // wall time one tick may step before the event loop runs
}

SimWorker::SimWorker(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
  connect(timer_, &QTimer::timeout, this, &SimWorker::tick);
}

SimWorker::~SimWorker() {
  // Closes the run file quietly: nobody is left to hear about it.
  if (recorder_) sim_->remove_observer(recorder_.get());
}

void SimWorker::loadScene(const QString& file) {
  try {
    start(load_scene(file.toStdString()), file);
  } catch (const std::exception& e) {
    emit loadFailed(file, QString::fromStdString(e.what()));
  }
}

void SimWorker::adoptScene(const ScenePtr& scene, const QString& file) {
  try {
    start(*scene, file);
  } catch (const std::exception& e) {
    emit loadFailed(file, QString::fromStdString(e.what()));
  }
}

// Throws (the simulator refuses the scene) before anything of the old run is let go.
void SimWorker::start(Scene scene, const QString& file) {
  auto sim = std::make_unique<Simulator>(scene.model, scene.initial, scene.settings);
  stopRunning();
  stopRecording();
  sim_ = std::move(sim);
  own_budget_ = scene.settings.time_budget;
  scene_ = std::move(scene);
  model_ = std::make_shared<const Model>(sim_->model());
  emit sceneLoaded(model_, sim_->settings(), QString::fromStdString(scene_->name), file,
                   make_snapshot(*model_, sim_->state(), nullptr));
  QStringList warnings;
  for (const std::string& w : scene_->warnings) warnings << QString::fromStdString(w);
  for (const std::string& w : scene_warnings(scene_->model, scene_->initial, scene_->settings))
    warnings << QString::fromStdString(w);
  if (!warnings.isEmpty()) emit sceneWarnings(file, warnings);
}

void SimWorker::play() {
  if (!sim_ || running_) return;
  running_ = true;
  wall_.start();
  anchor_sim_ = sim_->state().time;
  rate_wall_.start();
  rate_sim_ = anchor_sim_;
  timer_->start(speed_ > 0.0 ? 5 : 0);
  emit runningChanged(true);
}

void SimWorker::pause() {
  stopRunning();
}

void SimWorker::stopRunning() {
  timer_->stop();
  if (running_) {
    running_ = false;
    emit runningChanged(false);
  }
}

FramePtr SimWorker::step() {
  try {
    const Settings settings = sim_->settings();  // as the step uses them
    const StepReport& r = sim_->step();
    return make_snapshot(*model_, sim_->state(), &r, &settings);
  } catch (const RunFileError& e) {
    // The recorder observes the step after the state is updated: the step itself stands.
    const QString file = QString::fromStdString(recorder_->file().string());
    sim_->remove_observer(recorder_.get());
    recorder_.reset();
    emit recordingFailed(file, QString::fromStdString(e.what()));
    emit recordingChanged(false, file);
    return make_snapshot(*model_, sim_->state(), &sim_->last_report(), &sim_->settings());
  }
}

void SimWorker::startRecording(const QString& file, bool overwrite) {
  if (!sim_ || !scene_) return;
  stopRecording();
  useLiveBudget(false);  // the header's settings: what the recorded steps run with
  try {
    RunWriterOptions options;
    options.overwrite = overwrite;
    recorder_ = std::make_unique<RunWriter>(
        file.toStdString(), make_run_header(*scene_, sim_->model(), sim_->settings(), "pegsim"),
        sim_->state(), options);
    sim_->add_observer(recorder_.get());
    emit recordingChanged(true, file);
  } catch (const std::exception& e) {
    recorder_.reset();
    emit recordingFailed(file, QString::fromStdString(e.what()));
  }
}

void SimWorker::stopRecording() {
  if (!recorder_) return;
  const QString file = QString::fromStdString(recorder_->file().string());
  sim_->remove_observer(recorder_.get());
  try {
    recorder_->close();
  } catch (const std::exception& e) {
    emit recordingFailed(file, QString::fromStdString(e.what()));
  }
  recorder_.reset();
  emit recordingChanged(false, file);
}

void SimWorker::stepOnce() {
  if (!sim_) return;
  stopRunning();
  useLiveBudget(true);
  emit framesReady({step()});
}

void SimWorker::runSteps(int count) {
  if (sim_) {
    stopRunning();
    useLiveBudget(false);
    QList<FramePtr> frames;
    frames.reserve(count);
    for (int k = 0; k < count; ++k) {
      frames.push_back(step());
      if (frames.back()->solve.failed) break;
    }
    if (!frames.isEmpty()) emit framesReady(frames);
  }
  emit stepsDone();
}

void SimWorker::reset() {
  if (!sim_) return;
  stopRunning();
  stopRecording();  // a run file holds one continuous run
  sim_->reset();
  emit framesReady({make_snapshot(*model_, sim_->state(), nullptr)});
}

void SimWorker::setSettings(const pegsim::Settings& settings) {
  if (!sim_) return;
  try {
    sim_->set_settings(settings);
    own_budget_ = settings.time_budget;
    emit settingsApplied(sim_->settings());
  } catch (const std::exception& e) {
    emit settingsRejected(QString::fromStdString(e.what()));
  }
}

void SimWorker::setSpeed(double fraction) {
  speed_ = fraction;
  if (running_) {
    wall_.start();
    anchor_sim_ = sim_->state().time;
    timer_->start(speed_ > 0.0 ? 5 : 0);
  }
}

void SimWorker::setLiveTimeBudget(double seconds) {
  if (seconds >= 0.0 && std::isfinite(seconds)) live_budget_ = seconds;
}

void SimWorker::useLiveBudget(bool live) {
  sim_->set_time_budget(live && !recorder_ && own_budget_ == 0.0 ? live_budget_ : own_budget_);
}

void SimWorker::tick() {
  if (!sim_ || !running_) return;
  useLiveBudget(true);
  QElapsedTimer budget;
  budget.start();
  QList<FramePtr> frames;
  const double target =
      speed_ > 0.0 ? anchor_sim_ + speed_ * double(wall_.nsecsElapsed()) * 1e-9 : 0.0;
  bool failed = false;
  while (budget.elapsed() < kTickBudgetMs) {
    // Real time: step only while the simulation is behind the wall clock.
    if (speed_ > 0.0 && sim_->state().time + 0.5 * sim_->settings().h > target) break;
    frames.push_back(step());
    if (frames.back()->solve.failed) {
      failed = true;
      break;
    }
  }
  if (speed_ > 0.0 && budget.elapsed() >= kTickBudgetMs) {
    // Too slow for the requested speed: re-anchor instead of accumulating a backlog.
    wall_.start();
    anchor_sim_ = sim_->state().time;
  }
  if (!frames.isEmpty()) emit framesReady(frames);
  if (rate_wall_.elapsed() >= 500) {
    emit realTimeFactor((sim_->state().time - rate_sim_) / (rate_wall_.nsecsElapsed() * 1e-9));
    rate_wall_.start();
    rate_sim_ = sim_->state().time;
  }
  if (failed) stopRunning();  // the failed frame says why; the state is the last good one
}

}  // namespace pegsim::gui
