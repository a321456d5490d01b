// Plot data without a display: energies, buckets, and the decimated live history of
// sphere_drop (free fall: v = -g t, a = -g; the landing's step figures survive decimation).
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include "engine/dynamics/simulator.hpp"

#include "gui/plots/history_plot.hpp"
#include "gui/plots/run_plot_loader.hpp"
#include "io/run_header.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "qt_app.hpp"

namespace pegsim::gui {
namespace {

TEST(PlotData, BucketsCoverEveryFrameOnceAndAtMostTheAskedNumber) {
  const std::vector<Bucket> b = buckets(10, 4);  // lengths 3, 3, 3, 1
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].first, 0);
  EXPECT_EQ(b[0].last, 2);
  EXPECT_EQ(b[3].first, 9);
  EXPECT_EQ(b[3].last, 9);
  EXPECT_EQ(buckets(5, 1000).size(), 5u);
  EXPECT_EQ(buckets(100000, 1000).size(), 1000u);
  EXPECT_EQ(buckets(100000, 1000).back().last, 99999);
  EXPECT_TRUE(buckets(0, 10).empty());
}

TEST(PlotData, PotentialEnergyIsMassTimesGravityTimesHeightOfMovingBodies) {
  const Scene scene = load_scene(test::scene_path("sphere_drop"));
  const double m = scene.model.bodies[1].mass;
  const Vec3 g(0, 0, -9.81);
  EXPECT_NEAR(system_potential_energy(scene.model, g, scene.initial.bodies), m * 9.81 * 2.0,
              1e-9 * m);
  std::vector<BodyState> moving = scene.initial.bodies;
  moving[1].velocity = Vec3(0, 3, -4);
  moving[0].position = Vec3(0, 0, 100);  // the static ground counts for neither
  EXPECT_NEAR(system_kinetic_energy(scene.model, moving), 0.5 * m * 25.0, 1e-9 * m);
  EXPECT_NEAR(system_potential_energy(scene.model, g, moving), m * 9.81 * 2.0, 1e-9 * m);
}

TEST(PlotData, TheLiveHistoryIsDecimatedKeepingMotionExactAndStepPeaks) {
  const Scene scene = load_scene(test::scene_path("sphere_drop"));
  Simulator sim(scene.model, scene.initial, scene.settings);
  LiveHistory history(10000);
  history.append(make_snapshot(scene.model, sim.state(), nullptr));
  int most_contacts = 0;
  for (int k = 0; k < 400; ++k) {
    const StepReport& r = sim.step();
    history.append(make_snapshot(scene.model, sim.state(), &r, &sim.settings()));
    most_contacts = std::max(most_contacts, int(r.contacts.size()));
  }
  ASSERT_GT(most_contacts, 0) << "the ball lands within 400 steps";
  const Vec3 g = scene.settings.gravity;
  const PlotData data = plot_history(scene.model, g, history, 50);
  ASSERT_EQ(data.size(), 45u);  // 401 frames in buckets of 9
  EXPECT_DOUBLE_EQ(data.time.back(), history.frame(400)->time);
  // The first sample stands for frames 0..8 and is drawn at frame 8, still in free fall.
  const double t = data.time[0], h = scene.settings.h;
  EXPECT_NEAR(t, 8 * h, 1e-12);
  EXPECT_NEAR(data.bodies[0][1].velocity.z(), g.z() * t, 1e-9);
  EXPECT_NEAR(data.acceleration[0][1].z(), g.z(), 1e-6);
  EXPECT_NEAR(data.kinetic[0] + data.potential[0],
              system_potential_energy(scene.model, g, scene.initial.bodies),
              0.01 * data.potential[0])
      << "free fall keeps the total energy (up to the integrator's error)";
  double plotted_contacts = 0.0;
  for (const StepFigures& s : data.steps) plotted_contacts = std::max(plotted_contacts, s.contacts);
  EXPECT_EQ(plotted_contacts, most_contacts);

  // Min/max decimation: the landing's acceleration peak, whatever frame of its bucket it falls
  // in, and the lowest and highest height, are those of every frame.
  double peak = -HUGE_VAL, lowest = HUGE_VAL, highest = -HUGE_VAL;
  for (std::int64_t k = 1; k <= 400; ++k) {
    const FrameSnapshot& f = *history.frame(k);
    const FrameSnapshot& before = *history.frame(k - 1);
    peak = std::max(
        peak, (f.bodies[1].velocity.z() - before.bodies[1].velocity.z()) / (f.time - before.time));
    lowest = std::min(lowest, f.bodies[1].position.z());
    highest = std::max(highest, f.bodies[1].position.z());
  }
  highest = std::max(highest, history.frame(0)->bodies[1].position.z());
  ASSERT_GT(peak, 50.0) << "an impact, not free fall";
  double plotted_peak = -HUGE_VAL, plotted_low = HUGE_VAL, plotted_high = -HUGE_VAL;
  for (const auto& m : data.motion) {
    plotted_peak = std::max(plotted_peak, m[1][kAccelerationX + 2].hi);
    plotted_low = std::min(plotted_low, m[1][kPositionX + 2].lo);
    plotted_high = std::max(plotted_high, m[1][kPositionX + 2].hi);
  }
  EXPECT_EQ(plotted_peak, peak);
  EXPECT_EQ(plotted_low, lowest);
  EXPECT_EQ(plotted_high, highest);
  const double total0 = data.energy[0][2].lo;
  EXPECT_LE(total0, data.kinetic[0] + data.potential[0] + 1e-9);
}

