#include "gui/sim/sim_thread.hpp"

#include <QMetaType>

namespace pegsim::gui {

void register_frame_types() {
  qRegisterMetaType<pegsim::gui::FramePtr>("pegsim::gui::FramePtr");
  qRegisterMetaType<pegsim::gui::ModelPtr>("pegsim::gui::ModelPtr");
  qRegisterMetaType<QList<pegsim::gui::FramePtr>>("QList<pegsim::gui::FramePtr>");
  qRegisterMetaType<pegsim::Settings>("pegsim::Settings");
  qRegisterMetaType<pegsim::gui::ScenePtr>("pegsim::gui::ScenePtr");
}

SimThread::SimThread(QObject* parent) : QObject(parent), worker_(new SimWorker) {
  register_frame_types();
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(this, &SimThread::loadScene, worker_, &SimWorker::loadScene);
  connect(this, &SimThread::adoptScene, worker_, &SimWorker::adoptScene);
  connect(this, &SimThread::play, worker_, &SimWorker::play);
  connect(this, &SimThread::pause, worker_, &SimWorker::pause);
  connect(this, &SimThread::stepOnce, worker_, &SimWorker::stepOnce);
  connect(this, &SimThread::runSteps, worker_, &SimWorker::runSteps);
  connect(this, &SimThread::reset, worker_, &SimWorker::reset);
  connect(this, &SimThread::setSettings, worker_, &SimWorker::setSettings);
  connect(this, &SimThread::setSpeed, worker_, &SimWorker::setSpeed);
  connect(this, &SimThread::setLiveTimeBudget, worker_, &SimWorker::setLiveTimeBudget);
  connect(this, &SimThread::startRecording, worker_, &SimWorker::startRecording);
  connect(this, &SimThread::stopRecording, worker_, &SimWorker::stopRecording);
  thread_.setObjectName("pegsim-simulation");
  thread_.start();
}

SimThread::~SimThread() {
  // The worker's timer stops with its thread's event loop; the worker is deleted on finished.
  thread_.quit();
  thread_.wait();
}

}  // namespace pegsim::gui
