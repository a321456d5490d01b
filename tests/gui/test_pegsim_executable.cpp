// The pegsim executable end to end: --screenshot --quit on a scene and on a recorded run
// writes a PNG of the window with the 3D view in it; bad files and no display fail cleanly.
#include <gtest/gtest.h>

#include <QColor>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

struct Outcome {
  int status = -1;
  QProcess::ExitStatus exit = QProcess::CrashExit;
  QString err;
  QString out;
};

Outcome pegsim(const QStringList& args,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(PEGSIM_GUI_EXE, args);
  Outcome r;
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    r.err = "timed out";
    return r;
  }
  r.status = p.exitCode();
  r.exit = p.exitStatus();
  r.err = QString::fromLocal8Bit(p.readAllStandardError());
  r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
  return r;
}

// Distinct colours in the central part of the image (the 3D view): a blank or black view
// has one or two, a rendered scene with shaded bodies many.
int colours_in_view(const QImage& image) {
  QSet<QRgb> seen;
  for (int y = image.height() / 4; y < 3 * image.height() / 4; y += 3)
    for (int x = image.width() / 8; x < image.width() / 2; x += 3) seen.insert(image.pixel(x, y));
  return int(seen.size());
}

void expect_window_png(const QString& file) {
  QImage image(file);
  ASSERT_FALSE(image.isNull()) << file.toStdString() << " is not a readable PNG";
  EXPECT_EQ(image.width(), 1280);
  EXPECT_EQ(image.height(), 800);
  EXPECT_GT(colours_in_view(image), 50) << "the 3D view looks empty";
}

TEST(PegsimExecutable, ScreenshotOfTheDefaultSceneAfterSteps) {
  test::qt_app(true);
  QTemporaryDir dir;
  const QString png = dir.filePath("cascade.png");
  const Outcome r =
      pegsim({QString::fromStdString(test::scene_path("cascading_polyhedra")), "--steps", "60",
              "--overlays", "contacts,aabbs,impulses", "--screenshot", png, "--quit"});
  ASSERT_EQ(r.exit, QProcess::NormalExit) << r.err.toStdString();
  ASSERT_EQ(r.status, 0) << r.err.toStdString();
  expect_window_png(png);
}

TEST(PegsimExecutable, ScreenshotOfARecordedRunAtAFrame) {
  test::qt_app(true);
  QTemporaryDir dir;
  const QString run = dir.filePath("cascade.h5");
  {
    const Scene scene = load_scene(test::scene_path("cascading_polyhedra"));
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run.toStdString(), make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 80; ++k) sim.step();
    writer.close();
  }
  const QString png = dir.filePath("run.png");
  Outcome r = pegsim({run, "--frame", "70", "--overlays", "contacts,normals,frames", "--screenshot",
                      png, "--quit"});
  ASSERT_EQ(r.status, 0) << r.err.toStdString();
  expect_window_png(png);
  // A frame beyond the run: a clear error, no screenshot.
  const QString none = dir.filePath("none.png");
  r = pegsim({run, "--frame", "81", "--screenshot", none, "--quit"});
  EXPECT_EQ(r.exit, QProcess::NormalExit);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.indexOf("out of range"), -1) << r.err.toStdString();
  EXPECT_FALSE(QFileInfo::exists(none));
}

// pegsim A.h5 --compare B.h5: the second run drawn over the first; --compare MODEL: the run
// re-simulated (a scene run) under that model too; a run of another scene is refused by name,
// with no screenshot.
TEST(PegsimExecutable, ComparesTwoRunFilesFromTheCommandLine) {
  test::qt_app(true);
  QTemporaryDir dir;
  auto record = [&](const char* scene_name, ContactModel model, const QString& file) {
    Scene scene = load_scene(test::scene_path(scene_name));
    scene.settings.contact_model = model;
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(file.toStdString(),
                     make_run_header(scene, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 100; ++k) sim.step();
    writer.close();
  };
  const QString sm = dir.filePath("sm.h5"), peg = dir.filePath("peg.h5");
  const QString cube = dir.filePath("cube.h5");
  record("triangle_drop", ContactModel::Standard, sm);
  record("triangle_drop", ContactModel::Peg, peg);
  record("hello_world", ContactModel::Standard, cube);
  const QString png = dir.filePath("compare.png");
  Outcome r = pegsim({sm, "--compare", peg, "--frame", "100", "--screenshot", png, "--quit"});
  ASSERT_EQ(r.status, 0) << r.err.toStdString();
  EXPECT_FALSE(QImage(png).isNull());
  // A contact model: the run re-simulated under it (the screenshot waits for its frames), a
  // scene run under it too.
  const QString resimulated = dir.filePath("resimulated.png");
  r = pegsim({sm, "--compare", "peg", "--frame", "100", "--screenshot", resimulated, "--quit"});
  ASSERT_EQ(r.status, 0) << r.err.toStdString();
  EXPECT_FALSE(QImage(resimulated).isNull());
  const QString live = dir.filePath("live.png");
  r = pegsim({QString::fromStdString(test::scene_path("triangle_drop")), "--compare", "lnc",
              "--steps", "30", "--side-by-side", "--screenshot", live, "--quit"});
  ASSERT_EQ(r.status, 0) << r.err.toStdString();
  EXPECT_FALSE(QImage(live).isNull());
  const QString none = dir.filePath("none.png");
  r = pegsim({sm, "--compare", cube, "--screenshot", none, "--quit"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.indexOf("not a run of the same scene"), -1) << r.err.toStdString();
  EXPECT_FALSE(QFileInfo::exists(none));
}

TEST(PegsimExecutable, ABadSceneFileIsAnErrorNamingItNotACrash) {
  test::qt_app(true);
  QTemporaryDir dir;
  const QString bad = dir.filePath("bad_scene.json");
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"bodies\": [{\"name\": \"x\", \"shape\": {\"type\": \"cube\", \"edge\": -1}}]}");
  f.close();
  const QString png = dir.filePath("x.png");
  const Outcome r = pegsim({bad, "--screenshot", png, "--quit"});
  EXPECT_EQ(r.exit, QProcess::NormalExit) << r.err.toStdString();
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.indexOf("bad_scene.json"), -1) << r.err.toStdString();
  EXPECT_FALSE(QFileInfo::exists(png));
}

TEST(PegsimExecutable, WithoutADisplayItSaysSoAndExitsNonZero) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  const Outcome r = pegsim({}, env);
  EXPECT_EQ(r.exit, QProcess::NormalExit);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.indexOf("no display"), -1) << r.err.toStdString();
}

TEST(PegsimExecutable, HelpNeedsNoDisplay) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  for (const char* flag : {"--help", "-h"}) {
    const Outcome r = pegsim({flag}, env);
    EXPECT_EQ(r.exit, QProcess::NormalExit);
    EXPECT_EQ(r.status, 0) << flag << ": " << r.err.toStdString();
    EXPECT_NE(r.out.indexOf("--overlays"), -1) << r.out.toStdString();
  }
}

TEST(PegsimExecutable, VersionNeedsNoDisplay) {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  const Outcome r = pegsim({"--version"}, env);
  EXPECT_EQ(r.status, 0) << r.err.toStdString();
  EXPECT_EQ(r.out, QString("pegsim %1\n").arg(PEGSIM_VERSION));
}

TEST(PegsimExecutable, BadCommandLineIsAUsageError) {
  const Outcome r = pegsim({"--overlays", "bogus"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.indexOf("bogus"), -1) << r.err.toStdString();
}

}  // namespace
}  // namespace pegsim::gui
