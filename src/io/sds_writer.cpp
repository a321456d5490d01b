#include "io/sds_writer.hpp"

#include <algorithm>
#include <cmath>

#include "engine/solvers/lcp_matrix.hpp"
#include "io/hdf5_io.hpp"
#include "io/sds_layout.hpp"

namespace pegsim {
namespace {

namespace S = sds_layout;

// A [rows, cols] dataset (Table 8.1 gives every field as a matrix, vectors as n x 1).
void matrix(hid_t group, const char* name, hid_t memory, hid_t file_type, hsize_t rows,
            hsize_t cols, const void* data) {
  h5::write_dataset(group, name, memory, file_type, {rows, cols}, data);
}
void doubles(hid_t g, const char* name, const std::vector<double>& v, hsize_t cols) {
  matrix(g, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, v.size() / cols, cols, v.data());
}
void ints(hid_t g, const char* name, const std::vector<std::int32_t>& v, hsize_t cols) {
  matrix(g, name, H5T_NATIVE_INT32, H5T_STD_I32LE, v.size() / cols, cols, v.data());
}

// M is dense n x n: chunked by whole rows and deflated, since it is mostly zeros.
void dense_matrix(hid_t g, const char* name, const MatX& M) {
  const hsize_t n = static_cast<hsize_t>(M.rows());
  if (n == 0) return doubles(g, name, {}, 1);
  const hsize_t dims[2] = {n, n};
  const hsize_t chunk[2] = {std::min<hsize_t>(n, std::max<hsize_t>(1, 8192 / n)), n};
  h5::Handle space = h5::space(H5Screate_simple(2, dims, nullptr));
  h5::Handle plist = h5::plist(H5Pcreate(H5P_DATASET_CREATE));
  H5Pset_chunk(plist.get(), 2, chunk);
  H5Pset_shuffle(plist.get());
  H5Pset_deflate(plist.get(), 4);
  h5::Handle d = h5::dataset(
      H5Dcreate2(g, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT));
  if (!d) throw h5::Failure(std::string("cannot create ") + name + " (" + h5::last_error() + ")");
  const MatX row_major = M.transpose();  // HDF5 is row-major, Eigen column-major
  if (H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, row_major.data()) < 0)
    throw h5::Failure(std::string("cannot write ") + name + " (" + h5::last_error() + ")");
}

h5::Handle make_group(hid_t parent, const std::string& name) {
  h5::Handle g = h5::group(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (!g) throw h5::Failure("cannot create group " + name + " (" + h5::last_error() + ")");
  return g;
}

// The natural-map residual ||min(z, w)||_inf over the rows that `take` selects.
template <typename Take>
double residual_of(const RecordedProblem& p, Take take) {
  VecX w;
  multiply_m(p.lcp, p.z, w);
  w += p.lcp.q;
  double r = 0.0;
  for (int i = 0; i < p.lcp.size(); ++i)
    if (take(i)) r = std::max(r, std::abs(std::min(p.z[i], w[i])));
  return r;
}

class Writer {
 public:
  Writer(const RunReader& reader, hid_t file) : reader_(reader), file_(file) {}
  // Step k: bodies as at its start (frame k - 1), its contacts, solver report and problem.
  bool frame(const RunFrame& before, const RunFrame& after);

 private:
  void bodies(hid_t frame, const RunFrame& before, const RunFrame& after);
  std::vector<int> contacts(hid_t frame, const RunFrame& before, const RunFrame& after);
  bool solutions(hid_t frame, const RunFrame& after, const std::vector<int>& enforced);

  const RunReader& reader_;
  hid_t file_;
};

void Writer::bodies(hid_t frame, const RunFrame& before, const RunFrame& after) {
  const RunHeader& h = reader_.header();
  const std::size_t nb = h.bodies.size();
  std::vector<std::int32_t> ids(nb);
  std::vector<double> masses(nb), forces, inertia, positions, quaternion, velocities;
  std::vector<std::int64_t> fixed;
  for (std::size_t b = 0; b < nb; ++b) {
    const RunBody& body = h.bodies[b];
    const BodyState& s = before.bodies[b];
    ids[b] = static_cast<std::int32_t>(b);
    masses[b] = body.mass;
    // Gravity (with the step's settings) plus the external wrench the step applied.
    const Settings& settings = reader_.settings(after.index);
    const BodyState& applied = after.bodies[b];
    const Vec3 f =
        body.is_static ? Vec3::Zero() : Vec3(body.mass * settings.gravity + applied.force);
    const Vec3 t = body.is_static ? Vec3::Zero() : applied.torque;
    forces.insert(forces.end(), {f.x(), f.y(), f.z(), t.x(), t.y(), t.z()});
    // World-frame inertia at this pose, what the step's dynamics used.
    const Mat3 R = s.orientation.toRotationMatrix();
    const Mat3 I = R * body.inertia * R.transpose();
    for (int r = 0; r < 3; ++r) inertia.insert(inertia.end(), {I(r, 0), I(r, 1), I(r, 2)});
    positions.insert(positions.end(), {s.position.x(), s.position.y(), s.position.z()});
    const Quat& q = s.orientation;
    quaternion.insert(quaternion.end(), {q.w(), q.x(), q.y(), q.z()});  // real part first
    velocities.insert(velocities.end(),
                      {s.velocity.x(), s.velocity.y(), s.velocity.z(), s.angular_velocity.x(),
                       s.angular_velocity.y(), s.angular_velocity.z()});
  }
  h5::Handle g = make_group(frame, "bodies");
  ints(g.get(), "ids", ids, 1);
  doubles(g.get(), "masses", masses, 1);
  doubles(g.get(), "forces", forces, 1);
  doubles(g.get(), "inertia", inertia, 3);
  doubles(g.get(), "positions", positions, 1);
  doubles(g.get(), "quaternion", quaternion, 1);
  doubles(g.get(), "velocities", velocities, 1);
  std::vector<std::string> names;
  for (const RunBody& b : h.bodies) names.push_back(b.name);
  h5::write_attribute(g.get(), "names", names);
  std::vector<double> is_static;
  for (const RunBody& b : h.bodies) is_static.push_back(b.is_static ? 1.0 : 0.0);
  h5::write_attribute(g.get(), "static", is_static);
}

// The enforced contacts, in the order of the problem's blocks; returns their indices.
std::vector<int> Writer::contacts(hid_t frame, const RunFrame& before, const RunFrame& after) {
  const RunHeader& h = reader_.header();
  std::vector<int> enforced;
  std::vector<double> gap, mu, normals, points;
  std::vector<std::int32_t> pairs;
  for (std::size_t i = 0; i < after.contacts.size(); ++i) {
    const RecordedContact& rc = after.contacts[i];
    if (!rc.enforced) continue;
    const Contact& c = rc.contact;
    enforced.push_back(static_cast<int>(i));
    gap.push_back(c.gap);
    pairs.insert(pairs.end(), {c.body_a, c.body_b});
    const double m = std::sqrt(h.bodies.at(c.body_a).mu * h.bodies.at(c.body_b).mu);
    mu.insert(mu.end(), {m, m});  // isotropic Coulomb friction: both columns equal
    normals.insert(normals.end(), {c.normal.x(), c.normal.y(), c.normal.z()});
    const Vec3 r = c.point_a - before.bodies.at(c.body_a).position;  // from A's centre of mass
    points.insert(points.end(), {r.x(), r.y(), r.z()});
  }
  h5::Handle g = make_group(frame, "contacts");
  doubles(g.get(), "gap", gap, 1);
  ints(g.get(), "pairs", pairs, 2);
  doubles(g.get(), "mu", mu, 2);
  doubles(g.get(), "normals", normals, 3);
  doubles(g.get(), "points", points, 3);
  return enforced;
}

bool Writer::solutions(hid_t frame, const RunFrame& after, const std::vector<int>& enforced) {
  h5::Handle g = make_group(frame, "solutions");
  const RecordedSolve& s = after.solve;
  const std::vector<std::int32_t> iterations{s.status ? s.iterations : 0};
  ints(g.get(), "iterations", iterations, 1);
  std::vector<double> history;
  if (s.answer >= 0 && static_cast<std::size_t>(s.answer) < s.attempts.size())
    history = s.attempts[s.answer].residual_history;
  doubles(g.get(), "total_error", history, 1);
  std::vector<std::int32_t> state;
  for (int i : enforced) state.push_back(after.contacts[i].sliding ? 1 : 0);
  ints(g.get(), "stick_or_slide", state, 1);
  h5::write_attribute(g.get(), "status", s.status ? std::string(to_string(*s.status)) : "none");
  h5::write_attribute(g.get(), "solver", s.solver);

  RecordedProblem p;
  if (reader_.has_problems()) p = reader_.problem(after.index);
  const int n = p.lcp.size();
  doubles(g.get(), "solution", std::vector<double>(p.z.data(), p.z.data() + n), 1);
  // Final errors only: the solver's history is not split by row kind. The first row of each
  // block is the contact's normal impulse, the others its friction rows.
  std::vector<double> normal_error, friction_error;
  if (n > 0 && !p.lcp.block_starts.empty()) {
    const auto& starts = p.lcp.block_starts;
    auto is_normal = [&](int i) { return std::binary_search(starts.begin(), starts.end(), i); };
    normal_error.push_back(residual_of(p, is_normal));
    friction_error.push_back(residual_of(p, [&](int i) { return !is_normal(i); }));
  }
  doubles(g.get(), "normal_error", normal_error, 1);
  doubles(g.get(), "friction_error", friction_error, 1);
  Lcp dense;  // the dataset is dense n x n (the format)
  dense_matrix(g.get(), "M", with_dense_m(p.lcp, dense).M);
  doubles(g.get(), "q", std::vector<double>(p.lcp.q.data(), p.lcp.q.data() + n), 1);
  ints(g.get(), "blocks",
       std::vector<std::int32_t>(p.lcp.block_starts.begin(), p.lcp.block_starts.end()), 1);
  h5::write_attribute(g.get(), "free_rows", static_cast<std::int64_t>(p.free_rows));
  h5::write_attribute(g.get(), "problem_recorded", static_cast<std::int64_t>(n > 0));
  return n > 0;
}

bool Writer::frame(const RunFrame& before, const RunFrame& after) {
  h5::Handle g = make_group(file_, S::frame_group(after.index));
  const double h = reader_.settings(after.index).h;  // the step's own (it may change)
  doubles(g.get(), S::kStep, {h}, 1);
  h5::write_attribute(g.get(), "time", std::vector<double>{after.time});
  bodies(g.get(), before, after);
  h5::Handle joints = make_group(g.get(), "joints");  // no joints yet: every field has 0 rows
  doubles(joints.get(), "violations", {}, 1);
  doubles(joints.get(), "jacobians", {}, 3);
  ints(joints.get(), "pairs", {}, 2);
  doubles(joints.get(), "bounds", {}, 2);
  ints(joints.get(), "rows", {}, 3);
  const std::vector<int> enforced = contacts(g.get(), before, after);
  return solutions(g.get(), after, enforced);
}

constexpr std::int64_t kBlock = 256;  // frames read at once

}  // namespace

SdsExport export_sds(const RunReader& reader, const std::filesystem::path& out, bool overwrite) {
  h5::silence_errors();
  auto fail = [&](const std::string& what) { return RunFileError(out.string() + ": " + what); };
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(out, ec))
    throw fail("exists; not overwriting it (use --force)");
  h5::Handle file = h5::file(
      H5Fcreate(out.c_str(), overwrite ? H5F_ACC_TRUNC : H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT));
  if (!file) throw fail("cannot be created (" + h5::last_error() + ")");
  SdsExport result;
  try {
    const RunHeader& h = reader.header();
    h5::write_attribute(file.get(), "format", std::string(S::kFormatName));
    h5::write_attribute(file.get(), "program", std::string("pegsim-cli export --sds"));
    h5::write_attribute(file.get(), "source", reader.file().string());
    h5::write_attribute(file.get(), "scene_name", h.scene_name);
    h5::write_attribute(file.get(), "tolerance", std::vector<double>{h.settings.tolerance});
    h5::write_attribute(file.get(), "max_iterations",
                        static_cast<std::int64_t>(h.settings.max_iterations));
    h5::write_attribute(file.get(), "friction_directions",
                        static_cast<std::int64_t>(h.settings.friction_directions));
    Writer writer(reader, file.get());
    // Frame k >= 1 is step k; frame 0 (the initial state) has no step of its own.
    for (std::int64_t first = 0; first + 1 < reader.frame_count(); first += kBlock) {
      const std::int64_t n = std::min(kBlock + 1, reader.frame_count() - first);
      const std::vector<RunFrame> frames = reader.frames(first, n);
      for (std::int64_t i = 1; i < n; ++i) {
        result.problems += writer.frame(frames[i - 1], frames[i]) ? 1 : 0;
        ++result.frames;
      }
    }
    file.reset();
  } catch (const h5::Failure& e) {
    file.reset();
    std::filesystem::remove(out, ec);
    throw fail(e.what());
  } catch (...) {
    file.reset();
    std::filesystem::remove(out, ec);
    throw;
  }
  return result;
}

}  // namespace pegsim
