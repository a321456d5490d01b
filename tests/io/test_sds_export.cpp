// Simulation Data Standard export (docs/sds.md), read back with the HDF5 C API: Table 8.1's
// groups, field names and sizes, quaternions real part first, and the recorded problems.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>

#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "io/run_header.hpp"
#include "io/run_reader.hpp"
#include "io/run_writer.hpp"
#include "io/scene.hpp"
#include "io/sds_writer.hpp"

namespace {

using namespace pegsim;
namespace fs = std::filesystem;

fs::path fresh(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("pegsim-sds-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  fs::remove(d / name);
  return d / name;
}

void record(const fs::path& file, int steps, bool problems) {
  Scene sc = load_scene(fs::path(PEGSIM_SOURCE_DIR) / "scenes" / "cascading_polyhedra.json");
  Simulator sim(sc.model, sc.initial, sc.settings);
  RunWriterOptions o;
  o.record_problems = problems;
  RunWriter writer(file, make_run_header(sc, sim.model(), sim.settings(), "test"), sim.state(), o);
  sim.add_observer(&writer);
  for (int k = 0; k < steps; ++k) {
    // A small push on the tetrahedron every other step: its wrench is part of bodies/forces.
    if (k % 2 == 0) sim.apply_wrench(2, Vec3(0.5, 0.0, 0.1 * k), Vec3(0.0, 0.01, 0.0));
    sim.step();
  }
  writer.close();
}

// The dimensions of dataset `path` (relative to `group`), empty if it is missing.
std::vector<hsize_t> dims(hid_t group, const std::string& path) {
  if (H5Lexists(group, path.substr(0, path.find('/')).c_str(), H5P_DEFAULT) <= 0 ||
      H5Lexists(group, path.c_str(), H5P_DEFAULT) <= 0)
    return {};
  const hid_t d = H5Dopen2(group, path.c_str(), H5P_DEFAULT);
  const hid_t s = H5Dget_space(d);
  std::vector<hsize_t> out(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
  H5Sget_simple_extent_dims(s, out.data(), nullptr);
  H5Sclose(s);
  H5Dclose(d);
  return out;
}

std::vector<double> doubles(hid_t group, const std::string& path) {
  std::size_t n = 1;
  for (hsize_t d : dims(group, path)) n *= d;
  std::vector<double> out(n);
  const hid_t d = H5Dopen2(group, path.c_str(), H5P_DEFAULT);
  if (n > 0) H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
  H5Dclose(d);
  return out;
}

using Shape = std::vector<hsize_t>;

TEST(SdsExport, Table81GroupsFieldsAndSizes) {
  const fs::path run = fresh("run.h5"), out = fresh("sds.h5");
  record(run, 80, true);
  RunReader reader(run);
  const SdsExport e = export_sds(reader, out, false);
  EXPECT_EQ(e.frames, 80);
  EXPECT_GT(e.problems, 20);

  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  const hsize_t nb = reader.header().bodies.size();
  int checked_problems = 0;
  for (std::int64_t k = 1; k <= 80; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "mbs_frame%06lld", static_cast<long long>(k));
    ASSERT_GT(H5Lexists(f, name, H5P_DEFAULT), 0) << name;
    const hid_t g = H5Gopen2(f, name, H5P_DEFAULT);
    const RunFrame before = reader.frame(k - 1), after = reader.frame(k);
    hsize_t nc = 0;
    for (const RecordedContact& c : after.contacts) nc += c.enforced;
    EXPECT_EQ(dims(g, "step"), (Shape{1, 1}));
    EXPECT_EQ(doubles(g, "step")[0], reader.header().settings.h);
    EXPECT_EQ(dims(g, "bodies/ids"), (Shape{nb, 1}));
    EXPECT_EQ(dims(g, "bodies/masses"), (Shape{nb, 1}));
    EXPECT_EQ(dims(g, "bodies/forces"), (Shape{6 * nb, 1}));
    EXPECT_EQ(dims(g, "bodies/inertia"), (Shape{3 * nb, 3}));
    EXPECT_EQ(dims(g, "bodies/positions"), (Shape{3 * nb, 1}));
    EXPECT_EQ(dims(g, "bodies/quaternion"), (Shape{4 * nb, 1}));
    EXPECT_EQ(dims(g, "bodies/velocities"), (Shape{6 * nb, 1}));
    EXPECT_EQ(dims(g, "joints/violations"), (Shape{0, 1}));
    EXPECT_EQ(dims(g, "joints/jacobians"), (Shape{0, 3}));
    EXPECT_EQ(dims(g, "joints/pairs"), (Shape{0, 2}));
    EXPECT_EQ(dims(g, "joints/bounds"), (Shape{0, 2}));
    EXPECT_EQ(dims(g, "joints/rows"), (Shape{0, 3}));
    EXPECT_EQ(dims(g, "contacts/gap"), (Shape{nc, 1}));
    EXPECT_EQ(dims(g, "contacts/pairs"), (Shape{nc, 2}));
    EXPECT_EQ(dims(g, "contacts/mu"), (Shape{nc, 2}));
    EXPECT_EQ(dims(g, "contacts/normals"), (Shape{nc, 3}));
    EXPECT_EQ(dims(g, "contacts/points"), (Shape{nc, 3}));
    EXPECT_EQ(dims(g, "solutions/iterations"), (Shape{1, 1}));
    EXPECT_EQ(dims(g, "solutions/stick_or_slide"), (Shape{nc, 1}));
    for (const char* field : {"solutions/solution", "solutions/total_error",
                              "solutions/normal_error", "solutions/friction_error"})
      EXPECT_EQ(dims(g, field).size(), 2u) << field;

    // Bodies as at the start of the step; the quaternion's real part first.
    const std::vector<double> q = doubles(g, "bodies/quaternion");
    const std::vector<double> x = doubles(g, "bodies/positions");
    for (hsize_t b = 0; b < nb; ++b) {
      const Quat& want = before.bodies[b].orientation;
      EXPECT_EQ(q[4 * b + 0], want.w()) << name << " body " << b;
      EXPECT_EQ(q[4 * b + 1], want.x());
      EXPECT_EQ(q[4 * b + 2], want.y());
      EXPECT_EQ(q[4 * b + 3], want.z());
      EXPECT_EQ(x[3 * b + 2], before.bodies[b].position.z());
    }
    // Applied forces: m g plus the step's recorded wrench (frame k), 0 for static bodies.
    const std::vector<double> forces = doubles(g, "bodies/forces");
    for (hsize_t b = 0; b < nb; ++b) {
      const RunBody& body = reader.header().bodies[b];
      const Vec3 f =
          body.is_static
              ? Vec3::Zero()
              : Vec3(body.mass * reader.header().settings.gravity + after.bodies[b].force);
      const Vec3 t = body.is_static ? Vec3::Zero() : after.bodies[b].torque;
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(forces[6 * b + i], f[i]) << name << " body " << b;
        EXPECT_EQ(forces[6 * b + 3 + i], t[i]) << name << " body " << b;
      }
    }
    if (k % 2 == 1) {
      EXPECT_NE(after.bodies[2].force, Vec3::Zero()) << name;
    }
    const RecordedProblem p = reader.problem(k);
    const std::vector<double> z = doubles(g, "solutions/solution");
    ASSERT_EQ(z.size(), static_cast<std::size_t>(p.z.size())) << name;
    for (std::size_t i = 0; i < z.size(); ++i) EXPECT_EQ(z[i], p.z[static_cast<Eigen::Index>(i)]);
    if (p.lcp.size() > 0) {
      ++checked_problems;
      const std::vector<double> M = doubles(g, "solutions/M");  // row-major
      const int n = p.lcp.size();
      ASSERT_EQ(M.size(), static_cast<std::size_t>(n * n));
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) ASSERT_EQ(M[r * n + c], m_entry(p.lcp, r, c)) << name;
    }
    H5Gclose(g);
  }
  // Orientations really vary (the test above would not notice a swap on identity rotations).
  const RunFrame last = reader.frame(80);
  bool rotated = false;
  for (const BodyState& b : last.bodies) rotated |= std::abs(b.orientation.w()) < 0.999;
  EXPECT_TRUE(rotated);
  EXPECT_GT(checked_problems, 20);
  H5Fclose(f);
}