// The joint plots keep each bucket's extremes too: the pendulum's swing reaches 60 degrees
// either side of the vertical (released there at rest, it conserves energy) in whichever frame
// of a bucket the turning point falls, and the largest joint error is that of every frame.
TEST(PlotData, JointPlotsKeepTheSwingsExtremesAndTheLargestError) {
  const Scene scene = load_scene(test::scene_path("pendulum"));
  Simulator sim(scene.model, scene.initial, scene.settings);
  LiveHistory history(10000);
  history.append(make_snapshot(scene.model, sim.state(), nullptr));
  double lowest = HUGE_VAL, highest = -HUGE_VAL, worst = 0.0;
  for (int k = 0; k < 1000; ++k) {  // 5 s, three periods
    const StepReport& r = sim.step();
    history.append(make_snapshot(scene.model, sim.state(), &r, &sim.settings()));
    const JointSnapshot& j = history.frame(history.count() - 1)->joints[0];
    lowest = std::min(lowest, j.coordinates.angle);
    highest = std::max(highest, j.coordinates.angle);
    worst = std::max(worst, j.error.position);
  }
  const double release = history.frame(0)->joints[0].coordinates.angle;
  lowest = std::min(lowest, release);
  highest = std::max(highest, release);
  EXPECT_NEAR(0.5 * (highest - lowest), M_PI / 3, 0.02) << "60 degrees either side of vertical";
  const PlotData data = plot_history(scene.model, scene.settings.gravity, history, 40);
  ASSERT_EQ(data.size(), 39u);  // 1001 frames in buckets of 26
  double plotted_low = HUGE_VAL, plotted_high = -HUGE_VAL, plotted_worst = 0.0;
  for (std::size_t i = 0; i < data.size(); ++i) {
    ASSERT_EQ(data.joints[i].size(), 1u);
    plotted_low = std::min(plotted_low, data.joints[i][0][kAngle].lo);
    plotted_high = std::max(plotted_high, data.joints[i][0][kAngle].hi);
    plotted_worst = std::max(plotted_worst, data.joints[i][0][kPositionError].hi);
  }
  EXPECT_EQ(plotted_low, lowest);
  EXPECT_EQ(plotted_high, highest);
  EXPECT_EQ(plotted_worst, worst);
  EXPECT_EQ(data.joints[0][0][kDisplacement].hi, 0.0) << "a revolute joint has no slide";
}

TEST(PlotData, ARunFileIsReadAFewSamplesAtATimeFromTheEventLoopAndGivesTheSamePlots) {
  test::qt_app();
  QTemporaryDir dir;
  const std::string run = dir.filePath("drop.h5").toStdString();
  const Scene scene = load_scene(test::scene_path("sphere_drop"));
  {
    Simulator sim(scene.model, scene.initial, scene.settings);
    RunWriter writer(run, make_run_header(scene, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 300; ++k) sim.step();
    writer.close();
  }
  const RunFileSource source(run);
  const Vec3 g = scene.settings.gravity;
  // A zero budget: one read per event-loop turn, so nothing is read in the constructor.
  RunPlotLoader loader(source, g, 100, /*budget_ms=*/0);
  std::vector<std::size_t> sizes;
  QObject::connect(&loader, &RunPlotLoader::progressed,
                   [&] { sizes.push_back(loader.data().size()); });
  EXPECT_EQ(loader.data().size(), 0u);
  ASSERT_TRUE(test::wait_until([&] { return loader.done(); }));
  ASSERT_EQ(sizes.size(), 5u) << "301 frames in 76 buckets of 4, 16 buckets per turn";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    EXPECT_EQ(sizes[i], std::min<std::size_t>(16 * (i + 1), 76));
  // The same samples as decimating every frame in memory.
  const PlotData all = plot_history(*source.model(), g, source, 100);
  const PlotData& read = loader.data();
  ASSERT_EQ(read.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(read.time[i], all.time[i]);
    EXPECT_EQ(read.bodies[i][1].position, all.bodies[i][1].position);
    EXPECT_EQ(read.acceleration[i][1], all.acceleration[i][1]);
    for (std::size_t c = 0; c < 9; ++c) {
      EXPECT_EQ(read.motion[i][1][c].lo, all.motion[i][1][c].lo) << i << " " << c;
      EXPECT_EQ(read.motion[i][1][c].hi, all.motion[i][1][c].hi) << i << " " << c;
    }
    EXPECT_EQ(read.potential[i], all.potential[i]);
    EXPECT_EQ(read.steps[i].contacts, all.steps[i].contacts) << i;
    EXPECT_EQ(read.steps[i].iterations, all.steps[i].iterations) << i;
  }
}

}  // namespace
}  // namespace pegsim::gui
