// Run files (docs/run-format.md): round trip of every field, random access, offset tables,
// crash safety under SIGKILL, file safety, malformed files and replay determinism.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <random>

#include "engine/dynamics/simulator.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_replay.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("pegsim-run-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

fs::path fresh(const std::string& name) {
  fs::path p = temp_dir() / name;
  fs::remove(p);
  return p;
}

Scene scene(const std::string& name) {
  return load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / (name + ".json"));
}

// Keeps a copy of what the writer saw, to compare with what the reader returns.
struct Tape : StepObserver {
  std::vector<State> states;
  std::vector<StepReport> reports;
  void on_step(const Model&, const State& s, const StepReport& r) override {
    states.push_back(s);
    reports.push_back(r);
  }
};

struct Recording {
  Scene scene;
  State initial;
  Tape tape;
};

Recording record(const std::string& name, int steps, const fs::path& file) {
  Recording rec{scene(name), {}, {}};
  Simulator sim(rec.scene.model, rec.scene.initial, rec.scene.settings);
  rec.initial = sim.state();
  RunWriter writer(file, make_run_header(rec.scene, sim.model(), sim.settings(), "test"),
                   sim.state());
  sim.add_observer(&writer);
  sim.add_observer(&rec.tape);
  for (int k = 0; k < steps; ++k) sim.step();
  writer.close();
  return rec;
}

void expect_same_state(const BodyState& a, const BodyState& b) {
  EXPECT_EQ(a.position, b.position);
  EXPECT_EQ(a.orientation.coeffs(), b.orientation.coeffs());
  EXPECT_EQ(a.velocity, b.velocity);
  EXPECT_EQ(a.angular_velocity, b.angular_velocity);
}

void expect_same_frame(const RunFrame& f, const State& s, const StepReport* r) {
  EXPECT_EQ(f.time, s.time);
  EXPECT_EQ(f.step, s.step);
  ASSERT_EQ(f.bodies.size(), s.bodies.size());
  for (std::size_t b = 0; b < s.bodies.size(); ++b) {
    expect_same_state(f.bodies[b], s.bodies[b]);
    // The wrench of the step (none before the first).
    EXPECT_EQ(f.bodies[b].force, r ? r->applied_force[b] : Vec3::Zero());
    EXPECT_EQ(f.bodies[b].torque, r ? r->applied_torque[b] : Vec3::Zero());
  }
  if (!r) {
    EXPECT_TRUE(f.contacts.empty());
    EXPECT_TRUE(f.solve.attempts.empty());
    EXPECT_EQ(f.solve.problem_size, 0);
    EXPECT_FALSE(f.solve.status.has_value());
    return;
  }
  ASSERT_EQ(f.contacts.size(), r->contacts.size());
  for (std::size_t i = 0; i < r->contacts.size(); ++i) {
    const Contact& want = r->contacts[i];
    const RecordedContact& got = f.contacts[i];
    EXPECT_EQ(got.contact.body_a, want.body_a);
    EXPECT_EQ(got.contact.body_b, want.body_b);
    EXPECT_EQ(got.contact.feature_a.kind, want.feature_a.kind);
    EXPECT_EQ(got.contact.feature_a.index, want.feature_a.index);
    EXPECT_EQ(got.contact.feature_b.kind, want.feature_b.kind);
    EXPECT_EQ(got.contact.feature_b.index, want.feature_b.index);
    EXPECT_EQ(got.contact.point_a, want.point_a);
    EXPECT_EQ(got.contact.normal, want.normal);
    EXPECT_EQ(got.contact.gap, want.gap);
    EXPECT_EQ(got.contact.applicability, want.applicability);
    EXPECT_EQ(got.contact.applicable, want.applicable);
    EXPECT_EQ(got.contact.feasible, want.feasible);
    EXPECT_EQ(got.enforced, r->enforced[i] != 0);
    EXPECT_EQ(got.duplicate_of, r->duplicate_of[i]);
    EXPECT_EQ(got.normal_impulse, r->normal_impulse[i]);
    EXPECT_EQ(got.friction_impulse, r->friction_impulse[i]);
    EXPECT_EQ(got.sliding, r->sliding[i] != 0);
    EXPECT_EQ(got.friction_basis, r->friction_basis[i]);
    if (i < r->implicit.size()) {  // seed 001's unknowns
      const ImplicitContact& x = r->implicit[i];
      EXPECT_EQ(got.point_b, x.a2);
      EXPECT_EQ(got.multipliers, Vec2(x.l1, x.l2));
      EXPECT_EQ(got.slip_measure, x.sigma);
      EXPECT_EQ(got.torsional_impulse, x.p_r);
      EXPECT_EQ(got.deflection, x.deflection);
      EXPECT_EQ(got.core_impulse, x.p_core);
    } else {
      EXPECT_EQ(got.point_b, want.point_a + want.gap * want.normal);
      EXPECT_EQ(got.deflection, 0.0);
    }
  }
  const RecordedSolve& s2 = f.solve;
  EXPECT_EQ(s2.problem_size, r->problem_size);
  EXPECT_EQ(s2.solver, r->solve.solver);
  if (!r->solve.solver.empty()) {
    ASSERT_TRUE(s2.status.has_value());
    EXPECT_EQ(*s2.status, r->solve.status);
    EXPECT_EQ(s2.iterations, r->solve.iterations);
    EXPECT_EQ(s2.residual, r->solve.residual);
    ASSERT_GE(s2.answer, 0);
    EXPECT_EQ(s2.attempts[s2.answer].residual_history, r->solve.residual_history);
  }
  EXPECT_EQ(s2.fell_back, r->fell_back);
  EXPECT_EQ(s2.failed, r->failed);
  EXPECT_EQ(s2.max_penetration, r->max_penetration);
  EXPECT_EQ(s2.timings.detect, r->timings.detect);
  EXPECT_EQ(s2.timings.formulate, r->timings.formulate);
  EXPECT_EQ(s2.timings.solve, r->timings.solve);
  EXPECT_EQ(s2.timings.integrate, r->timings.integrate);
  ASSERT_EQ(s2.attempts.size(), r->attempts.size());
  for (std::size_t a = 0; a < r->attempts.size(); ++a) {
    EXPECT_EQ(s2.attempts[a].solver, r->attempts[a].solver);
    EXPECT_EQ(s2.attempts[a].status, r->attempts[a].status);
    EXPECT_EQ(s2.attempts[a].iterations, r->attempts[a].iterations);
    EXPECT_EQ(s2.attempts[a].residual, r->attempts[a].residual);
    EXPECT_EQ(s2.attempts[a].seconds, r->attempts[a].seconds);
    EXPECT_EQ(s2.attempts[a].residual_history, r->attempts[a].residual_history);
  }
}

// Under the geometrically implicit formulation each contact row also holds the pair's
// end-of-step unknowns (seed 001): a2, l1, l2, sigma, p_r, and a quasi-rigid shell's
// deflection and core impulse. The shipped Example 3 scene to just past its core impact.
TEST(RunFile, TheImplicitStepsUnknownsRoundTrip) {
  const fs::path file = fresh("implicit.h5");
  Recording rec = record("quasi_rigid_disc", 3400, file);
  RunReader reader(file);
  double deepest = 0.0, core = 0.0;
  for (int k = 1; k <= 3400; k += 1) {
    const RunFrame f = reader.frame(k);
    expect_same_frame(f, rec.tape.states[k - 1], &rec.tape.reports[k - 1]);
    for (const RecordedContact& c : f.contacts) {
      deepest = std::max(deepest, c.deflection);
      core = std::max(core, c.core_impulse);
      if (c.deflection > 1e-9) {  // touching: a2 on the deformed ground, a1 (the disc's) too
        EXPECT_NEAR(c.point_b.y(), -c.deflection, 1e-9) << k;
        EXPECT_NEAR(c.contact.point_a.y(), -c.deflection, 1e-9) << k;
      }
    }
  }
  EXPECT_NEAR(deepest, 0.05, 1e-9) << "the core reached";
  EXPECT_GT(core, 0.0);
}