TEST(SdsExport, FramesWithoutProblemsKeepBodiesAndContacts) {
  const fs::path run = fresh("plain.h5"), out = fresh("plain-sds.h5");
  record(run, 30, false);
  const SdsExport e = export_sds(RunReader(run), out, false);
  EXPECT_EQ(e.frames, 30);
  EXPECT_EQ(e.problems, 0);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t g = H5Gopen2(f, "mbs_frame000030", H5P_DEFAULT);
  ASSERT_GE(g, 0);
  EXPECT_EQ(dims(g, "bodies/quaternion").at(0), 4 * RunReader(run).header().bodies.size());
  EXPECT_EQ(dims(g, "contacts/normals").size(), 2u);
  EXPECT_EQ(dims(g, "solutions/solution"), (Shape{0, 1}));
  H5Gclose(g);
  H5Fclose(f);
}

TEST(SdsExport, NeverReplacesAFileWithoutOverwrite) {
  const fs::path run = fresh("small.h5"), out = fresh("taken.h5");
  record(run, 3, false);
  {
    std::FILE* f = std::fopen(out.c_str(), "w");
    std::fputs("keep", f);
    std::fclose(f);
  }
  try {
    export_sds(RunReader(run), out, false);
    FAIL() << "expected RunFileError";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find(out.string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(fs::file_size(out), 4u);
  EXPECT_EQ(export_sds(RunReader(run), out, true).frames, 3);
}

}  // namespace
