#include "qt_app.hpp"

#include <QApplication>
#include <QStandardPaths>
#include <QThread>

#include "gui/sim/sim_thread.hpp"

namespace pegsim::gui::test {

QCoreApplication& qt_app(bool widgets) {
  static int argc = 1;
  static char name[] = "pegsim-test";
  static char* argv[] = {name, nullptr};
  if (!QCoreApplication::instance()) {
    QStandardPaths::setTestModeEnabled(true);  // recent files go to a test location
    if (widgets)
      new QApplication(argc, argv);
    else
      new QCoreApplication(argc, argv);
    QCoreApplication::setOrganizationName("pegsim-test");
    register_frame_types();
  }
  return *QCoreApplication::instance();
}

bool wait_until(const std::function<bool()>& pred, int ms) {
  QElapsedTimer t;
  t.start();
  while (!pred() && t.elapsed() < ms) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(1);
  }
  return pred();
}

std::string scene_path(const std::string& name) {
  return std::string(PEGSIM_SOURCE_DIR) + "/scenes/" + name + ".json";
}

}  // namespace pegsim::gui::test