TEST(RunFile, EveryFieldRoundTrips) {
  const fs::path file = fresh("roundtrip.h5");
  Recording rec = record("cascading_polyhedra", 80, file);
  RunReader reader(file);
  const RunHeader& h = reader.header();
  EXPECT_EQ(h.format_version, 1);
  EXPECT_EQ(h.program, "test");
  EXPECT_EQ(h.scene_name, rec.scene.name);
  EXPECT_EQ(h.scene_json, rec.scene.source);
  EXPECT_EQ(h.scene_directory, rec.scene.file.parent_path().string());
  EXPECT_FALSE(h.created.empty());
  EXPECT_EQ(h.settings.h, rec.scene.settings.h);
  EXPECT_EQ(h.settings.gravity, rec.scene.settings.gravity);
  EXPECT_EQ(h.settings.epsilon, rec.scene.settings.epsilon);
  EXPECT_EQ(h.settings.eps_theta, rec.scene.settings.eps_theta);
  EXPECT_EQ(h.settings.friction_directions, rec.scene.settings.friction_directions);
  EXPECT_EQ(h.settings.solver, rec.scene.settings.solver);
  EXPECT_EQ(h.settings.fallbacks, rec.scene.settings.fallbacks);
  EXPECT_EQ(h.settings.tolerance, rec.scene.settings.tolerance);
  EXPECT_EQ(h.settings.on_failure, rec.scene.settings.on_failure);
  ASSERT_EQ(h.bodies.size(), rec.scene.model.bodies.size());
  for (std::size_t i = 0; i < h.bodies.size(); ++i) {
    const Body& want = rec.scene.model.bodies[i];
    const RunBody& got = h.bodies[i];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.kind, want.shape.kind);
    EXPECT_EQ(got.radius, want.shape.radius);
    EXPECT_EQ(got.mass, want.mass);
    EXPECT_EQ(got.inertia, want.inertia);
    EXPECT_EQ(got.is_static, want.is_static);
    EXPECT_EQ(got.mu, want.mu);
    EXPECT_EQ(got.color, want.color);
    EXPECT_EQ(got.visible, want.visible);
    EXPECT_EQ(got.no_collide, want.no_collide);
    if (want.shape.kind == ShapeKind::Polytope) {
      EXPECT_EQ(got.vertices, want.shape.polytope->vertices);
      ASSERT_EQ(got.faces.size(), want.shape.polytope->faces.size());
      for (std::size_t f = 0; f < got.faces.size(); ++f)
        EXPECT_EQ(got.faces[f], want.shape.polytope->faces[f].vertices);
    }
  }
  ASSERT_EQ(reader.frame_count(), 81);
  expect_same_frame(reader.frame(0), rec.initial, nullptr);
  std::size_t contacts = 0, solves = 0;
  for (int k = 1; k <= 80; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    expect_same_frame(reader.frame(k), rec.tape.states[k - 1], &rec.tape.reports[k - 1]);
    contacts += rec.tape.reports[k - 1].contacts.size();
    solves += rec.tape.reports[k - 1].problem_size > 0;
  }
  EXPECT_GT(contacts, 0u);  // the run exercised contacts and solves
  EXPECT_GT(solves, 0u);
  EXPECT_TRUE(reader.has_wrenches());
  EXPECT_TRUE(reader.settings_changes().empty());
  ASSERT_EQ(reader.times().size(), 81u);
  EXPECT_EQ(reader.times()[80], rec.tape.states.back().time);
}

// Aligned cubes: the vertex of A on B and the vertex of B on A at a corner are one physical
// contact, enforced once; the other names it in duplicate_of.
TEST(RunFile, DuplicateOfRoundTrips) {
  const fs::path file = fresh("duplicates.h5");
  Recording rec = record("stack10", 5, file);
  RunReader reader(file);
  std::size_t duplicates = 0;
  for (int k = 1; k <= 5; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const RunFrame f = reader.frame(k);
    expect_same_frame(f, rec.tape.states[k - 1], &rec.tape.reports[k - 1]);
    for (const RecordedContact& c : f.contacts) {
      if (c.duplicate_of < 0) continue;
      ++duplicates;
      ASSERT_LT(static_cast<std::size_t>(c.duplicate_of), f.contacts.size());
      EXPECT_TRUE(f.contacts[c.duplicate_of].enforced);
      EXPECT_FALSE(c.enforced);
    }
  }
  EXPECT_GT(duplicates, 0u);
}

TEST(RunFile, RandomAccessMatchesSequentialReading) {
  const fs::path file = fresh("random.h5");
  Recording rec = record("spheres_on_cube", 150, file);
  RunReader reader(file);
  ASSERT_EQ(reader.frame_count(), 151);
  const std::vector<RunFrame> all = reader.frames(0, reader.frame_count());
  std::mt19937 rng(7);
  for (int i = 0; i < 60; ++i) {
    const std::int64_t k = std::uniform_int_distribution<std::int64_t>(0, 150)(rng);
    SCOPED_TRACE("frame " + std::to_string(k));
    const RunFrame f = reader.frame(k);
    EXPECT_EQ(f.index, k);
    EXPECT_EQ(f.contacts.size(), all[k].contacts.size());
    EXPECT_EQ(f.solve.attempts.size(), all[k].solve.attempts.size());
    if (k == 0)
      expect_same_frame(f, rec.initial, nullptr);
    else
      expect_same_frame(f, rec.tape.states[k - 1], &rec.tape.reports[k - 1]);
  }
  EXPECT_THROW(reader.frame(151), std::out_of_range);
  EXPECT_THROW(reader.frame(-1), std::out_of_range);
  // The states alone (what the plots read of every frame) are the frames' own.
  const std::vector<State> states = reader.states(40, 30);
  ASSERT_EQ(states.size(), 30u);
  for (std::size_t f = 0; f < states.size(); ++f) {
    const RunFrame& frame = all[40 + f];
    EXPECT_EQ(states[f].time, frame.time);
    EXPECT_EQ(states[f].step, frame.step);
    for (std::size_t b = 0; b < frame.bodies.size(); ++b) {
      EXPECT_EQ(states[f].bodies[b].position, frame.bodies[b].position);
      EXPECT_EQ(states[f].bodies[b].velocity, frame.bodies[b].velocity);
      EXPECT_EQ(states[f].bodies[b].force, frame.bodies[b].force);
    }
  }
  EXPECT_THROW(reader.states(140, 12), std::out_of_range);
  EXPECT_TRUE(reader.states(151, 0).empty());
}

// Hand-made reports: frames with 0 contacts and 0 attempts between others, empty histories.
TEST(RunFile, OffsetTablesHandleFramesWithoutContactsOrSolves) {
  Scene sc = scene("sphere_drop");
  const fs::path file = fresh("offsets.h5");
  const std::vector<int> contact_counts{0, 3, 0, 0, 2, 0};
  {
    RunWriter writer(file, make_run_header(sc, sc.model, sc.settings, "test"), sc.initial);
    State s = sc.initial;
    for (std::size_t k = 0; k < contact_counts.size(); ++k) {
      StepReport r;
      s.time += 0.01;
      s.step = static_cast<std::int64_t>(k + 1);
      for (int c = 0; c < contact_counts[k]; ++c) {
        Contact ct;
        ct.body_a = 0;
        ct.body_b = 1;
        ct.gap = -0.001 * (c + 1) - double(k);
        r.contacts.push_back(ct);
        r.enforced.push_back(1);
        r.normal_impulse.push_back(double(10 * k + c));
        r.friction_impulse.push_back(Vec3(c, k, 1));
        r.sliding.push_back(char(c % 2));
      }
      if (contact_counts[k] > 0) {
        r.problem_size = 9 * contact_counts[k];
        SolveReport fail{SolveStatus::MaxIterations, 5, {}, 1e-3, 0.1, "lemke", "x"};
        SolveReport ok{SolveStatus::Solved, 2, {1.0, 1e-12}, 1e-12, 0.2, "pgs", ""};
        r.attempts = {fail, ok};
        r.solve = ok;
        r.fell_back = true;
      }
      writer.on_step(sc.model, s, r);
    }
    writer.close();
  }
  RunReader reader(file);
  ASSERT_EQ(reader.frame_count(), 7);
  const std::vector<std::int64_t> offsets = reader.contact_offsets();
  ASSERT_EQ(offsets.size(), 8u);
  for (std::size_t k = 0; k < contact_counts.size(); ++k) {
    SCOPED_TRACE("frame " + std::to_string(k + 1));
    EXPECT_EQ(offsets[k + 2] - offsets[k + 1], contact_counts[k]);
    const RunFrame f = reader.frame(static_cast<std::int64_t>(k + 1));
    ASSERT_EQ(f.contacts.size(), std::size_t(contact_counts[k]));
    for (int c = 0; c < contact_counts[k]; ++c) {
      EXPECT_EQ(f.contacts[c].contact.gap, -0.001 * (c + 1) - double(k));
      EXPECT_EQ(f.contacts[c].normal_impulse, double(10 * k + c));
    }
    if (contact_counts[k] == 0) {
      EXPECT_TRUE(f.solve.attempts.empty());
      EXPECT_EQ(f.solve.answer, -1);
      EXPECT_TRUE(f.solve.solver.empty());
    } else {
      ASSERT_EQ(f.solve.attempts.size(), 2u);
      EXPECT_TRUE(f.solve.attempts[0].residual_history.empty());
      EXPECT_EQ(f.solve.attempts[1].residual_history, (std::vector<double>{1.0, 1e-12}));
      EXPECT_EQ(f.solve.attempts[0].status, SolveStatus::MaxIterations);
      EXPECT_EQ(f.solve.answer, 1);
      EXPECT_EQ(f.solve.solver, "pgs");
      EXPECT_TRUE(f.solve.fell_back);
    }
  }
  const std::vector<RecordedSolve> solves = reader.solver_reports();
  ASSERT_EQ(solves.size(), 7u);
  EXPECT_EQ(solves[2].problem_size, 27);
  EXPECT_EQ(solves[3].problem_size, 0);
}

