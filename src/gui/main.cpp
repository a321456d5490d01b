// pegsim: the desktop application (docs/desktop-app.md).
#include <QApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QImage>
#include <QSet>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <functional>

#include "gui/app/command_line.hpp"
#include "gui/app/display_check.hpp"
#include "gui/app/resource_paths.hpp"
#include "gui/app/responsiveness.hpp"
#include "gui/render/overlay.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "gui/ui/settings_panel.hpp"

using namespace pegsim::gui;

namespace {
// A capture of the view that is one flat colour (at most two, for a cleared frame with a
// grid line): nothing drawn yet.
bool looks_blank(const QImage& image) {
  QSet<QRgb> seen;
  for (int y = 0; y < image.height(); y += 7)
    for (int x = 0; x < image.width(); x += 7)
      if (seen.size() <= 2) seen.insert(image.pixel(x, y));
  return seen.size() <= 2;
}
}  // namespace

int main(int argc, char** argv) {
  QStringList keys;
  for (const auto& o : standard_overlays()) keys << QString::fromStdString(o->key());
  const QString usage = command_line_usage().arg(keys.join(", "));
  // The usage and the version need no display.
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("%s", usage.toLocal8Bit().constData());
      return 0;
    }
    if (std::strcmp(argv[i], "--version") == 0) {
      std::printf("pegsim %s\n", PEGSIM_VERSION);
      return 0;
    }
  }
  // QApplication aborts without a display: say so plainly and let the caller fall back.
  if (const QString why = missing_display_message(argc, argv); !why.isEmpty()) {
    std::fprintf(stderr, "%s\n", why.toLocal8Bit().constData());
    return 3;
  }
  // Mesa's software rasterizer (llvmpipe) renders on as many threads as there are cores; on a
  // 2-core machine they took the stepping thread's core (stack10: 2360 steps/s in the window
  // against 3165 in pegsim-cli; with one rendering thread 2992, the view drawing as many
  // frames, docs/benchmarks.md). Set before any OpenGL context; a user's value wins; other
  // drivers ignore it.
  if (qEnvironmentVariableIsEmpty("LP_NUM_THREADS")) qputenv("LP_NUM_THREADS", "1");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("pegsim");
  QApplication::setApplicationName("pegsim");

  const CommandLine cl = parse_command_line(app.arguments().mid(1), keys);
  if (!cl.error.isEmpty()) {
    std::fprintf(stderr, "pegsim: %s\n%s", cl.error.toLocal8Bit().constData(),
                 usage.toLocal8Bit().constData());
    return 2;
  }
  // Robots' package:// URIs are searched through ROS_PACKAGE_PATH after the given folders, so
  // the given ones go in front of it, for every scene this window opens.
  if (!cl.package_path.isEmpty()) {
    const QByteArray ros = qgetenv("ROS_PACKAGE_PATH");
    qputenv("ROS_PACKAGE_PATH", cl.package_path.toLocal8Bit() + (ros.isEmpty() ? "" : ":" + ros));
  }
  const QString file = cl.file.isEmpty() ? default_scene() : cl.file;
  if (file.isEmpty()) {
    std::fprintf(stderr,
                 "pegsim: the default scene (scenes/cascading_polyhedra.json) was not found\n");
    return 2;
  }

  MainWindow window(/*interactive=*/!cl.quit && !cl.benchmark);
  if (cl.overlays)
    for (const QString& k : keys) window.setOverlay(k.toStdString(), cl.overlays->contains(k));
  window.show();
  if (cl.plots) window.plotsDock()->show();
  if (cl.benchmark) {
    QTimer::singleShot(0, &window,
                       [&] { app.exit(run_responsiveness_benchmark(window, scenes_directory())); });
    return app.exec();
  }

  auto fail = [&](const QString& why) {
    std::fprintf(stderr, "pegsim: %s\n", why.toLocal8Bit().constData());
    if (cl.quit) app.exit(2);
  };
  // Once the requested frame is on screen: the screenshot, then maybe quit.
  auto save = [&] {
    window.saveWindowImage(cl.screenshot, [&](bool ok) {
      if (!ok)
        fail(cl.screenshot + ": cannot write the PNG file");
      else if (cl.quit)
        app.exit(0);
    });
  };
  // The renderer uploads new geometry over a few frames, more of them on a loaded machine:
  // grab once a capture of the view shows more than a blank background (or after 10 s, for a
  // scene that really is empty).
  std::function<void(int)> when_drawn = [&](int attempt) {
    window.sceneView()->captureImage([&, attempt](const QImage& view) {
      if (attempt >= 40 || !looks_blank(view)) return save();
      QTimer::singleShot(250, &window, [&, attempt] { when_drawn(attempt + 1); });
    });
  };
  // A comparison run steps on its own thread (a re-simulation in the background): the
  // screenshot waits until it has the frame on screen.
  std::function<void()> ready = [&] {
    if (cl.screenshot.isEmpty()) return;
    if (!window.comparisonCaughtUp()) {
      QTimer::singleShot(100, &window, [&] { ready(); });
      return;
    }
    QTimer::singleShot(300, &window, [&] { when_drawn(0); });
  };
  QObject::connect(&window, &MainWindow::openFailed, &app, [&] {
    if (cl.quit) app.exit(2);
  });
  QObject::connect(&window, &MainWindow::stepsDone, &app, ready);
  QObject::connect(&window, &MainWindow::fileOpened, &app, [&] {
    if (!cl.select.isEmpty() && !window.selectBodyNamed(cl.select) &&
        !window.selectJointNamed(cl.select))
      return fail(QString("%1: no body or joint named '%2'").arg(file, cl.select));
    const bool with_model = !cl.compare.isEmpty() && !cl.compare.endsWith(".h5");
    if (!window.replaying()) {
      if (!cl.preset.isEmpty()) window.settingsPanel()->choosePreset(cl.preset);
      if (with_model && !window.compareWith(cl.compare)) return;
      if (cl.side_by_side) window.setSideBySide(true);
      const qint64 steps = cl.steps ? *cl.steps : cl.frame.value_or(0);
      if (steps > 0)
        window.runSteps(int(steps));
      else
        ready();
      return;
    }
    if (cl.steps) return fail("--steps applies to a scene; use --frame K with a run file");
    // A refused comparison is reported as an open failure (and ends a --quit run).
    if (with_model ? !window.compareWith(cl.compare)
                   : !cl.compare.isEmpty() && !window.compareWithRun(cl.compare))
      return;
    if (cl.side_by_side) window.setSideBySide(true);
    const qint64 k = cl.frame.value_or(0), n = window.source()->count();
    if (k >= n)
      return fail(QString("%1: --frame %2 is out of range: the run has frames 0 to %3")
                      .arg(file)
                      .arg(k)
                      .arg(n - 1));
    window.showFrameIndex(k);
    ready();
  });
  if (cl.quit) {
    // Batch use must end even if the renderer never delivers a frame.
    QTimer::singleShot(120000, &app, [&] {
      fail("timed out waiting for the screenshot");
      app.exit(3);
    });
  }
  QTimer::singleShot(0, &window, [&] { window.openFile(file); });
  return app.exec();
}
