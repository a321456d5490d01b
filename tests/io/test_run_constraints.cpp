// Run files record the contact model's constraint groups (docs/run-format.md, "constraint
// groups"): membership, primaries and impulses read back as the step reported them, and the
// contact model is part of the recorded settings.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

struct Tape : StepObserver {
  std::vector<ConstraintSet> sets;
  std::vector<std::size_t> contacts;
  void on_step(const Model&, const State&, const StepReport& r) override {
    sets.push_back(r.constraints);
    contacts.push_back(r.contacts.size());
  }
};

// cascading_polyhedra under PEG crosses the pedestal's rim, so its frames hold U-, I- and
// X-constraints; each frame's groups read back member for member.
TEST(RunConstraints, PegGroupsRoundTrip) {
  const fs::path file =
      fs::temp_directory_path() / ("pegsim-constraints-" + std::to_string(::getpid()) + ".h5");
  fs::remove(file);
  Scene scene = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "cascading_polyhedra.json");
  scene.settings.contact_model = ContactModel::Peg;
  scene.settings.sm_enforce = SmEnforce::All;  // recorded beside the model
  Simulator sim(scene.model, scene.initial, scene.settings);
  Tape tape;
  {
    RunWriter writer(file, make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    sim.add_observer(&tape);
    for (int k = 0; k < 200; ++k) ASSERT_FALSE(sim.step().failed);
    writer.close();
  }
  const RunReader reader(file);
  EXPECT_EQ(reader.header().settings.contact_model, ContactModel::Peg);
  EXPECT_EQ(reader.header().settings.sm_enforce, SmEnforce::All);
  ASSERT_EQ(reader.frame_count(), 201);
  EXPECT_TRUE(reader.frame(0).constraints.groups.empty());
  int kinds[3] = {0, 0, 0};
  for (std::int64_t k = 1; k < reader.frame_count(); ++k) {
    const RunFrame f = reader.frame(k);
    const ConstraintSet& want = tape.sets[k - 1];
    ASSERT_EQ(f.contacts.size(), tape.contacts[k - 1]);
    ASSERT_EQ(f.constraints.members, want.members) << "frame " << k;
    ASSERT_EQ(f.constraints.groups.size(), want.groups.size());
    for (std::size_t g = 0; g < want.groups.size(); ++g) {
      EXPECT_EQ(f.constraints.groups[g].kind, want.groups[g].kind);
      EXPECT_EQ(f.constraints.groups[g].first, want.groups[g].first);
      EXPECT_EQ(f.constraints.groups[g].count, want.groups[g].count);
      EXPECT_EQ(f.constraints.groups[g].impulse, want.groups[g].impulse);
      ++kinds[static_cast<int>(want.groups[g].kind)];
    }
  }
  EXPECT_GT(kinds[0], 0);
  EXPECT_GT(kinds[1], 0);
  EXPECT_GT(kinds[2], 0);
  fs::remove(file);
}

// The corrective method (thesis §5.2.3) recorded: its name, longer than the 8 characters of
// the settings log's first column, reads back from /settings and from a change of model in
// the middle of the run; its contacts (one per overlapping pair) read back with their gaps.
TEST(RunConstraints, CorrectiveModelRoundTrips) {
  const fs::path file =
      fs::temp_directory_path() / ("pegsim-corrective-" + std::to_string(::getpid()) + ".h5");
  fs::remove(file);
  Scene scene = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "cascading_polyhedra.json");
  scene.settings.contact_model = ContactModel::Corrective;
  Simulator sim(scene.model, scene.initial, scene.settings);
  Tape tape;
  std::vector<std::vector<double>> gaps;
  {
    RunWriter writer(file, make_run_header(scene, sim.model(), sim.settings(), "test"),
                     sim.state());
    sim.add_observer(&writer);
    sim.add_observer(&tape);
    for (int k = 0; k < 200; ++k) {
      if (k == 100) {
        Settings s = sim.settings();
        s.contact_model = ContactModel::Standard;
        sim.set_settings(s);
      } else if (k == 150) {
        Settings s = sim.settings();
        s.contact_model = ContactModel::Corrective;
        sim.set_settings(s);
      }
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed);
      gaps.emplace_back();
      for (const Contact& c : r.contacts) gaps.back().push_back(c.gap);
    }
    writer.close();
  }
  const RunReader reader(file);
  EXPECT_EQ(reader.header().settings.contact_model, ContactModel::Corrective);
  EXPECT_EQ(reader.settings(100).contact_model, ContactModel::Corrective);
  EXPECT_EQ(reader.settings(101).contact_model, ContactModel::Standard);
  EXPECT_EQ(reader.settings(151).contact_model, ContactModel::Corrective);
  EXPECT_EQ(reader.settings(200).contact_model, ContactModel::Corrective);
  int overlapping = 0;
  for (std::int64_t k = 1; k < reader.frame_count(); ++k) {
    const RunFrame f = reader.frame(k);
    ASSERT_EQ(f.contacts.size(), gaps[k - 1].size()) << "frame " << k;
    for (std::size_t i = 0; i < f.contacts.size(); ++i) {
      EXPECT_EQ(f.contacts[i].contact.gap, gaps[k - 1][i]);
      if (k <= 100) {
        EXPECT_LT(f.contacts[i].contact.gap, 0.0);  // corrective: overlaps only
      }
    }
    if (k <= 100) overlapping += static_cast<int>(f.contacts.size());
  }
  EXPECT_GT(overlapping, 0);
  fs::remove(file);
}

}  // namespace