TEST(RunFile, NeverReplacesAFileWithoutOverwrite) {
  Scene sc = scene("hello_world");
  const fs::path file = fresh("keep.h5");
  std::ofstream(file) << "precious";
  const RunHeader h = make_run_header(sc, sc.model, sc.settings, "test");
  try {
    RunWriter w(file, h, sc.initial);
    FAIL() << "an existing file was replaced";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("exists"), std::string::npos) << e.what();
  }
  std::ifstream in(file);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "precious");
  RunWriterOptions force;
  force.overwrite = true;
  { RunWriter w(file, h, sc.initial, force); }
  EXPECT_EQ(RunReader(file).frame_count(), 1);
  // A run file refused in turn is not touched either (not even marked).
  const auto stamp = fs::last_write_time(file);
  EXPECT_THROW(RunWriter(file, h, sc.initial), RunFileError);
  EXPECT_EQ(fs::last_write_time(file), stamp);
  EXPECT_EQ(RunReader(file).frame_count(), 1);
}

TEST(RunFile, UnwritablePlaceGivesAClearError) {
  Scene sc = scene("hello_world");
  const fs::path file = temp_dir() / "no-such-folder" / "x.h5";
  testing::internal::CaptureStderr();
  try {
    RunWriter w(file, make_run_header(sc, sc.model, sc.settings, "test"), sc.initial);
    FAIL() << "created a file in a missing folder";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// Opening `file` must throw one RunFileError naming the file and `expected`, print nothing.
void expect_bad(const fs::path& file, const std::string& expected) {
  testing::internal::CaptureStderr();
  try {
    RunReader r(file);
    (void)testing::internal::GetCapturedStderr();
    ADD_FAILURE() << file << " opened";
    return;
  } catch (const RunFileError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find(file.string() + ": "), 0u) << what;
    EXPECT_NE(what.find(expected), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// Edits a recorded file with the HDF5 API to break it in one way.
template <typename Edit>
fs::path broken_copy(const fs::path& good, const std::string& name, Edit edit) {
  const fs::path p = fresh(name);
  fs::copy_file(good, p);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t f = H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  EXPECT_GE(f, 0);
  edit(f);
  H5Fclose(f);
  return p;
}

// A crafted group row whose first member is 2^31 - 1 with a count of 1: first + count wraps in
// 32 bits to a small sum and used to pass the check, and the GUI's overlay then read
// members[2147483647]. Every frame read must refuse it, naming the dataset.
TEST(RunFile, AGroupPastTheMembersIsRefusedWithoutWrapping) {
  const fs::path good = fresh("groups-good.h5");
  record("hello_world", 30, good);
  const fs::path bad = broken_copy(good, "groups-wrap.h5", [](hid_t f) {
    hid_t d = H5Dopen2(f, "/frames/constraint_groups", H5P_DEFAULT);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(std::int32_t));
    H5Tinsert(t, "first", 0, H5T_NATIVE_INT32);
    hid_t space = H5Dget_space(d);
    std::vector<std::int32_t> first(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    EXPECT_FALSE(first.empty());
    H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, first.data());
    if (!first.empty()) first.back() = std::numeric_limits<std::int32_t>::max();
    H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, first.data());
    H5Sclose(space);
    H5Tclose(t);
    H5Dclose(d);
  });
  RunReader reader(bad);
  try {
    (void)reader.frames(0, reader.frame_count());
    ADD_FAILURE() << "the wrapped group was read";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find("/frames/constraint_groups"), std::string::npos)
        << e.what();
  }
}

// One damaged metadata byte (the superblock's checksum, bytes 44-47, and bytes spread over the
// file's first 4 KiB, where its object headers lie) must neither hang a reader nor crash it:
// under SWMR read HDF5 retried a failed checksum with growing sleeps for minutes. Each copy is
// refused with one clear error, or read if the byte was not metadata, within a few seconds.
TEST(RunFile, ADamagedMetadataByteIsRefusedQuickly) {
  const fs::path good = fresh("flip-good.h5");
  record("hello_world", 30, good);
  std::vector<std::uintmax_t> at = {44, 45, 46, 47};
  for (std::uintmax_t k = 0; k < 40; ++k) at.push_back(48 + k * 101);
  for (std::uintmax_t offset : at) {
    if (offset >= fs::file_size(good)) continue;
    SCOPED_TRACE("byte " + std::to_string(offset));
    const fs::path p = fresh("flip.h5");
    fs::copy_file(good, p);
    {
      std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(static_cast<std::streamoff>(offset));
      const char c = static_cast<char>(f.get() ^ 0x5a);
      f.seekp(static_cast<std::streamoff>(offset));
      f.put(c);
    }
    const auto t0 = std::chrono::steady_clock::now();
    try {
      RunReader reader(p);
      (void)reader.frames(0, reader.frame_count());
    } catch (const RunFileError& e) {
      EXPECT_EQ(std::string(e.what()).find(p.string() + ": "), 0u) << e.what();
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
    // Read or refused, the reader leaves no HDF5 object open (what HDF5 itself keeps after a
    // failed open of a damaged file is its own: fuzz/lsan.supp).
    EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL), 0);
  }
}

// A damaged file must not pass for a short run (issue 28 item 9): a file its writer closed
// holds every frame it wrote, so an emptied column is damage; and a dimension attribute that
// disagrees with the bodies' shapes is refused.
TEST(RunFile, AnEmptiedColumnOrAWrongDimensionIsDamageNotAShortRun) {
  const fs::path good = fresh("whole.h5");
  record("hello_world", 30, good);
  EXPECT_EQ(RunReader(good).frame_count(), 31);
  expect_bad(broken_copy(good, "emptied-pose.h5",
                         [](hid_t f) {
                           hid_t d = H5Dopen2(f, "/frames/pose", H5P_DEFAULT);
                           const hsize_t none[3] = {0, 2, 7};
                           H5Dset_extent(d, none);
                           H5Dclose(d);
                         }),
             "the writer closed it with 31 frames, but only 0 are whole");
  expect_bad(broken_copy(good, "dimension.h5",
                         [](hid_t f) {
                           hid_t a = H5Aopen(f, "dimension", H5P_DEFAULT);
                           const long long two = 2;
                           H5Awrite(a, H5T_NATIVE_LLONG, &two);
                           H5Aclose(a);
                         }),
             "dimension 2, but body ground is a 3D shape");
}

TEST(RunFile, MalformedFilesGiveOneClearError) {
  const fs::path good = fresh("good.h5");
  record("hello_world", 30, good);

  expect_bad(temp_dir() / "missing.h5", "does not exist");
  const fs::path text = fresh("text.h5");
  std::ofstream(text) << "this is not HDF5\n";
  expect_bad(text, "not an HDF5 file");

  const fs::path truncated = fresh("truncated.h5");
  fs::copy_file(good, truncated);
  fs::resize_file(truncated, fs::file_size(good) / 2);
  expect_bad(truncated, "truncated");

  expect_bad(broken_copy(good, "no-contacts.h5",
                         [](hid_t f) { H5Ldelete(f, "/frames/contacts", H5P_DEFAULT); }),
             "missing dataset /frames/contacts");
  expect_bad(
      broken_copy(good, "no-frames.h5", [](hid_t f) { H5Ldelete(f, "/frames", H5P_DEFAULT); }),
      "/frames");
  expect_bad(broken_copy(good, "version.h5",
                         [](hid_t f) {
                           hid_t a = H5Aopen(f, "format_version", H5P_DEFAULT);
                           const long long v = 99;
                           H5Awrite(a, H5T_NATIVE_LLONG, &v);
                           H5Aclose(a);
                         }),
             "format_version 99, expected 1");
  expect_bad(broken_copy(good, "foreign.h5", [](hid_t f) { H5Adelete(f, "format"); }),
             "not a pegsim run file");
}

// A recording killed with SIGKILL keeps every frame flushed before the kill.
TEST(RunFile, SurvivesSigkillWithEveryFlushedFrame) {
  const fs::path file = fresh("killed.h5");
  int pipe_fd[2];
  ASSERT_EQ(pipe(pipe_fd), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(pipe_fd[0]);
    Scene sc = scene("spheres_on_cube");
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriterOptions o;
    o.flush_seconds = 0.05;
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state(),
                     o);
    sim.add_observer(&writer);
    for (int k = 0; k < 120; ++k) sim.step();
    writer.flush();
    const std::int64_t flushed = writer.frames();
    if (write(pipe_fd[1], &flushed, sizeof flushed) != sizeof flushed) _exit(3);
    for (;;) sim.step();  // keep recording (and flushing) until killed
  }
  close(pipe_fd[1]);
  std::int64_t flushed = 0;
  ASSERT_EQ(read(pipe_fd[0], &flushed, sizeof flushed), ssize_t(sizeof flushed));
  close(pipe_fd[0]);
  usleep(60000);  // let it be killed in the middle of later writes
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  RunReader reader(file);
  ASSERT_GE(reader.frame_count(), flushed);
  // Every frame readable and equal to a fresh run of the same deterministic scene.
  Scene sc = scene("spheres_on_cube");
  Simulator sim(sc.model, sc.initial, sc.settings);
  const std::vector<RunFrame> frames = reader.frames(0, reader.frame_count());
  for (std::int64_t k = 0; k < reader.frame_count(); ++k) {
    if (k > 0) sim.step();
    const RunFrame& f = frames[k];
    ASSERT_EQ(f.step, sim.state().step) << "frame " << k;
    for (std::size_t b = 0; b < f.bodies.size(); ++b)
      ASSERT_EQ(f.bodies[b].position, sim.state().bodies[b].position) << "frame " << k;
    ASSERT_EQ(f.contacts.size(), sim.last_report().contacts.size()) << "frame " << k;
  }
}

