// SM traps in run files (docs/run-format.md, "SM traps"): every step's traps come back as the
// step reported them; a file written before traps were recorded reads as having none.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("pegsim-trap-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  fs::remove(d / name);
  return d / name;
}

// What each step reported: its traps and the features of its contacts.
struct TrapTape : StepObserver {
  std::vector<std::vector<SmTrap>> traps;
  std::vector<std::vector<int>> members;
  void on_step(const Model&, const State&, const StepReport& r) override {
    traps.push_back(r.sm_traps);
    members.push_back(r.sm_trap_contacts);
  }
};

TrapTape record(const Scene& sc, int steps, const fs::path& file) {
  Simulator sim(sc.model, sc.initial, sc.settings);
  RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
  TrapTape tape;
  sim.add_observer(&writer);
  sim.add_observer(&tape);
  for (int k = 0; k < steps; ++k) sim.step();
  writer.close();
  return tape;
}

void expect_same_traps(const RunReader& reader, const TrapTape& tape) {
  ASSERT_EQ(reader.frame_count(), static_cast<std::int64_t>(tape.traps.size()) + 1);
  EXPECT_TRUE(reader.frame(0).sm_traps.empty());
  const std::vector<std::int64_t> offsets = reader.sm_trap_offsets();
  for (std::size_t k = 1; k < static_cast<std::size_t>(reader.frame_count()); ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const RunFrame f = reader.frame(static_cast<std::int64_t>(k));
    const std::vector<SmTrap>& want = tape.traps[k - 1];
    ASSERT_EQ(f.sm_traps.size(), want.size());
    EXPECT_EQ(offsets[k + 1] - offsets[k], static_cast<std::int64_t>(want.size()));
    for (std::size_t t = 0; t < want.size(); ++t) {
      EXPECT_EQ(f.sm_traps[t].body, want[t].body);
      EXPECT_EQ(f.sm_traps[t].other_body, want[t].other_body);
      EXPECT_EQ(f.sm_traps[t].feature.kind, want[t].feature.kind);
      EXPECT_EQ(f.sm_traps[t].feature.index, want[t].feature.index);
      EXPECT_EQ(f.sm_traps[t].first, want[t].first);
      EXPECT_EQ(f.sm_traps[t].count, want[t].count);
    }
    EXPECT_EQ(f.sm_trap_contacts, tape.members[k - 1]);
  }
}

// Two unit cubes, corner to corner delta = 1 cm apart along the diagonal, no gravity: the
// nearest vertex of each is within epsilon of the other's three faces at the corner, so every
// step has exactly two traps (thesis Fig. 4.1 in 3D and its dual, Fig. 5.2), three faces each.
TEST(RunFileSmTraps, CornerToCornerCubesRecordTwoTrapsEveryStep) {
  const fs::path scene_file = fresh("corner.json");
  std::ofstream(scene_file) << R"({"name": "corner", "duration": 0.05,
    "settings": {"h": 0.01, "gravity": [0, 0, 0]},
    "bodies": [
      {"name": "b", "shape": {"type": "cube", "edge": 1}, "position": [0, 0, 0], "static": true},
      {"name": "a", "shape": {"type": "cube", "edge": 1}, "position": [1.01, 1.01, 1.01], "mass": 1}
    ]})";
  const Scene sc = load_scene(scene_file);
  const fs::path file = fresh("corner.h5");
  const TrapTape tape = record(sc, 5, file);
  const RunReader reader(file);
  EXPECT_TRUE(reader.has_sm_traps());
  expect_same_traps(reader, tape);
  for (std::int64_t k = 1; k <= 5; ++k) {
    const RunFrame f = reader.frame(k);
    ASSERT_EQ(f.sm_traps.size(), 2u);
    for (const SmTrap& t : f.sm_traps) {
      EXPECT_EQ(t.feature.kind, FeatureKind::Vertex);
      EXPECT_EQ(t.count, 3);
      for (int m = 0; m < t.count; ++m) {
        const Contact& c = f.contacts[f.sm_trap_contacts[t.first + m]].contact;
        EXPECT_EQ(c.body_b, t.body);  // vertex-face: the vertex is body b's
        EXPECT_EQ(c.feature_a.kind, FeatureKind::Face);
      }
    }
  }
}

// The trap counts of a recorded run (thesis Fig. 5.15 counts them per step) read back as the
// steps reported them: cascading_polyhedra, whose polyhedra land and slide on the pedestal.
TEST(RunFileSmTraps, CascadingPolyhedraTrapsReadBackAsReported) {
  const Scene sc = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "cascading_polyhedra.json");
  const fs::path file = fresh("cascade.h5");
  const TrapTape tape = record(sc, 150, file);
  std::size_t total = 0;
  for (const auto& t : tape.traps) total += t.size();
  EXPECT_GT(total, 0u);  // 10 when written: a polyhedron's vertex at the pedestal's rim
  const RunReader reader(file);
  expect_same_traps(reader, tape);
}

// An exactly aligned stack (stack10): each upper cube's bottom vertex lies on the top face
// and on two side faces of the cube below, but the side contacts are not applicable (the
// vertex's edge along the top face points into the side face's half-space, (3.4)), so the
// standard model enforces only the top face: no trap, in any of the recorded steps.
TEST(RunFileSmTraps, AlignedStackHasNoTrap) {
  const Scene sc = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "stack10.json");
  const fs::path file = fresh("stack.h5");
  const TrapTape tape = record(sc, 20, file);
  const RunReader reader(file);
  const std::vector<std::int64_t> offsets = reader.sm_trap_offsets();
  EXPECT_EQ(offsets.back(), 0);
  for (std::int64_t k = 1; k <= 20; ++k) EXPECT_GT(reader.frame(k).contacts.size(), 30u);
}

// A file written before traps were recorded: no trap datasets, no traps, zero offsets.
TEST(RunFileSmTraps, FilesWithoutTrapsReadAsHavingNone) {
  const Scene sc = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "hello_world.json");
  const fs::path file = fresh("old.h5");
  record(sc, 10, file);
  {
    const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    for (const char* name : {"/frames/sm_trap_offset", "/frames/sm_traps",
                             "/frames/sm_trap_member_offset", "/frames/sm_trap_members"})
      H5Ldelete(f, name, H5P_DEFAULT);
    H5Fclose(f);
  }
  const RunReader reader(file);
  EXPECT_FALSE(reader.has_sm_traps());
  EXPECT_EQ(reader.frame_count(), 11);
  EXPECT_EQ(reader.sm_trap_offsets(), std::vector<std::int64_t>(12, 0));
  EXPECT_TRUE(reader.frame(5).sm_traps.empty());
}

}  // namespace
