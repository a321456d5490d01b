// The simulation worker: lives on its own QThread and owns the Simulator. The GUI talks to it
// only through queued slots and receives immutable FrameSnapshots, so it never touches
// engine state and a slow step never blocks the window.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>

#include "engine/dynamics/simulator.hpp"
#include "gui/sim/frame_snapshot.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace pegsim::gui {

using ScenePtr = std::shared_ptr<const Scene>;

// The live budget a window starts with, s: a solve that needs more (a pile's stalling Lemke)
// goes on with the best answer found, and the status bar says APPROXIMATE.
constexpr double kLiveTimeBudget = 0.1;

class SimWorker : public QObject {
  Q_OBJECT
 public:
  explicit SimWorker(QObject* parent = nullptr);
  ~SimWorker() override;

 public slots:
  void loadScene(const QString& file);
  // A scene parsed elsewhere (a run file's embedded scene, its initial state the run's first
  // frame); `file` names it in sceneLoaded and loadFailed.
  void adoptScene(const pegsim::gui::ScenePtr& scene, const QString& file);
  void play();
  void pause();
  void stepOnce();
  void runSteps(int count);  // steps now, one batch of frames, then stepsDone()
  void reset();
  // Applied between two steps: the next step uses them.
  void setSettings(const pegsim::Settings& settings);
  // Fraction of real time (1 = 100 %); <= 0 runs as fast as possible.
  void setSpeed(double fraction);
  // Wall-clock seconds each solve of live play may take (0: exact; see useLiveBudget).
  void setLiveTimeBudget(double seconds);
  // Records from the current state on (frame 0) to a run file; an existing file is replaced
  // only with `overwrite`. Loading a scene or resetting ends the recording.
  void startRecording(const QString& file, bool overwrite);
  void stopRecording();

 signals:
  void sceneLoaded(pegsim::gui::ModelPtr model, pegsim::Settings settings, QString name,
                   QString file, pegsim::gui::FramePtr initial);
  void loadFailed(QString file, QString message);
  // After sceneLoaded, when loading noticed what may spoil the run (Scene::warnings, e.g. a
  // non-convex mesh colliding as its hull, and scene_warnings: initial overlaps, ...).
  void sceneWarnings(QString file, QStringList warnings);
  void framesReady(QList<pegsim::gui::FramePtr> frames);
  void runningChanged(bool running);
  void stepsDone();
  void settingsApplied(pegsim::Settings settings);
  void settingsRejected(QString why);
  void realTimeFactor(double factor);  // simulated / wall seconds over the last second
  void recordingChanged(bool on, QString file);
  void recordingFailed(QString file, QString message);

 private:
  void start(Scene scene, const QString& file);
  void tick();
  void stopRunning();
  FramePtr step();  // one step and its snapshot
  // Live play (play, a single step) gives each solve the live budget, so that a stalling solve
  // cannot hold the run for seconds, unless the settings carry a budget of their own; batches
  // (runSteps: comparisons, --steps) and recordings keep the settings' own (0: exact).
  void useLiveBudget(bool live);

  std::unique_ptr<Simulator> sim_;
  std::optional<Scene> scene_;  // the loaded scene: a run file's header embeds it
  std::unique_ptr<RunWriter> recorder_;
  ModelPtr model_;
  QTimer* timer_;
  double speed_ = 1.0;
  double live_budget_ = kLiveTimeBudget;
  double own_budget_ = 0.0;  // Settings::time_budget of the scene or the Settings dock
  bool running_ = false;
  QElapsedTimer wall_;
  double anchor_sim_ = 0.0;  // simulated time when the wall clock was (re)started
  // Real-time factor window.
  QElapsedTimer rate_wall_;
  double rate_sim_ = 0.0;
};

}  // namespace pegsim::gui