// Replays `file` from its own model, settings and first frame (prepare_replay_step applies
// each step's recorded settings and wrench) and expects every recorded pose bit for bit.
// Runs `steps` steps of the scene, recording them to `file`.
void record(const Scene& sc, const fs::path& file, int steps) {
  Simulator sim(sc.model, sc.initial, sc.settings);
  RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
  sim.add_observer(&writer);
  for (int k = 0; k < steps; ++k) ASSERT_FALSE(sim.step().failed) << k;
  writer.close();
}

void expect_exact_replay(const fs::path& file) {
  RunReader reader(file);
  const RunFrame first = reader.frame(0);
  State initial;
  initial.time = first.time;
  initial.step = first.step;
  initial.bodies = first.bodies;
  Simulator replay(reader.model(), initial, reader.header().settings);
  const std::vector<RunFrame> frames = reader.frames(0, reader.frame_count());
  for (std::int64_t k = 1; k < reader.frame_count(); ++k) {
    prepare_replay_step(replay, reader, frames[k]);
    ASSERT_FALSE(replay.step().failed);
    for (std::size_t b = 0; b < frames[k].bodies.size(); ++b) {
      const BodyState& want = frames[k].bodies[b];
      const BodyState& got = replay.state().bodies[b];
      ASSERT_EQ(std::memcmp(want.position.data(), got.position.data(), sizeof(double) * 3), 0)
          << "frame " << k << " body " << b;
      ASSERT_EQ(std::memcmp(want.orientation.coeffs().data(), got.orientation.coeffs().data(),
                            sizeof(double) * 4),
                0)
          << "frame " << k << " body " << b;
    }
  }
}

// Without any flush() call, frames reach the disk while the recording goes on: the stepping
// thread hands them to the writer within half a flush period, which flushes every period.
TEST(RunFile, FramesReachTheDiskWhileRecordingWithoutFlushCalls) {
  const fs::path file = fresh("periodic.h5");
  Scene sc = scene("spheres_on_cube");
  Simulator sim(sc.model, sc.initial, sc.settings);
  RunWriterOptions o;
  o.flush_seconds = 0.05;
  RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state(), o);
  sim.add_observer(&writer);
  for (int k = 0; k < 20; ++k) sim.step();
  const auto t0 = std::chrono::steady_clock::now();
  std::int64_t seen = 0;
  // Keep stepping slowly (as a GUI at a low frame rate) until a reader sees the first 21.
  while (seen < 21 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5)) {
    usleep(20000);
    sim.step();
    seen = RunReader(file).frame_count();
  }
  EXPECT_GE(seen, 21);
  writer.close();
  EXPECT_EQ(RunReader(file).frame_count(), writer.frames());
}

// The engine is deterministic: a replay from the file alone (its model, settings, first
// frame and recorded wrenches) reproduces every recorded pose bit for bit.
TEST(RunFile, ReplayFromTheFileReproducesEveryPoseExactly) {
  const fs::path file = fresh("replay.h5");
  Scene sc = scene("cascading_polyhedra");
  sc.settings.friction_directions = 5;  // a setting the scene file does not hold
  std::vector<Vec3> pushed;             // the force given to body 2 at each step
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 200; ++k) {
      // Pushes of irregular size on some steps only, as a user dragging a body would.
      const Vec3 f = k % 7 < 3 ? Vec3(3.0 + 0.1 * k, -1.0, 0.5 * (k % 3)) : Vec3::Zero();
      if (k % 7 < 3) {
        sim.apply_wrench(2, f, Vec3(0.0, 0.2, -0.01 * k));   // the tetrahedron
        sim.apply_wrench(3, Vec3(0, 0, 1.5), Vec3::Zero());  // the octahedron
      }
      pushed.push_back(f);
      sim.step();
    }
    writer.close();
  }
  RunReader reader(file);
  ASSERT_EQ(reader.frame_count(), 201);
  const std::vector<RunFrame> frames = reader.frames(0, reader.frame_count());
  for (int k = 1; k <= 200; ++k) {
    ASSERT_EQ(frames[k].bodies[2].force, pushed[k - 1]) << "frame " << k;
    ASSERT_EQ(frames[k].bodies[3].force, (k - 1) % 7 < 3 ? Vec3(0, 0, 1.5) : Vec3::Zero())
        << "frame " << k;
    ASSERT_EQ(frames[k].bodies[1].force, Vec3::Zero()) << "frame " << k;
  }
  expect_exact_replay(file);

  // Without the wrenches the replay departs from the recording: they matter.
  Simulator bare(reader.model(), scene("cascading_polyhedra").initial, reader.header().settings);
  for (int k = 0; k < 200; ++k) bare.step();
  EXPECT_NE(bare.state().bodies[2].position, frames[200].bodies[2].position);
}

// A jointed scene's joints travel with the file: the replay from the file alone reproduces the
// double pendulum exactly.
TEST(RunFile, JointsAreStoredAndReplayed) {
  const fs::path file = fresh("joints.h5");
  const Scene sc = scene("double_pendulum");
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 150; ++k) sim.step();
    writer.close();
  }
  RunReader reader(file);
  const Model model = reader.model();
  ASSERT_EQ(model.joints.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const Joint& a = sc.model.joints[k];
    const Joint& b = model.joints[k];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.body_a, b.body_a);
    EXPECT_EQ(a.body_b, b.body_b);
    EXPECT_EQ(a.anchor_a, b.anchor_a);
    EXPECT_EQ(a.anchor_b, b.anchor_b);
    EXPECT_EQ(a.frame_a.coeffs(), b.frame_a.coeffs());
    EXPECT_EQ(a.frame_b.coeffs(), b.frame_b.coeffs());
  }
  expect_exact_replay(file);
}

// A 2D scene travels with the file: dimension, polygon vertices (x, y, 0) with their single
// CCW face, 2D features of the contacts; the replay from the file alone is exact.
TEST(RunFile, PlanarSceneIsStoredAndReplayed) {
  const fs::path file = fresh("planar.h5");
  const Scene sc = scene("triangle_drop");
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 150; ++k) sim.step();
    writer.close();
  }
  RunReader reader(file);
  EXPECT_EQ(reader.header().dimension, 2);
  const RunBody& base = reader.header().bodies[0];
  EXPECT_EQ(base.kind, ShapeKind::Polygon);
  ASSERT_EQ(base.vertices.size(), 3u);
  ASSERT_EQ(base.faces, (std::vector<std::vector<int>>{{0, 1, 2}}));
  const Model model = reader.model();
  ASSERT_TRUE(model.planar());
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Polygon& want = *sc.model.bodies[b].shape.polygon;
    const Polygon& got = *model.bodies[b].shape.polygon;
    EXPECT_EQ(got.vertices, want.vertices);
    EXPECT_EQ(got.normals, want.normals);
    EXPECT_EQ(model.bodies[b].inertia, sc.model.bodies[b].inertia);
  }
  bool edge_vertex = false;
  for (const RunFrame& f : reader.frames(0, reader.frame_count()))
    for (const RecordedContact& c : f.contacts)
      edge_vertex |= c.contact.feature_a.kind == FeatureKind::Edge &&
                     c.contact.feature_b.kind == FeatureKind::Vertex && c.contact.normal.z() == 0.0;
  EXPECT_TRUE(edge_vertex);
  expect_exact_replay(file);
}

