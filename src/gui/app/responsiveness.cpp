#include "gui/app/responsiveness.hpp"

#include <QComboBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "engine/dynamics/simulator.hpp"
#include "gui/plots/plots_panel.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/main_window.hpp"
#include "gui/ui/timeline_bar.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace pegsim::gui {

namespace {

// Runs the event loop until pred() holds or ms pass.
bool wait_for(const std::function<bool()>& pred, int ms) {
  QElapsedTimer t;
  t.start();
  while (!pred() && t.elapsed() < ms) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  return pred();
}

// Lets the window run on its own for `ms` (a real event loop: no busy waiting to count as its
// CPU).
void idle(int ms) {
  QEventLoop loop;
  QTimer::singleShot(ms, &loop, &QEventLoop::quit);
  loop.exec();
}

// CPU seconds of the whole process (every thread): with the machine shared, the CPU a
// rendered frame costs is a steadier figure than the frame rate.
double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct Spread {
  double median = 0.0, max = 0.0;
};
Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  return {v[v.size() / 2], v.back()};
}

bool open_and_wait(MainWindow& w, const QString& file) {
  bool opened = false, failed = false;
  auto a = QObject::connect(&w, &MainWindow::fileOpened, [&] { opened = true; });
  auto b = QObject::connect(&w, &MainWindow::openFailed, [&] { failed = true; });
  w.openFile(file);
  wait_for([&] { return opened || failed; }, 60000);
  QObject::disconnect(a);
  QObject::disconnect(b);
  return opened;
}

// The 1-minute load average (other processes competing for the cores), -1 if unknown.
double load_average() {
  double load[1] = {-1.0};
  return getloadavg(load, 1) == 1 ? load[0] : -1.0;
}

}  // namespace

int run_responsiveness_benchmark(MainWindow& w, const QString& scenes, double seconds) {
  // The renderer's floor: the empty view (clear colour only) before any scene is opened.
  SceneView* view = w.sceneView();
  idle(1000);
  {
    const qint64 frames0 = view->renderedFrames();
    const double cpu0 = process_cpu_seconds();
    QElapsedTimer clock;
    clock.start();
    idle(2000);
    const qint64 frames = view->renderedFrames() - frames0;
    const double wall = clock.nsecsElapsed() * 1e-9;
    std::printf("(0) empty view: %.1f Qt3D frames/s, %.1f %% of a core\n", frames / wall,
                100.0 * (process_cpu_seconds() - cpu0) / wall);
    std::fflush(stdout);
  }
  const QString stack10 = scenes + "/stack10.json";
  if (!open_and_wait(w, stack10)) {
    std::fprintf(stderr, "pegsim --benchmark: cannot open %s\n", qPrintable(stack10));
    return 2;
  }
  idle(1000);  // the first frames upload the meshes

  // For reference: the redraw rate with nothing running (the renderer's own cost).
  const qint64 idle0 = view->renderedFrames();
  const double idle_cpu0 = process_cpu_seconds();
  QElapsedTimer idle_clock;
  idle_clock.start();
  idle(2000);
  const double idle_wall = idle_clock.nsecsElapsed() * 1e-9;
  const double idle_fps = (view->renderedFrames() - idle0) / idle_wall;
  const double idle_cpu = 100.0 * (process_cpu_seconds() - idle_cpu0) / idle_wall;

  // (a) Redraw rate while the simulation runs as fast as possible.
  w.speedBox()->setCurrentIndex(w.speedBox()->count() - 1);  // "As fast as possible"
  w.togglePlay();
  idle(500);  // past the start
  const qint64 rendered0 = view->renderedFrames(), shown0 = view->shownFrames();
  const qint64 step0 = view->frame()->step;
  QElapsedTimer clock;
  clock.start();
  idle(int(seconds * 1000));
  const double wall = clock.nsecsElapsed() * 1e-9;
  const double fps = (view->renderedFrames() - rendered0) / wall;
  const double shown = (view->shownFrames() - shown0) / wall;
  const double steps = (view->frame()->step - step0) / wall;
  w.togglePlay();
  idle(300);
  std::printf(
      "(a) stack10 as fast as possible, %.1f s: %.1f Qt3D frames/s, %.1f frames shown/s, %.0f "
      "steps/s; paused: %.1f Qt3D frames/s, %.1f %% of a core; load average %.1f\n",
      wall, fps, shown, steps, idle_fps, idle_cpu, load_average());
  std::fflush(stdout);

  // (b) Slider moves on a 10 000-frame run file.
  QTemporaryDir dir;
  const QString run = dir.filePath("stack10-10000.h5");
  try {
    const Scene scene = load_scene(stack10.toStdString());
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run.toStdString(),
                     make_run_header(scene, sim.model(), sim.settings(), "pegsim --benchmark"),
                     sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 9999; ++k) sim.step();
    writer.close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pegsim --benchmark: cannot record the run file: %s\n", e.what());
    return 2;
  }
  if (!open_and_wait(w, run)) return 2;
  idle(1000);
  TimelineBar* timeline = w.timeline();
  std::mt19937 random(4);
  std::uniform_int_distribution<qint64> pick(0, timeline->frameCount() - 1);
  std::vector<double> applied, rendered;
  const int moves = 60;
  for (int i = 0; i < moves; ++i) {
    qint64 k = pick(random);
    if (k == timeline->current()) k = (k + 1) % timeline->frameCount();
    // Shared: a capture answered after the wait gave up must not write to a dead frame.
    auto captured = std::make_shared<bool>(false);
    QElapsedTimer t;
    t.start();
    timeline->setCurrent(k);  // what a slider drag does: valueChanged -> frame shown
    const double posed = t.nsecsElapsed() * 1e-6;
    if (view->frame()->step != w.source()->frame(k)->step) {
      std::fprintf(stderr, "pegsim --benchmark: frame %lld was not shown\n",
                   static_cast<long long>(k));
      return 2;
    }
    view->captureImage([captured](const QImage&) { *captured = true; });
    wait_for([&] { return *captured; }, 10000);
    applied.push_back(posed);
    rendered.push_back(t.nsecsElapsed() * 1e-6);
    idle(50);
  }
  const Spread a = spread(applied), r = spread(rendered);
  std::printf(
      "(b) 10000-frame run file, %d slider moves: poses in the scene median %.1f ms, max %.1f ms; "
      "rendered image ready median %.1f ms, max %.1f ms\n",
      moves, a.median, a.max, r.median, r.max);
  std::fflush(stdout);

  // (c) The Plots dock filling from the same file: every frame scanned for its bucket's extremes.
  QElapsedTimer fill;
  fill.start();
  w.plotsDock()->show();
  const std::size_t samples = std::size_t(std::min<qint64>(timeline->frameCount(), 1000));
  if (!wait_for([&] { return w.plotsPanel()->data().size() == samples; }, 120000)) {
    std::fprintf(stderr, "pegsim --benchmark: the plots did not fill within 120 s\n");
    return 2;
  }
  std::printf("(c) Plots of the 10000-frame run file: %zu samples filled in %.2f s\n", samples,
              fill.nsecsElapsed() * 1e-9);
  return 0;
}

}  // namespace pegsim::gui
