// A main window under test, with cascading_polyhedra loaded and some steps run.
#pragma once

#include <gtest/gtest.h>

#include <QImage>
#include <QTest>

#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "qt_app.hpp"

namespace pegsim::gui::test {

// What the view shows once the renderer has picked up the latest change.
inline QImage capture(SceneView* view) {
  QImage image;
  wait_until([] { return false; }, 300);
  view->captureImage([&](const QImage& i) { image = i; });
  EXPECT_TRUE(wait_until([&] { return !image.isNull(); }));
  return image;
}

// The QApplication must exist before the window's widgets: a base is constructed first.
struct AppFirst {
  AppFirst() { qt_app(true); }
};

struct Window : AppFirst {
  MainWindow w{/*interactive=*/false};
  QString opened, failed;
  explicit Window(int steps = 0, const std::string& scene = "cascading_polyhedra") {
    QObject::connect(&w, &MainWindow::fileOpened, [this](QString f) { opened = f; });
    QObject::connect(&w, &MainWindow::openFailed, [this](QString f, QString) { failed = f; });
    w.show();
    // Shortcuts only fire in the active window (Xvfb has no window manager to activate it).
    w.activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(&w));
    w.openFile(QString::fromStdString(scene_path(scene)));
    EXPECT_TRUE(wait_until([this] { return !opened.isEmpty(); }));
    if (steps > 0) run(steps);
  }
  void run(int steps) {
    bool done = false;
    auto c = QObject::connect(&w, &MainWindow::stepsDone, [&done] { done = true; });
    w.runSteps(steps);
    EXPECT_TRUE(wait_until([&done] { return done; }));
    QObject::disconnect(c);
  }
};

}  // namespace pegsim::gui::test