// Settings changed between steps (as the GUI does) are logged with the frame they apply
// from; the reader gives each frame's settings and the replay follows them exactly.
TEST(RunFile, SettingsChangedMidRunAreRecordedAndReplayed) {
  const fs::path file = fresh("settings.h5");
  Scene sc = scene("cascading_polyhedra");
  Settings fine = sc.settings;
  fine.h = sc.settings.h / 2;
  Settings pgs = fine;
  pgs.solver = "pgs";
  pgs.fallbacks = {"lemke"};
  pgs.max_iterations = 300;
  pgs.time_budget = 30.0;       // never reached here: the replay stays exact
  pgs.iteration_budget = true;  // PGS answers every step within its 300 sweeps
  pgs.contacts_per_pair = 4;
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 150; ++k) {
      if (k == 40) sim.set_settings(fine);  // frames 41.. use h / 2
      if (k == 60) sim.set_settings(fine);  // the same settings again: no new entry
      if (k == 90) sim.set_settings(pgs);   // frames 91.. use PGS
      sim.step();
    }
    writer.close();
  }
  RunReader reader(file);
  ASSERT_EQ(reader.frame_count(), 151);
  const std::vector<SettingsChange>& log = reader.settings_changes();
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].frame, 41);
  EXPECT_EQ(log[0].settings.h, fine.h);
  EXPECT_EQ(log[1].frame, 91);
  EXPECT_EQ(log[1].settings.solver, "pgs");
  EXPECT_EQ(log[1].settings.fallbacks, pgs.fallbacks);
  EXPECT_EQ(log[1].settings.max_iterations, 300);
  EXPECT_EQ(log[1].settings.time_budget, 30.0);
  EXPECT_EQ(log[0].settings.time_budget, 0.0);
  EXPECT_TRUE(log[1].settings.iteration_budget);
  EXPECT_FALSE(log[0].settings.iteration_budget);
  EXPECT_EQ(log[1].settings.contacts_per_pair, 4);
  EXPECT_EQ(log[0].settings.contacts_per_pair, 0);
  EXPECT_EQ(log[1].settings.gravity, sc.settings.gravity);
  for (std::int64_t k : {0, 1, 40}) {
    EXPECT_EQ(reader.settings(k).h, sc.settings.h) << k;
    EXPECT_EQ(reader.settings(k).solver, sc.settings.solver) << k;
  }
  for (std::int64_t k : {41, 60, 90}) {
    EXPECT_EQ(reader.settings(k).h, fine.h) << k;
    EXPECT_EQ(reader.settings(k).solver, sc.settings.solver) << k;
  }
  for (std::int64_t k : {91, 150}) {
    EXPECT_EQ(reader.settings(k).h, fine.h) << k;
    EXPECT_EQ(reader.settings(k).solver, "pgs") << k;
  }
  EXPECT_THROW(reader.settings(151), std::out_of_range);
  // Time advances by each step's own h.
  const std::vector<double>& t = reader.times();
  EXPECT_NEAR(t[40] - t[39], sc.settings.h, 1e-12);
  EXPECT_NEAR(t[41] - t[40], fine.h, 1e-12);
  const RunFrame f = reader.frame(120);
  if (!f.solve.solver.empty()) {
    EXPECT_EQ(f.solve.attempts.front().solver, "pgs");
  }
  expect_exact_replay(file);
}

// A name the settings log cannot hold is refused with the file and the field named.
TEST(RunFile, SettingsThatDoNotFitTheLogGiveAClearError) {
  const fs::path file = fresh("long-name.h5");
  Scene sc = scene("hello_world");
  Simulator sim(sc.model, sc.initial, sc.settings);
  RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
  sim.add_observer(&writer);
  Settings s = sc.settings;
  s.fallbacks.assign(40, "lemke");  // 239 characters joined
  sim.set_settings(s);
  try {
    sim.step();
    FAIL() << "recorded settings that do not fit";
  } catch (const RunFileError& e) {
    EXPECT_EQ(std::string(e.what()).find(file.string() + ": "), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("/settings_log fallbacks"), std::string::npos) << e.what();
  }
}

// Files written before wrenches, the settings log and duplicate_of existed (format version
// 1 as first released) still open: the missing data reads as zero wrenches, no changes and
// duplicate_of -1. The old layout is rebuilt here from a new file with the HDF5 API.
TEST(RunFile, ReadsFilesWrittenBeforeTheAdditions) {
  const fs::path good = fresh("new.h5");
  Recording rec = record("cascading_polyhedra", 40, good);
  struct OldContactRow {  // the version-1 row as first released
    std::int32_t body_a, body_b, index_a, index_b;
    std::int8_t kind_a, kind_b;
    std::uint8_t applicable, feasible, primary, enforced, sliding;
    double point[3], normal[3], gap, applicability, normal_impulse, friction_impulse[3];
  };
  const fs::path old = broken_copy(good, "old.h5", [](hid_t f) {
    hid_t d = H5Dopen2(f, "/frames/contacts", H5P_DEFAULT);
    hid_t stored = H5Dget_type(d);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(OldContactRow));
    const int n = H5Tget_nmembers(stored);
    for (int i = 0; i < n; ++i) {  // every stored field but duplicate_of, at its old place
      char* name = H5Tget_member_name(stored, static_cast<unsigned>(i));
      hid_t mt = H5Tget_member_type(stored, static_cast<unsigned>(i));
      const std::string field = name;
      std::size_t at = 0;
      if (field == "body_a")
        at = offsetof(OldContactRow, body_a);
      else if (field == "body_b")
        at = offsetof(OldContactRow, body_b);
      else if (field == "index_a")
        at = offsetof(OldContactRow, index_a);
      else if (field == "index_b")
        at = offsetof(OldContactRow, index_b);
      else if (field == "feature_a")
        at = offsetof(OldContactRow, kind_a);
      else if (field == "feature_b")
        at = offsetof(OldContactRow, kind_b);
      else if (field == "applicable")
        at = offsetof(OldContactRow, applicable);
      else if (field == "feasible")
        at = offsetof(OldContactRow, feasible);
      else if (field == "primary")
        at = offsetof(OldContactRow, primary);
      else if (field == "enforced")
        at = offsetof(OldContactRow, enforced);
      else if (field == "sliding")
        at = offsetof(OldContactRow, sliding);
      else if (field == "point")
        at = offsetof(OldContactRow, point);
      else if (field == "normal")
        at = offsetof(OldContactRow, normal);
      else if (field == "gap")
        at = offsetof(OldContactRow, gap);
      else if (field == "applicability")
        at = offsetof(OldContactRow, applicability);
      else if (field == "normal_impulse")
        at = offsetof(OldContactRow, normal_impulse);
      else if (field == "friction_impulse")
        at = offsetof(OldContactRow, friction_impulse);
      if (field != "duplicate_of") H5Tinsert(t, name, at, mt);
      H5Tclose(mt);
      H5free_memory(name);
    }
    hid_t space = H5Dget_space(d);
    const hssize_t rows = H5Sget_simple_extent_npoints(space);
    std::vector<OldContactRow> data(static_cast<std::size_t>(rows));
    H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    H5Ldelete(f, "/frames/contacts", H5P_DEFAULT);
    hid_t dcpl = H5Dget_create_plist(d);  // chunked, extendable, as written
    hid_t nd = H5Dcreate2(f, "/frames/contacts", t, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Dwrite(nd, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
    H5Dclose(nd);
    H5Dclose(d);
    H5Sclose(space);
    H5Tclose(t);
    H5Tclose(stored);
    H5Ldelete(f, "/frames/force", H5P_DEFAULT);
    H5Ldelete(f, "/frames/torque", H5P_DEFAULT);
    H5Ldelete(f, "/settings_log", H5P_DEFAULT);
    H5Adelete_by_name(f, "/settings", "gyroscopic", H5P_DEFAULT);
    H5Adelete_by_name(f, "/settings", "primaries", H5P_DEFAULT);
    H5Adelete_by_name(f, "/settings", "cone_orientation", H5P_DEFAULT);
    H5Adelete_by_name(f, "/settings", "contacts_per_pair", H5P_DEFAULT);
  });
  RunReader reader(old);
  EXPECT_EQ(reader.header().settings.gyroscopic, Gyroscopic::Explicit);          // as (2.30) ran
  EXPECT_EQ(reader.header().settings.primaries, Primaries::LargestGap);          // as (4.14) ran
  EXPECT_EQ(reader.header().settings.cone_orientation, ConeOrientation::Fixed);  // as it ran
  EXPECT_EQ(reader.header().settings.contacts_per_pair, 0);                      // every contact
  EXPECT_EQ(reader.header().format_version, 1);
  ASSERT_EQ(reader.frame_count(), 41);
  EXPECT_FALSE(reader.has_wrenches());
  EXPECT_TRUE(reader.settings_changes().empty());
  EXPECT_EQ(reader.settings(40).h, rec.scene.settings.h);
  const RunReader fresh_reader(good);
  for (std::int64_t k = 1; k <= 40; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const RunFrame f = reader.frame(k), want = fresh_reader.frame(k);
    ASSERT_EQ(f.contacts.size(), want.contacts.size());
    for (std::size_t i = 0; i < f.contacts.size(); ++i) {
      EXPECT_EQ(f.contacts[i].duplicate_of, -1);
      EXPECT_EQ(f.contacts[i].friction_basis, Vec3::Zero());  // not recorded then
      EXPECT_EQ(f.contacts[i].contact.point_a, want.contacts[i].contact.point_a);
      EXPECT_EQ(f.contacts[i].normal_impulse, want.contacts[i].normal_impulse);
      EXPECT_EQ(f.contacts[i].contact.feature_b.index, want.contacts[i].contact.feature_b.index);
    }
    for (const BodyState& b : f.bodies) EXPECT_EQ(b.force, Vec3::Zero());
  }
}

// Joint limits, damping, controllers and the joint correction setting: the limits and dampers
// travel in /joints, the correction in /settings and the settings log, and the controllers'
// wrenches in the frames, so the replay from the file alone (no controller) is exact.
TEST(RunFile, ControlledLimitedDampedJointsReplayExactly) {
  const fs::path file = fresh("controlled.h5");
  const std::string text = R"({"settings": {"h": 0.005, "joint_correction": true,
                               "contacts_per_pair": 3},
     "bodies": [{"name": "upper", "shape": {"type": "box", "size": [0.1, 0.1, 1]},
                 "position": [0, 0, 1.5]},
                {"name": "lower", "shape": {"type": "box", "size": [0.1, 0.1, 1]},
                 "position": [0, 0, 0.5]}],
     "joints": [{"name": "shoulder", "type": "revolute", "body_b": "upper", "anchor": [0, 0, 2],
                 "axis": [1, 0, 0], "limits": {"angle": [-0.2, 0.1]}, "damping": {"angular": 0.3}},
                {"name": "elbow", "type": "revolute", "body_a": "upper", "body_b": "lower",
                 "anchor": [0, 0, 1], "axis": [1, 0, 0], "damping": {"angular": 0.1}}],
     "controllers": [{"type": "pd", "joint": "shoulder", "kp": 40, "kd": 4,
                      "target": {"type": "sinusoid", "amplitude": 1, "angular_frequency": 3}},
                     {"type": "wrench", "body": "lower", "force": [0, 5, 0], "start": 0.2,
                      "end": 0.4}]})";
  const Scene sc = parse_scene(text, "controlled.json", PEGSIM_SOURCE_DIR);
  int stops = 0;
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 300; ++k) {
      if (k == 150) {  // switch the correction off mid-run: the settings log carries it
        Settings s = sim.settings();
        s.joint_correction = false;
        s.gyroscopic = Gyroscopic::Explicit;
        s.primaries = Primaries::Several;
        sim.set_settings(s);
      }
      stops += sim.step().joints[0].angle_limit_impulse != 0.0;
    }
    writer.close();
  }
  EXPECT_GT(stops, 0);  // the stops were hit: they matter to the replay
  RunReader reader(file);
  const Model model = reader.model();
  ASSERT_EQ(model.joints.size(), 2u);
  EXPECT_EQ(model.joints[0].angle_limit.lower, -0.2);
  EXPECT_EQ(model.joints[0].angle_limit.upper, 0.1);
  EXPECT_FALSE(model.joints[1].angle_limit.any());
  EXPECT_EQ(model.joints[0].angular_damping, 0.3);
  EXPECT_EQ(model.joints[1].angular_damping, 0.1);
  EXPECT_TRUE(model.controllers.empty());  // their effect is in the recorded wrenches
  EXPECT_TRUE(reader.header().settings.joint_correction);
  EXPECT_EQ(reader.header().settings.contacts_per_pair, 3);
  EXPECT_FALSE(reader.settings(200).joint_correction);
  EXPECT_EQ(reader.header().settings.gyroscopic, Gyroscopic::Midpoint);
  EXPECT_EQ(reader.settings(200).gyroscopic, Gyroscopic::Explicit);
  EXPECT_EQ(reader.header().settings.primaries, Primaries::LargestGap);
  EXPECT_EQ(reader.settings(200).primaries, Primaries::Several);
  expect_exact_replay(file);
}

