// Owns the worker thread and the SimWorker on it; its signals are the GUI's commands
// (queued across the thread boundary), the worker's signals come back queued too.
#pragma once

#include <QObject>
#include <QThread>

#include "gui/sim/sim_worker.hpp"

namespace pegsim::gui {

// Registers the types that cross the thread boundary in queued signals (idempotent).
void register_frame_types();

class SimThread : public QObject {
  Q_OBJECT
 public:
  explicit SimThread(QObject* parent = nullptr);
  ~SimThread() override;  // stops the worker and joins the thread

  // Connect to these for results (they arrive on the receiver's thread).
  SimWorker* worker() const { return worker_; }

 signals:
  void loadScene(const QString& file);
  void adoptScene(const pegsim::gui::ScenePtr& scene, const QString& file);
  void play();
  void pause();
  void stepOnce();
  void runSteps(int count);
  void reset();
  void setSettings(const pegsim::Settings& settings);
  void setSpeed(double fraction);
  void setLiveTimeBudget(double seconds);
  void startRecording(const QString& file, bool overwrite);
  void stopRecording();

 private:
  QThread thread_;
  SimWorker* worker_;
};

}  // namespace pegsim::gui
