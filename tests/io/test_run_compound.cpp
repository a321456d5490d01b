// Compound bodies in run files (docs/run-format.md, /bodies part_* datasets and the contact
// fields part_a, part_b): the parts and every contact's part come back as written, and the
// model rebuilt from the file alone replays container_pour (3D) and cup_2d (planar parts) bit
// for bit.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstring>
#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_replay.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

void round_trip_and_replay(const std::string& scene, int steps) {
  const fs::path file =
      fs::temp_directory_path() / ("pegsim-compound-" + std::to_string(::getpid()) + ".h5");
  fs::remove(file);
  const Scene sc = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / scene);
  std::vector<std::vector<Contact>> written;
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < steps; ++k) written.push_back(sim.step().contacts);
    writer.close();
  }
  RunReader reader(file);
  const Model m = reader.model();
  const Compound& want = *sc.model.bodies[0].shape.compound;
  ASSERT_EQ(m.bodies[0].shape.kind, ShapeKind::Compound);
  const Compound& got = *m.bodies[0].shape.compound;
  ASSERT_EQ(got.parts.size(), want.parts.size());
  EXPECT_EQ(got.bounding_radius, want.bounding_radius);
  for (std::size_t k = 0; k < want.parts.size(); ++k) {
    EXPECT_EQ(got.parts[k].position, want.parts[k].position);
    EXPECT_EQ(got.parts[k].orientation.coeffs(), want.parts[k].orientation.coeffs());
    ASSERT_EQ(got.parts[k].shape.kind, want.parts[k].shape.kind);
    if (want.parts[k].shape.polytope) {
      EXPECT_EQ(got.parts[k].shape.polytope->vertices, want.parts[k].shape.polytope->vertices);
    }
    if (want.parts[k].shape.polygon) {
      EXPECT_EQ(got.parts[k].shape.polygon->vertices, want.parts[k].shape.polygon->vertices);
    }
  }
  EXPECT_EQ(got.planar, want.planar);
  EXPECT_EQ(m.planar(), sc.model.planar());
  int with_part = 0;
  const std::vector<RunFrame> frames = reader.frames(0, reader.frame_count());
  for (std::size_t k = 1; k < frames.size(); ++k) {
    ASSERT_EQ(frames[k].contacts.size(), written[k - 1].size());
    for (std::size_t i = 0; i < written[k - 1].size(); ++i) {
      EXPECT_EQ(frames[k].contacts[i].contact.part_a, written[k - 1][i].part_a);
      EXPECT_EQ(frames[k].contacts[i].contact.part_b, written[k - 1][i].part_b);
      with_part += written[k - 1][i].part_a >= 0 || written[k - 1][i].part_b >= 0;
    }
  }
  EXPECT_GT(with_part, 0);

  // Replay from the file alone: the same poses, bit for bit.
  State initial;
  initial.bodies = frames[0].bodies;
  Simulator replay(m, initial, reader.header().settings);
  for (std::size_t k = 1; k < frames.size(); ++k) {
    prepare_replay_step(replay, reader, frames[k]);
    ASSERT_FALSE(replay.step().failed);
    for (std::size_t b = 0; b < frames[k].bodies.size(); ++b)
      ASSERT_EQ(std::memcmp(frames[k].bodies[b].position.data(),
                            replay.state().bodies[b].position.data(), sizeof(double) * 3),
                0)
          << "frame " << k << " body " << b;
  }
  fs::remove(file);
}

TEST(RunFileCompound, PartsAndContactPartsRoundTripAndReplayExactly) {
  round_trip_and_replay("container_pour.json", 120);
}

// Planar parts are stored as polygon bodies are (vertices (x, y, 0), one face).
TEST(RunFileCompound, PlanarPartsRoundTripAndReplayExactly) {
  round_trip_and_replay("cup_2d.json", 150);
}

}  // namespace