// A URDF robot travels as bodies, joints (with their angle offsets) and drawn surfaces: the run
// of the Panda pushing its block (drives, gravity compensation, contacts) replays bit for bit
// from the file alone, and the joints report the same angles.
TEST(RunFile, RobotScenesReplayWithoutTheRobotFile) {
  const fs::path file = fresh("panda.h5");
  const Scene sc = scene("panda_push");
  // into the push
  record(sc, file, 900);
  RunReader reader(file);
  const Model model = reader.model();
  ASSERT_EQ(model.joints.size(), sc.model.joints.size());
  for (std::size_t j = 0; j < model.joints.size(); ++j) {
    EXPECT_EQ(model.joints[j].angle_offset, sc.model.joints[j].angle_offset) << j;
    EXPECT_EQ(model.joints[j].angle_limit.upper, sc.model.joints[j].angle_limit.upper) << j;
  }
  EXPECT_NE(sc.model.joints[5].angle_offset, 0.0);  // joint 6: [-0.0175, 3.7525]
  for (std::size_t b = 0; b < model.bodies.size(); ++b)
    ASSERT_EQ(model.bodies[b].visual != nullptr, sc.model.bodies[b].visual != nullptr) << b;
  expect_exact_replay(file);
}

// Implicit PD drives are rows of every step's problem, not wrenches: they travel in
// /joint_drives (gains, target of every kind, waypoints) beside an explicit controller's
// recorded wrench, and the replay from the file alone is exact.
TEST(RunFile, ImplicitDrivesAreStoredAndReplayed) {
  const fs::path file = fresh("drives.h5");
  const std::string text = R"({"settings": {"h": 0.005},
     "bodies": [{"name": "upper", "shape": {"type": "box", "size": [0.1, 0.1, 1]},
                 "position": [0, 0, 1.5]},
                {"name": "lower", "shape": {"type": "box", "size": [0.1, 0.1, 1]},
                 "position": [0, 0, 0.5]},
                {"name": "sled", "shape": {"type": "cube", "edge": 0.2}, "position": [1, 0, 1]}],
     "joints": [{"name": "shoulder", "type": "revolute", "body_b": "upper", "anchor": [0, 0, 2],
                 "axis": [1, 0, 0]},
                {"name": "elbow", "type": "revolute", "body_a": "upper", "body_b": "lower",
                 "anchor": [0, 0, 1], "axis": [1, 0, 0]},
                {"name": "rail", "type": "cylindrical", "body_b": "sled", "anchor": [1, 0, 1],
                 "axis": [0, 1, 0]}],
     "controllers": [{"type": "pd", "joint": "shoulder", "kp": 400, "kd": 40, "implicit": true,
                      "target": {"type": "sinusoid", "offset": 0.1, "amplitude": 1,
                                 "angular_frequency": 3, "phase": 0.2}},
                     {"type": "pd", "joint": "elbow", "kp": 40, "kd": 4, "target": 0.5},
                     {"type": "pd", "joint": "rail", "coordinate": "displacement", "kp": 800,
                      "kd": 160, "implicit": true,
                      "target": {"type": "waypoints", "points": [[0, 0], [0.5, 0.4], [1, 0.1]]}},
                     {"type": "pd", "joint": "rail", "kp": 5, "kd": 1, "implicit": true,
                      "target": 1.2}]})";
  const Scene sc = parse_scene(text, "drives.json", PEGSIM_SOURCE_DIR);
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 300; ++k) ASSERT_FALSE(sim.step().failed);
    EXPECT_NEAR(sim.last_report().joints[2].displacement, 0.1, 0.02);  // the drives acted
    EXPECT_NEAR(sim.last_report().joints[2].angle, 1.2, 0.05);
    writer.close();
  }
  RunReader reader(file);
  const Model model = reader.model();
  const std::vector<PdJointSpec>& drives = model.controllers.pd_joints;
  ASSERT_EQ(drives.size(), 3u);  // the explicit elbow controller is in the frames' wrenches
  for (int k = 0; k < 3; ++k) {
    const PdJointSpec& want = sc.model.controllers.pd_joints[k == 0 ? 0 : k + 1];
    const PdJointSpec& got = drives[k];
    EXPECT_TRUE(got.implicit);
    EXPECT_EQ(got.joint, want.joint);
    EXPECT_EQ(got.displacement, want.displacement);
    EXPECT_EQ(got.kp, want.kp);
    EXPECT_EQ(got.kd, want.kd);
    EXPECT_EQ(got.target.kind, want.target.kind);
    EXPECT_EQ(got.target.value, want.target.value);
    EXPECT_EQ(got.target.offset, want.target.offset);
    EXPECT_EQ(got.target.amplitude, want.target.amplitude);
    EXPECT_EQ(got.target.angular_frequency, want.target.angular_frequency);
    EXPECT_EQ(got.target.phase, want.target.phase);
    EXPECT_EQ(got.target.waypoints, want.target.waypoints);
  }
  expect_exact_replay(file);
}

}  // namespace

namespace {

// Bodies that appear during the run (scene field appear_time): stored in /bodies/appear_time,
// read back into the model, replayed exactly; files without the dataset read as 0 (present
// from the start).
TEST(RunFile, AppearTimesAreStoredAndReplayed) {
  const fs::path file = fresh("appear.h5");
  const Scene sc = parse_scene(R"({"bodies": [
      {"name": "ground", "shape": {"type": "plane"}},
      {"name": "early", "shape": {"type": "cube", "edge": 0.5}, "position": [0, 0, 0.3]},
      {"name": "late", "shape": {"type": "cube", "edge": 0.5}, "position": [2, 0, 0.35],
       "appear_time": 0.2}]})",
                               "appear.json", ".");
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 40; ++k) sim.step();
    writer.close();
  }
  {
    RunReader reader(file);
    EXPECT_EQ(reader.header().bodies[1].appear_time, 0.0);
    EXPECT_EQ(reader.header().bodies[2].appear_time, 0.2);
    EXPECT_EQ(reader.model().bodies[2].appear_time, 0.2);
    // "late" waits where it was put until 0.2 s.
    EXPECT_EQ(reader.frame(19).bodies[2].position, Vec3(2, 0, 0.35));
    EXPECT_NE(reader.frame(21).bodies[2].position, Vec3(2, 0, 0.35));
  }
  expect_exact_replay(file);
  const fs::path old = broken_copy(
      file, "appear_old.h5", [](hid_t f) { H5Ldelete(f, "/bodies/appear_time", H5P_DEFAULT); });
  EXPECT_EQ(RunReader(old).model().bodies[2].appear_time, 0.0);
}

// Under the volumetric model each contact's common volume, its rate and its torsional impulse
// are recorded, the bodies' layers in /bodies/volumetric_layer, and the run replays exactly; a
// layer with a negative stiffness is refused by name.
// A body from a model file replays without the file: its collision hull and its drawn surface
// (corners, normals, colours) are in the run file, bit for bit.
TEST(RunFile, MeshBodiesKeepTheirSurface) {
  const fs::path file = fresh("mesh.h5");
  const Scene sc = parse_scene(R"({"bodies": [
      {"name": "ground", "shape": {"type": "plane"}},
      {"name": "l", "shape": {"type": "mesh", "file": "l_two_objects.obj"}, "position": [0, 0, 0.6]}]})",
                               "mesh.json", fs::path(PEGSIM_SOURCE_DIR) / "tests/io/data/meshes");
  ASSERT_TRUE(sc.model.bodies[1].visual);
  record(sc, file, 10);
  {
    RunReader reader(file);
    const Model read = reader.model();  // built afresh on each call
    EXPECT_FALSE(read.bodies[0].visual);
    const auto& got = read.bodies[1].visual;
    const auto& want = sc.model.bodies[1].visual;
    ASSERT_TRUE(got);
    ASSERT_EQ(got->parts.size(), want->parts.size());
    // Stored in single precision, as model files hold them: each to the float nearest it.
    for (std::size_t k = 0; k < got->parts.size(); ++k) {
      ASSERT_EQ(got->parts[k].corners.size(), want->parts[k].corners.size());
      for (std::size_t c = 0; c < got->parts[k].corners.size(); ++c) {
        EXPECT_EQ(got->parts[k].corners[c], want->parts[k].corners[c].cast<float>().cast<double>());
        EXPECT_EQ(got->parts[k].normals[c], want->parts[k].normals[c].cast<float>().cast<double>());
      }
      EXPECT_EQ(got->parts[k].color, want->parts[k].color);
    }
  }
  expect_exact_replay(file);
  const fs::path bad = broken_copy(file, "mesh_bad.h5", [](hid_t f) {
    const hid_t d = H5Dopen2(f, "/bodies/visual_corner_offset", H5P_DEFAULT);
    const std::int64_t offsets[3] = {0, 35, 72};
    H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, offsets);
    H5Dclose(d);
  });
  expect_bad(bad, "/bodies/visual_corner_offset: expected three corners per triangle (part 0)");
}

// A textured surface travels with its image: the file's bytes stored once however many parts
// share it, each corner's (u, v); a texture index out of range is refused by name.
TEST(RunFile, TexturedSurfacesKeepTheirImages) {
  const fs::path file = fresh("textured.h5");
  const fs::path meshes = fs::path(PEGSIM_SOURCE_DIR) / "tests/data/robots/urdf_tutorial/meshes";
  const Scene sc = parse_scene(R"({"bodies": [
      {"name": "a", "shape": {"type": "mesh", "file": "l_finger.dae"}, "static": true},
      {"name": "b", "shape": {"type": "mesh", "file": "l_finger.dae"}, "static": true,
       "position": [0, 1, 0]},
      {"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "position": [0, 0, 1]}]})",
                               "textured.json", meshes);
  ASSERT_TRUE(sc.model.bodies[0].visual && sc.model.bodies[0].visual->parts[0].texture);
  record(sc, file, 3);
  {
    RunReader reader(file);
    const Model read = reader.model();
    for (int b : {0, 1}) {
      const auto& got = read.bodies[std::size_t(b)].visual;
      const auto& want = sc.model.bodies[std::size_t(b)].visual;
      ASSERT_TRUE(got);
      ASSERT_EQ(got->parts.size(), want->parts.size());
      for (std::size_t k = 0; k < got->parts.size(); ++k) {
        ASSERT_TRUE(got->parts[k].texture);
        ASSERT_EQ(got->parts[k].uv.size(), want->parts[k].uv.size());
        for (std::size_t c = 0; c < got->parts[k].uv.size(); ++c)
          EXPECT_EQ(got->parts[k].uv[c], want->parts[k].uv[c].cast<float>().cast<double>());
        EXPECT_EQ(got->parts[k].texture->name, want->parts[k].texture->name);
        EXPECT_EQ(got->parts[k].texture->encoded, want->parts[k].texture->encoded);
      }
    }
    EXPECT_EQ(read.bodies[0].visual->parts[0].texture, read.bodies[1].visual->parts[0].texture);
  }
  hsize_t bytes = 0;
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d = H5Dopen2(f, "/bodies/visual_textures", H5P_DEFAULT);
  const hid_t space = H5Dget_space(d);
  H5Sget_simple_extent_dims(space, &bytes, nullptr);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
  EXPECT_EQ(bytes, fs::file_size(meshes / "l_finger_color.png"));  // once, not per body
  const fs::path bad = broken_copy(file, "textured_bad.h5", [](hid_t g) {
    const hid_t t = H5Dopen2(g, "/bodies/visual_part_texture", H5P_DEFAULT);
    const std::int32_t wrong[1] = {7};
    const hid_t one = H5Screate_simple(1, std::array<hsize_t, 1>{1}.data(), nullptr);
    H5Dwrite(t, H5T_NATIVE_INT32, one, one, H5P_DEFAULT, wrong);
    H5Sclose(one);
    H5Dclose(t);
  });
  expect_bad(bad, "/bodies/visual_part_texture: texture index 7 out of range");
}

// A block held on a 20 degree slope by its bristles (k_s 1e4 N/m): each frame's contact keeps
// the stretch at the end of its step, which settles at m g sin 20 / k_s down the slope.
TEST(RunFile, VolumetricBristleStretchesAreStoredPerContact) {
  const fs::path file = fresh("bristles.h5");
  const double t = 20.0 * std::numbers::pi / 180.0;
  const std::string gravity = "[" + std::to_string(9.81 * std::sin(t)) + ", 0, " +
                              std::to_string(-9.81 * std::cos(t)) + "]";
  const Scene sc = parse_scene(R"({"bodies": [
      {"name": "slope", "shape": {"type": "plane"}},
      {"name": "block", "shape": {"type": "box", "size": [1, 0.5, 0.5]}, "position": [0, 0, 0.25],
       "mass": 1, "volumetric": {"stick_stiffness": 1e4, "stick_damping": 200}}],
      "settings": {"contact_model": "volumetric", "h": 0.001, "gravity": )" +
                                   gravity + "}}",
                               "bristles.json", ".");
  std::vector<Vec3> stretch;
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 1000; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << k;
      ASSERT_EQ(r.stick_stretch.size(), r.contacts.size());
      stretch.push_back(r.contacts.empty() ? Vec3::Zero() : r.stick_stretch[0]);
    }
    writer.close();
  }
  RunReader reader(file);
  for (std::int64_t k : {10, 500, 1000}) {
    const auto& contacts = reader.frame(k).contacts;
    ASSERT_EQ(contacts.size(), 1u) << k;
    EXPECT_EQ(contacts[0].tangential_deflection, stretch[std::size_t(k - 1)]) << k;
  }
  const Vec3 last = reader.frame(1000).contacts[0].tangential_deflection;
  EXPECT_NEAR(last.x(), 9.81 * std::sin(t) / 1e4, 1e-3 * 9.81 * std::sin(t) / 1e4);
  EXPECT_LE(std::abs(last.y()) + std::abs(last.z()), 1e-12);
}

TEST(RunFile, VolumetricContactsAndLayersAreStoredAndReadBack) {
  const fs::path file = fresh("volumetric.h5");
  const Scene sc = parse_scene(R"({"bodies": [
      {"name": "ground", "shape": {"type": "plane"}, "volumetric": {"stiffness": 4e9}},
      {"name": "cube", "shape": {"type": "box", "size": [1, 1, 1]}, "position": [0, 0, 0.5], "mass": 1,
       "angular_velocity": [0, 0, 3], "volumetric": {"stiffness": 4e9, "damping": 0.25}},
      {"name": "bristly", "shape": {"type": "box", "size": [1, 1, 1]}, "position": [-10, 0, 100],
       "mass": 1, "volumetric": {"stick_stiffness": 1e4, "stick_damping": 200}},
      {"name": "far", "shape": {"type": "box", "size": [1, 1, 1]}, "position": [10, 0, 100], "mass": 1,
       "volumetric": {"spin_speed": 0.5}}],
      "settings": {"contact_model": "volumetric", "h": 0.001}})",
                               "volumetric.json", ".");
  std::vector<double> volumes, torsion;
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 100; ++k) {
      const StepReport& r = sim.step();
      ASSERT_FALSE(r.failed) << k;
      volumes.push_back(r.contacts.empty() ? 0.0 : r.contacts[0].volume);
      torsion.push_back(r.contacts.empty() ? 0.0 : r.torsional_impulse[0]);
    }
    writer.close();
  }
  {
    RunReader reader(file);
    EXPECT_EQ(reader.model().bodies[0].layer.stiffness, 4e9);
    EXPECT_EQ(reader.model().bodies[1].layer.damping, 0.25);
    EXPECT_EQ(reader.model().bodies[3].layer.spin_speed, 0.5);
    EXPECT_EQ(reader.model().bodies[2].layer.stick_stiffness, 1e4);
    EXPECT_EQ(reader.model().bodies[2].layer.stick_damping, 200.0);
    const auto& contacts = reader.frame(100).contacts;
    ASSERT_EQ(contacts.size(), 1u);
    EXPECT_EQ(contacts[0].contact.volume, volumes.back());
    EXPECT_NEAR(contacts[0].contact.volume, 9.81 / 2e9, 1e-3 * 9.81 / 2e9);  // k_v V = m g
    EXPECT_EQ(contacts[0].contact.volume_rate, 1.0);
    // The spinning cube's Coulomb torque, -mu m g r_s over the step (r_s of the unit square).
    EXPECT_EQ(contacts[0].torsional_impulse, torsion.back());
    EXPECT_NEAR(torsion.back(), -0.5 * 9.81 * 0.3825978 * 0.001, 1e-6 * 0.001);
  }
  expect_exact_replay(file);
  const fs::path bad = broken_copy(file, "volumetric_bad.h5", [](hid_t f) {
    const hid_t d = H5Dopen2(f, "/bodies/volumetric_layer", H5P_DEFAULT);
    const double layers[20] = {-1.0, 0.0, 0.0, 0.0, 0.0, 4e9, 0.25, 0.0, 0.0, 0.0,
                               1e9,  0.0, 0.0, 1e4, 200, 1e9, 0.0,  0.5, 0.0, 0.0};
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, layers);
    H5Dclose(d);
  });
  expect_bad(bad, "/bodies/volumetric_layer: expected a stiffness > 0");
  // A file with the two columns of stiffness and damping alone: Coulomb's spin (0), no
  // bristles.
  const fs::path two = broken_copy(file, "volumetric_two_columns.h5", [](hid_t f) {
    H5Ldelete(f, "/bodies/volumetric_layer", H5P_DEFAULT);
    const hsize_t dims[2] = {4, 2};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t d = H5Dcreate2(f, "/bodies/volumetric_layer", H5T_IEEE_F64LE, space, H5P_DEFAULT,
                               H5P_DEFAULT, H5P_DEFAULT);
    const double layers[8] = {4e9, 0.0, 4e9, 0.25, 1e9, 0.0, 1e9, 0.0};
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, layers);
    H5Dclose(d);
    H5Sclose(space);
  });
  const RunReader older(two);
  EXPECT_EQ(older.model().bodies[1].layer.damping, 0.25);
  EXPECT_EQ(older.model().bodies[3].layer.spin_speed, 0.0);
  EXPECT_EQ(older.model().bodies[2].layer.stick_stiffness, 0.0);
}

// A quasi-rigid shell (scene field shell) is stored in /bodies/shell (K_nn, C_nn, max
// deflection) and /bodies/shell_matrices (K and C) and read back, each contact's tangential
// deflection with it; the torsion radius in /bodies/torsion_radius; a file without the shell
// has rigid bodies, and a negative stiffness is refused by name.
TEST(RunFile, QuasiRigidShellsAreStoredAndReadBack) {
  const fs::path file = fresh("shell.h5");
  const Scene sc = parse_scene(R"({"dimension": 2, "bodies": [
      {"name": "ground", "shape": {"type": "half_plane"},
       "shell": {"stiffness": [[1000, 50], [50, 400]], "damping": [[2, 0], [0, 1]],
                 "max_deflection": 0.05}},
      {"name": "disc", "shape": {"type": "circle", "radius": 1}, "position": [0, 1.2],
       "velocity": [0.5, 0], "torsion_radius": 0.25,
       "support_friction": {"mu": 0.2, "torsion_radius": 0.1, "gravity": 5}}],
      "settings": {"formulation": "geometrically-implicit", "h": 0.001}})",
                               "shell.json", ".");
  {
    Simulator sim(sc.model, sc.initial, sc.settings);
    RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 300; ++k) ASSERT_FALSE(sim.step().failed) << k;
    writer.close();
  }
  {
    RunReader reader(file);
    const Model model = reader.model();
    const QuasiRigidShell& s = model.bodies[0].shell;
    Mat3 k = Mat3::Zero(), c = Mat3::Zero();
    k.topLeftCorner<2, 2>() << 1000, 50, 50, 400;
    c.topLeftCorner<2, 2>() << 2, 0, 0, 1;
    EXPECT_EQ(s.stiffness, k);
    EXPECT_EQ(s.damping, c);
    EXPECT_EQ(s.max_deflection, 0.05);
    double shear = 0.0;  // the disc slides on the shell: friction deflects it along x
    for (const RecordedContact& rc : reader.frame(300).contacts)
      shear = std::max(shear, std::abs(rc.tangential_deflection.x()));
    EXPECT_GT(shear, 1e-4);
    EXPECT_FALSE(model.bodies[1].shell.compliant());
    EXPECT_EQ(model.bodies[1].shell.max_deflection, std::numeric_limits<double>::infinity());
    EXPECT_EQ(model.bodies[1].torsion_radius, 0.25);
    EXPECT_EQ(model.bodies[0].torsion_radius, 0.0);
    EXPECT_EQ(model.bodies[1].support.mu, 0.2);
    EXPECT_EQ(model.bodies[1].support.torsion_radius, 0.1);
    EXPECT_EQ(model.bodies[1].support.gravity, 5.0);
    EXPECT_FALSE(model.bodies[0].support.active());
  }
  expect_exact_replay(file);
  // A friction ellipse (3D) in /bodies/friction_ellipse, isotropic where absent.
  const fs::path skate = fresh("ellipse.h5");
  const Scene sk = parse_scene(R"({"bodies": [
      {"name": "ground", "shape": {"type": "plane"}},
      {"name": "skate", "shape": {"type": "cube", "edge": 0.2}, "position": [0, 0, 0.1],
       "velocity": [1, 1, 0], "friction_ellipse": {"axis": [2, 0, 0], "e_o": 0.25}}],
      "settings": {"formulation": "geometrically-implicit"}})",
                               "ellipse.json", ".");
  {
    Simulator sim(sk.model, sk.initial, sk.settings);
    RunWriter writer(skate, make_run_header(sk, sim.model(), sim.settings(), "test"), sim.state());
    sim.add_observer(&writer);
    for (int k = 0; k < 20; ++k) ASSERT_FALSE(sim.step().failed) << k;
    writer.close();
  }
  const Model skated = RunReader(skate).model();
  EXPECT_EQ(skated.bodies[1].friction_ellipse.axis, Vec3::UnitX());
  EXPECT_EQ(skated.bodies[1].friction_ellipse.e_t, 1.0);
  EXPECT_EQ(skated.bodies[1].friction_ellipse.e_o, 0.25);
  EXPECT_FALSE(skated.bodies[0].friction_ellipse.anisotropic());
  expect_exact_replay(skate);
  const fs::path isotropic = broken_copy(skate, "ellipse_old.h5", [](hid_t f) {
    H5Ldelete(f, "/bodies/friction_ellipse", H5P_DEFAULT);
  });
  EXPECT_FALSE(RunReader(isotropic).model().bodies[1].friction_ellipse.anisotropic());
  const fs::path old = broken_copy(file, "shell_old.h5", [](hid_t f) {
    H5Ldelete(f, "/bodies/shell", H5P_DEFAULT);
    H5Ldelete(f, "/bodies/shell_matrices", H5P_DEFAULT);
  });
  EXPECT_FALSE(RunReader(old).model().bodies[0].shell.compliant());
  const fs::path bad = broken_copy(file, "shell_bad.h5", [](hid_t f) {
    const double rows[6] = {-1.0, 0.0, 1.0, 0.0, 0.0, 1.0};
    const hid_t d = H5Dopen2(f, "/bodies/shell", H5P_DEFAULT);
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows);
    H5Dclose(d);
  });
  try {
    RunReader reader(bad);
    ADD_FAILURE() << "a negative stiffness was read";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/bodies/shell"), std::string::npos) << e.what();
  }
}

}  // namespace
