#include "io/run_reader.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "io/hdf5_io.hpp"
#include "io/hdf5_superblock.hpp"
#include "io/run_contact_row.hpp"
#include "io/run_header.hpp"
#include "io/run_header_io.hpp"
#include "io/run_layout.hpp"
#include "io/run_settings_row.hpp"

namespace pegsim {
namespace {

namespace L = run_layout;

// Metadata read attempts under SWMR read (HDF5's default: 100, with growing sleeps between
// them): enough to ride over a read that races the writer, few enough that a file whose
// metadata is damaged is refused within about a second.
constexpr unsigned kSwmrMetadataReadAttempts = 8;

struct Column {
  h5::Handle dataset;
  const char* name = "";
  std::vector<hsize_t> inner;
  hsize_t rows = 0;
};

// Every field of `memory` must exist in the stored compound type (it is converted by name).
void check_fields(hid_t dataset, hid_t memory, const char* name) {
  h5::Handle stored = h5::type(H5Dget_type(dataset));
  if (H5Tget_class(stored.get()) != H5T_COMPOUND)
    throw h5::Failure(std::string(name) + ": expected a compound dataset");
  const int n = H5Tget_nmembers(memory);
  for (int i = 0; i < n; ++i) {
    char* field = H5Tget_member_name(memory, static_cast<unsigned>(i));
    const bool found = H5Tget_member_index(stored.get(), field) >= 0;
    const std::string text = field;
    H5free_memory(field);
    if (!found) {
      H5Eclear2(H5E_DEFAULT);
      throw h5::Failure(std::string(name) + ": missing field " + text);
    }
  }
}

bool has_member(hid_t dataset, const char* field) {
  h5::Handle stored = h5::type(H5Dget_type(dataset));
  const bool found = H5Tget_member_index(stored.get(), field) >= 0;
  H5Eclear2(H5E_DEFAULT);
  return found;
}

bool exists(hid_t file, const char* name) {
  const bool found = H5Lexists(file, name, H5P_DEFAULT) > 0;
  H5Eclear2(H5E_DEFAULT);
  return found;
}

SolveStatus to_status(std::int8_t s) {
  return s >= 0 && s <= static_cast<int>(SolveStatus::TimeBudget) ? static_cast<SolveStatus>(s)
                                                                  : SolveStatus::NumericalFailure;
}

}  // namespace

struct RunReader::Impl {
  std::filesystem::path path;
  RunHeader header;
  std::int64_t frame_count = 0;
  std::size_t bodies = 0;
  mutable std::vector<double> times;
  mutable std::once_flag times_once;

  h5::Handle file;
  h5::Handle contact_type = L::contact_type();
  h5::Handle solver_type = L::solver_type();
  h5::Handle attempt_type = L::attempt_type();
  h5::Handle entry_type = L::entry_type();
  // Contact rows written before duplicate_of, compound parts or a friction basis that follows
  // the motion lack those fields.
  ContactRowFields contact_fields;
  bool has_wrenches = false;  // /frames/force and /frames/torque (absent in older files)
  bool has_groups = false;    // the constraint groups (absent in older files)
  h5::Handle group_type = L::group_type();
  Column group_offset, groups, member_offset, members;
  Column force, torque;
  std::vector<SettingsChange> settings_changes;
  Column time, step, pose, twist, solver, contact_offset, contacts, attempt_offset, attempts,
      history_offset, history;
  bool has_sm_traps = false;
  h5::Handle sm_trap_type = L::sm_trap_type();
  Column sm_trap_offset, sm_traps, sm_trap_member_offset, sm_trap_members;
  bool has_problems = false;
  Column problem_offset, problem_q, problem_z, problem_free_rows, entry_offset, entries,
      block_offset, block_starts;

  std::string where(const std::string& what) const { return path.string() + ": " + what; }
  void open();
  void open_file();
  h5::Handle open_frames_group();
  void open_columns();
  hsize_t rows_in_every_column() const;
  bool frame_complete(hsize_t n) const;
  void check_closed_frame_count(hid_t frames);
  void open_column(Column& c, const char* name, std::vector<hsize_t> inner) {
    c.name = name;
    c.inner = inner;
    c.dataset = h5::open_dataset(file.get(), name);
    const std::vector<hsize_t> d =
        h5::dims(c.dataset.get(), static_cast<int>(inner.size()) + 1, name);
    for (std::size_t i = 0; i < inner.size(); ++i)
      if (d[i + 1] != inner[i])
        throw h5::Failure(std::string(name) + ": dimension " + std::to_string(i + 1) + " is " +
                          std::to_string(d[i + 1]) + ", expected " + std::to_string(inner[i]));
    c.rows = d[0];
  }
  template <typename T>
  std::vector<T> rows(const Column& c, hid_t type, std::int64_t first, std::int64_t count) const {
    // Checked before anything is allocated, in unsigned arithmetic that cannot wrap: both
    // are at most the stored rows.
    if (first < 0 || count < 0 || static_cast<hsize_t>(first) > c.rows ||
        static_cast<hsize_t>(count) > c.rows - static_cast<hsize_t>(first))
      throw h5::Failure(std::string(c.name) + ": rows " + std::to_string(first) + " + " +
                        std::to_string(count) + " outside the " + std::to_string(c.rows) +
                        " stored (truncated file?)");
    std::size_t per_row = 1;
    for (hsize_t n : c.inner) per_row *= n;
    std::vector<T> out(static_cast<std::size_t>(count) * per_row);
    h5::read_rows(c.dataset.get(), type, static_cast<hsize_t>(first), static_cast<hsize_t>(count),
                  c.inner, out.data(), c.name);
    return out;
  }
  // count + 1 offsets from `first`, non-decreasing and within the rows of `target`.
  std::vector<std::int64_t> offsets(const Column& table, std::int64_t first, std::int64_t count,
                                    const Column& target) const {
    std::vector<std::int64_t> o = rows<std::int64_t>(table, H5T_NATIVE_INT64, first, count + 1);
    for (std::size_t i = 0; i < o.size(); ++i)
      if (o[i] < 0 || (i > 0 && o[i] < o[i - 1]) || static_cast<hsize_t>(o[i]) > target.rows)
        throw h5::Failure(std::string(table.name) + ": entry " + std::to_string(first + i) +
                          " is not a non-decreasing offset within the " +
                          std::to_string(target.rows) + " rows of " + target.name);
    return o;
  }
  std::string solver_name(std::int8_t index) const {
    return index >= 0 && static_cast<std::size_t>(index) < header.solver_names.size()
               ? header.solver_names[index]
               : std::string();
  }
  RecordedSolve to_solve(const L::SolverRow& row) const;
  void read_groups(const std::vector<std::int64_t>& go, const std::vector<L::GroupRow>& gr,
                   const std::vector<std::int64_t>& mo, const std::vector<std::int32_t>& mr,
                   std::int64_t f, RunFrame& fr) const;
  void open_problems();
  void open_sm_traps();
  bool sm_traps_complete(hsize_t frames) const;
  void read_sm_traps(std::int64_t first, std::int64_t count, std::vector<RunFrame>& out) const;
  void read_settings_log();
  bool problems_complete(hsize_t frames) const;
  RecordedProblem problem(std::int64_t k) const;
  std::vector<RunFrame> read(std::int64_t first, std::int64_t count) const;
  std::vector<State> states_in(std::int64_t first, std::int64_t count) const;  // no range check
};

void RunReader::Impl::open() {
  open_file();
  try {
    header = read_run_header(file.get());
    bodies = header.bodies.size();
    const h5::Handle frames = open_frames_group();
    open_columns();
    // A killed writer may leave datasets of different lengths: a frame counts once every
    // dataset holds it, rows its offsets point at included.
    hsize_t n = rows_in_every_column();
    while (n > 0 && !frame_complete(n)) --n;
    frame_count = static_cast<std::int64_t>(n);
    check_closed_frame_count(frames.get());
    read_settings_log();
  } catch (const h5::Failure& e) {
    throw RunFileError(where(e.what()));
  }
}

// The file as HDF5, read-only, or a RunFileError that says why not.
void RunReader::Impl::open_file() {
  h5::silence_errors();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw RunFileError(where("does not exist"));
  if (std::filesystem::is_directory(path, ec))
    throw RunFileError(where("is a folder, expected a run file"));
  const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
  h5::last_error();
  if (is_hdf5 == 0) throw RunFileError(where("not an HDF5 file (expected a pegsim run file)"));
  if (is_hdf5 < 0) throw RunFileError(where("cannot be read"));
  if (const std::string defect = h5::superblock_defect(path); !defect.empty())
    throw RunFileError(where("damaged HDF5 file: " + defect));
  // The plain mode first: it opens every closed file and refuses a damaged one at once. SWMR
  // read only where that fails, for a file whose writer is still running or was killed (its
  // superblock still says so). Under SWMR, HDF5 retries a metadata read whose checksum fails
  // (a concurrent write may be under way) with growing sleeps, by default 100 times: for one
  // damaged byte that is minutes, so the attempts are bounded.
  const h5::Handle access = h5::plist(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_metadata_read_attempts(access.get(), kSwmrMetadataReadAttempts);
  file = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()));
  if (!file) {
    h5::last_error();
    file = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, access.get()));
  }
  if (!file) {
    const std::string why = h5::last_error();
    throw RunFileError(where("cannot be opened as HDF5, the file is truncated or damaged" +
                             (why.empty() ? std::string() : " (" + why + ")")));
  }
}

// /frames, with the solver names and a body count that must match /bodies.
h5::Handle RunReader::Impl::open_frames_group() {
  h5::Handle frames = h5::group(H5Gopen2(file.get(), "/frames", H5P_DEFAULT));
  if (!frames) {
    h5::last_error();
    throw h5::Failure("missing group /frames");
  }
  header.solver_names = h5::read_strings_attribute(frames.get(), "solver_names");
  const std::int64_t count = h5::read_int_attribute(frames.get(), "body_count");
  if (count != static_cast<std::int64_t>(bodies))
    throw h5::Failure("/frames body_count is " + std::to_string(count) + ", /bodies holds " +
                      std::to_string(bodies));
  return frames;
}

// Every per-frame dataset, its shape and its row type checked; the optional ones (wrenches,
// constraint groups, SM traps, problems) where the file has them.
void RunReader::Impl::open_columns() {
  const hsize_t b = bodies;
  open_column(time, L::kTime, {});
  open_column(step, L::kStep, {});
  open_column(pose, L::kPose, {b, 7});
  open_column(twist, L::kTwist, {b, 6});
  open_column(solver, L::kSolver, {});
  check_fields(solver.dataset.get(), solver_type.get(), L::kSolver);
  open_column(contact_offset, L::kContactOffset, {});
  open_column(contacts, L::kContacts, {});
  ContactRowFields& has = contact_fields;
  has.duplicate_of = has_member(contacts.dataset.get(), "duplicate_of");
  has.parts = has_member(contacts.dataset.get(), "part_a");
  has.friction_basis = has_member(contacts.dataset.get(), "friction_basis");
  has.implicit = has_member(contacts.dataset.get(), "point_b");
  has.tangential_deflection = has_member(contacts.dataset.get(), "tangential_deflection");
  has.volume = has_member(contacts.dataset.get(), "volume");
  if (!has.duplicate_of || !has.parts || !has.friction_basis || !has.implicit ||
      !has.tangential_deflection || !has.volume)
    contact_type = L::contact_type(has.duplicate_of, has.parts, has.friction_basis, has.implicit,
                                   has.tangential_deflection, has.volume);
  check_fields(contacts.dataset.get(), contact_type.get(), L::kContacts);
  open_column(attempt_offset, L::kAttemptOffset, {});
  open_column(attempts, L::kAttempts, {});
  check_fields(attempts.dataset.get(), attempt_type.get(), L::kAttempts);
  open_column(history_offset, L::kHistoryOffset, {});
  open_column(history, L::kHistory, {});
  has_wrenches = exists(file.get(), L::kForce);
  if (has_wrenches) {
    open_column(force, L::kForce, {b, 3});
    open_column(torque, L::kTorque, {b, 3});
  }
  has_groups = exists(file.get(), L::kGroupOffset);
  if (has_groups) {
    open_column(group_offset, L::kGroupOffset, {});
    open_column(groups, L::kGroups, {});
    check_fields(groups.dataset.get(), group_type.get(), L::kGroups);
    open_column(member_offset, L::kMemberOffset, {});
    open_column(members, L::kMembers, {});
  }
  open_sm_traps();
  open_problems();
}

// The frames every column holds: rows of the per-frame datasets, offset tables less their
// leading 0.
hsize_t RunReader::Impl::rows_in_every_column() const {
  hsize_t n = std::min({time.rows, step.rows, pose.rows, twist.rows, solver.rows});
  if (has_wrenches) n = std::min({n, force.rows, torque.rows});
  if (has_groups) {
    if (group_offset.rows == 0 || member_offset.rows == 0)
      throw h5::Failure("constraint offset tables are empty (expected a leading 0)");
    n = std::min({n, group_offset.rows - 1, member_offset.rows - 1});
  }
  if (contact_offset.rows == 0 || attempt_offset.rows == 0 || history_offset.rows == 0)
    throw h5::Failure("offset tables are empty (expected a leading 0)");
  n = std::min({n, contact_offset.rows - 1, attempt_offset.rows - 1});
  if (has_sm_traps) n = std::min(n, sm_trap_offset.rows - 1);
  if (has_problems)
    n = std::min({n, problem_offset.rows - 1, entry_offset.rows - 1, block_offset.rows - 1,
                  problem_free_rows.rows});
  return n;
}

// Whether the first n frames are whole: the offsets that end frame n - 1 point within the rows
// stored (contacts, attempts and their histories, constraint groups, problems, SM traps).
bool RunReader::Impl::frame_complete(hsize_t n) const {
  const auto c = rows<std::int64_t>(contact_offset, H5T_NATIVE_INT64, n, 1)[0];
  const auto a = rows<std::int64_t>(attempt_offset, H5T_NATIVE_INT64, n, 1)[0];
  if (c < 0 || static_cast<hsize_t>(c) > contacts.rows || a < 0 ||
      static_cast<hsize_t>(a) > attempts.rows || static_cast<hsize_t>(a) >= history_offset.rows)
    return false;
  const auto h = rows<std::int64_t>(history_offset, H5T_NATIVE_INT64, a, 1)[0];
  if (has_groups) {
    const auto g = rows<std::int64_t>(group_offset, H5T_NATIVE_INT64, n, 1)[0];
    const auto m = rows<std::int64_t>(member_offset, H5T_NATIVE_INT64, n, 1)[0];
    if (g < 0 || static_cast<hsize_t>(g) > groups.rows || m < 0 ||
        static_cast<hsize_t>(m) > members.rows)
      return false;
  }
  return h >= 0 && static_cast<hsize_t>(h) <= history.rows && problems_complete(n) &&
         sm_traps_complete(n);
}

// A file its writer closed must hold every frame it wrote: fewer is damage (an emptied
// column), not a killed writer.
void RunReader::Impl::check_closed_frame_count(hid_t frames) {
  if (!h5::has_attribute(frames, L::kClosedFrameCount)) return;
  const std::int64_t closed = h5::read_int_attribute(frames, L::kClosedFrameCount);
  if (closed < 1 || frame_count < closed)
    throw h5::Failure("the writer closed it with " + std::to_string(closed) + " frames, but only " +
                      std::to_string(frame_count) + " are whole in its columns (/frames/pose has " +
                      std::to_string(pose.rows) + " rows): the file is damaged");
  frame_count = closed;
}

// The settings log is small (one row per change): read whole at open. Rows past the last
// complete frame (a killed writer) are dropped; frames must ascend from 1.
void RunReader::Impl::read_settings_log() {
  if (!exists(file.get(), L::kSettingsLog)) return;
  Column frame_column, row_column;
  open_column(frame_column, L::kSettingsLogFrame, {});
  open_column(row_column, L::kSettingsLogRows, {});
  const h5::Handle type =
      L::settings_type(has_member(row_column.dataset.get(), "joint_correction"),
                       has_member(row_column.dataset.get(), "sm_enforce"),
                       has_member(row_column.dataset.get(), "gyroscopic"),
                       has_member(row_column.dataset.get(), "primaries"),
                       has_member(row_column.dataset.get(), "cone_orientation"),
                       has_member(row_column.dataset.get(), "time_budget"),
                       has_member(row_column.dataset.get(), "iteration_budget"),
                       has_member(row_column.dataset.get(), "contacts_per_pair"));
  check_fields(row_column.dataset.get(), type.get(), L::kSettingsLogRows);
  const auto count = static_cast<std::int64_t>(std::min(frame_column.rows, row_column.rows));
  const auto frames = rows<std::int64_t>(frame_column, H5T_NATIVE_INT64, 0, count);
  const auto settings = rows<L::SettingsRow>(row_column, type.get(), 0, count);
  for (std::int64_t i = 0; i < count; ++i) {
    if (frames[i] < 1 || (i > 0 && frames[i] <= frames[i - 1]))
      throw h5::Failure(std::string(L::kSettingsLogFrame) + ": entry " + std::to_string(i) +
                        " is " + std::to_string(frames[i]) + ", expected frames ascending from 1");
    if (frames[i] >= frame_count) break;
    settings_changes.push_back({frames[i], L::from_row(settings[i])});
  }
}

// The SM-trap datasets are absent in files written before them: all four or none.
void RunReader::Impl::open_sm_traps() {
  has_sm_traps = exists(file.get(), L::kSmTrapOffset);
  if (!has_sm_traps) return;
  open_column(sm_trap_offset, L::kSmTrapOffset, {});
  open_column(sm_traps, L::kSmTraps, {});
  check_fields(sm_traps.dataset.get(), sm_trap_type.get(), L::kSmTraps);
  open_column(sm_trap_member_offset, L::kSmTrapMemberOffset, {});
  open_column(sm_trap_members, L::kSmTrapMembers, {});
  if (sm_trap_offset.rows == 0 || sm_trap_member_offset.rows == 0)
    throw h5::Failure("SM-trap offset tables are empty (expected a leading 0)");
}

// Whether the trap rows and members the first `frames` frames point at exist.
bool RunReader::Impl::sm_traps_complete(hsize_t frames) const {
  if (!has_sm_traps) return true;
  const auto t = rows<std::int64_t>(sm_trap_offset, H5T_NATIVE_INT64, frames, 1)[0];
  if (t < 0 || static_cast<hsize_t>(t) > sm_traps.rows ||
      static_cast<hsize_t>(t) >= sm_trap_member_offset.rows)
    return false;
  const auto m = rows<std::int64_t>(sm_trap_member_offset, H5T_NATIVE_INT64, t, 1)[0];
  return m >= 0 && static_cast<hsize_t>(m) <= sm_trap_members.rows;
}

void RunReader::Impl::read_sm_traps(std::int64_t first, std::int64_t count,
                                    std::vector<RunFrame>& out) const {
  if (!has_sm_traps) return;
  const auto to = offsets(sm_trap_offset, first, count, sm_traps);
  const auto tr =
      rows<L::SmTrapRow>(sm_traps, sm_trap_type.get(), to.front(), to.back() - to.front());
  const auto mo =
      offsets(sm_trap_member_offset, to.front(), to.back() - to.front(), sm_trap_members);
  const auto mr =
      rows<std::int32_t>(sm_trap_members, H5T_NATIVE_INT32, mo.front(), mo.back() - mo.front());
  for (std::int64_t f = 0; f < count; ++f) {
    RunFrame& fr = out[f];
    const auto contacts_n = static_cast<std::int32_t>(fr.contacts.size());
    for (std::int64_t t = to[f]; t < to[f + 1]; ++t) {
      const L::SmTrapRow& r = tr[t - to.front()];
      SmTrap trap;
      trap.body = r.body;
      trap.other_body = r.other_body;
      trap.feature = {static_cast<FeatureKind>(r.kind), r.index};
      trap.first = static_cast<int>(fr.sm_trap_contacts.size());
      const std::int64_t m0 = mo[t - to.front()], m1 = mo[t - to.front() + 1];
      trap.count = static_cast<int>(m1 - m0);
      for (std::int64_t m = m0; m < m1; ++m) {
        const std::int32_t c = mr[m - mo.front()];
        if (c < 0 || c >= contacts_n)
          throw h5::Failure(std::string(L::kSmTrapMembers) + ": contact " + std::to_string(c) +
                            " of frame " + std::to_string(fr.index) + " outside its " +
                            std::to_string(contacts_n) + " contacts");
        fr.sm_trap_contacts.push_back(c);
      }
      fr.sm_traps.push_back(trap);
    }
  }
}

// The problem datasets are optional: all of them or none.
void RunReader::Impl::open_problems() {
  has_problems = H5Lexists(file.get(), L::kProblemOffset, H5P_DEFAULT) > 0;
  h5::last_error();
  if (!has_problems) return;
  open_column(problem_offset, L::kProblemOffset, {});
  open_column(problem_q, L::kProblemQ, {});
  open_column(problem_z, L::kProblemZ, {});
  open_column(problem_free_rows, L::kProblemFreeRows, {});
  open_column(entry_offset, L::kProblemEntryOffset, {});
  open_column(entries, L::kProblemEntries, {});
  check_fields(entries.dataset.get(), entry_type.get(), L::kProblemEntries);
  open_column(block_offset, L::kProblemBlockOffset, {});
  open_column(block_starts, L::kProblemBlockStarts, {});
  if (problem_offset.rows == 0 || entry_offset.rows == 0 || block_offset.rows == 0)
    throw h5::Failure("problem offset tables are empty (expected a leading 0)");
}

// Whether the rows the problem offsets of the first `frames` frames point at exist.
bool RunReader::Impl::problems_complete(hsize_t frames) const {
  if (!has_problems) return true;
  const auto p = rows<std::int64_t>(problem_offset, H5T_NATIVE_INT64, frames, 1)[0];
  const auto e = rows<std::int64_t>(entry_offset, H5T_NATIVE_INT64, frames, 1)[0];
  const auto b = rows<std::int64_t>(block_offset, H5T_NATIVE_INT64, frames, 1)[0];
  return p >= 0 && static_cast<hsize_t>(p) <= std::min(problem_q.rows, problem_z.rows) && e >= 0 &&
         static_cast<hsize_t>(e) <= entries.rows && b >= 0 &&
         static_cast<hsize_t>(b) <= block_starts.rows;
}

RecordedProblem RunReader::Impl::problem(std::int64_t k) const {
  if (!has_problems)
    throw RunFileError(where("holds no complementarity problems (record with --record-problems)"));
  if (k < 0 || k >= frame_count)
    throw std::out_of_range(
        where("frame " + std::to_string(k) + " outside 0.." + std::to_string(frame_count)));
  RecordedProblem out;
  try {
    const auto po = offsets(problem_offset, k, 1, problem_q);
    const auto eo = offsets(entry_offset, k, 1, entries);
    const auto bo = offsets(block_offset, k, 1, block_starts);
    const std::int64_t n = po[1] - po[0];
    if (static_cast<hsize_t>(po[1]) > problem_z.rows)
      throw h5::Failure(std::string(L::kProblemZ) + ": fewer rows than " + L::kProblemQ);
    out.free_rows = rows<std::int32_t>(problem_free_rows, H5T_NATIVE_INT32, k, 1)[0];
    if (out.free_rows < 0 || out.free_rows > n)
      throw h5::Failure(std::string(L::kProblemFreeRows) + ": entry " + std::to_string(k) +
                        " is not a row count within the problem's " + std::to_string(n));
    const auto q = rows<double>(problem_q, H5T_NATIVE_DOUBLE, po[0], n);
    const auto z = rows<double>(problem_z, H5T_NATIVE_DOUBLE, po[0], n);
    out.lcp.q = Eigen::Map<const VecX>(q.data(), n);
    out.z = Eigen::Map<const VecX>(z.data(), n);
    // M as recorded, by its nonzeros (a recorded pile of 900 rows is ~5 % full).
    std::vector<Eigen::Triplet<double>> m;
    for (const L::EntryRow& e :
         rows<L::EntryRow>(entries, entry_type.get(), eo[0], eo[1] - eo[0])) {
      if (e.row < 0 || e.row >= n || e.col < 0 || e.col >= n)
        throw h5::Failure(std::string(L::kProblemEntries) + ": entry (" + std::to_string(e.row) +
                          ", " + std::to_string(e.col) + ") of frame " + std::to_string(k) +
                          " outside its " + std::to_string(n) + " x " + std::to_string(n) +
                          " problem");
      m.emplace_back(e.row, e.col, e.value);
    }
    out.lcp.M.resize(0, 0);
    out.lcp.S.resize(n, n);
    // An entry written twice keeps its last value, as a dense M(row, col) = value would.
    out.lcp.S.setFromTriplets(m.begin(), m.end(), [](const double&, const double& b) { return b; });
    out.lcp.S.prune([](const int&, const int&, const double& v) { return v != 0.0; });
    const auto starts = rows<std::int32_t>(block_starts, H5T_NATIVE_INT32, bo[0], bo[1] - bo[0]);
    out.lcp.block_starts.assign(starts.begin(), starts.end());
    for (std::size_t i = 0; i < starts.size(); ++i)
      if (starts[i] < 0 || starts[i] >= n || (i == 0 && starts[i] != 0) ||
          (i > 0 && starts[i] <= starts[i - 1]))
        throw h5::Failure(std::string(L::kProblemBlockStarts) + ": frame " + std::to_string(k) +
                          " has block starts that are not ascending from 0 within its rows");
  } catch (const h5::Failure& e) {
    throw RunFileError(where(e.what()));
  }
  return out;
}

RecordedSolve RunReader::Impl::to_solve(const L::SolverRow& row) const {
  RecordedSolve s;
  s.problem_size = row.problem_size;
  s.solver = solver_name(row.solver);
  if (row.status >= 0) s.status = to_status(row.status);
  s.iterations = row.iterations;
  s.residual = row.residual;
  s.answer = row.answer;
  s.fell_back = row.fell_back != 0;
  s.failed = row.failed != 0;
  s.max_penetration = row.max_penetration;
  s.timings = {row.detect_seconds, row.formulate_seconds, row.solve_seconds, row.integrate_seconds};
  return s;
}

// Frame f's groups and members (offset tables and rows as read for the frames from `first`),
// each member a contact of the frame and each group within the frame's members.
void RunReader::Impl::read_groups(const std::vector<std::int64_t>& go,
                                  const std::vector<L::GroupRow>& gr,
                                  const std::vector<std::int64_t>& mo,
                                  const std::vector<std::int32_t>& mr, std::int64_t f,
                                  RunFrame& fr) const {
  const std::int64_t nm = mo[f + 1] - mo[f];
  for (std::int64_t i = mo[f]; i < mo[f + 1]; ++i) {
    const std::int32_t c = mr[i - mo.front()];
    if (c < 0 || static_cast<std::size_t>(c) >= fr.contacts.size())
      throw h5::Failure(std::string(L::kMembers) + ": row " + std::to_string(i) + " is contact " +
                        std::to_string(c) + ", expected one of the frame's " +
                        std::to_string(fr.contacts.size()));
    fr.constraints.members.push_back(c);
  }
  for (std::int64_t i = go[f]; i < go[f + 1]; ++i) {
    const L::GroupRow& r = gr[i - go.front()];
    // In 64 bits: first = 2^31 - 1 with count = 1 must not wrap to a small sum.
    if (r.first < 0 || r.count < 1 || std::int64_t{r.first} + std::int64_t{r.count} > nm ||
        r.kind < 0 || r.kind > 2)
      throw h5::Failure(std::string(L::kGroups) + ": row " + std::to_string(i) +
                        " is not a group of 1 or more of the frame's " + std::to_string(nm) +
                        " members");
    fr.constraints.groups.push_back(
        {static_cast<ConstraintKind>(r.kind), r.first, r.count, r.impulse});
  }
}

std::vector<State> RunReader::Impl::states_in(std::int64_t first, std::int64_t count) const {
  const auto t = rows<double>(time, H5T_NATIVE_DOUBLE, first, count);
  const auto st = rows<std::int64_t>(step, H5T_NATIVE_INT64, first, count);
  const auto p = rows<double>(pose, H5T_NATIVE_DOUBLE, first, count);
  const auto tw = rows<double>(twist, H5T_NATIVE_DOUBLE, first, count);
  std::vector<double> fo, to;
  if (has_wrenches) {
    fo = rows<double>(force, H5T_NATIVE_DOUBLE, first, count);
    to = rows<double>(torque, H5T_NATIVE_DOUBLE, first, count);
  }
  std::vector<State> out(static_cast<std::size_t>(count));
  for (std::int64_t f = 0; f < count; ++f) {
    State& fr = out[f];
    fr.time = t[f];
    fr.step = st[f];
    fr.bodies.resize(bodies);
    for (std::size_t b = 0; b < bodies; ++b) {
      const double* q = &p[(f * bodies + b) * 7];
      const double* v = &tw[(f * bodies + b) * 6];
      BodyState& s = fr.bodies[b];
      s.position = Vec3(q[0], q[1], q[2]);
      s.orientation = Quat(q[3], q[4], q[5], q[6]);
      s.velocity = Vec3(v[0], v[1], v[2]);
      s.angular_velocity = Vec3(v[3], v[4], v[5]);
      if (has_wrenches) {
        const double* f3 = &fo[(f * bodies + b) * 3];
        const double* t3 = &to[(f * bodies + b) * 3];
        s.force = Vec3(f3[0], f3[1], f3[2]);
        s.torque = Vec3(t3[0], t3[1], t3[2]);
      }
    }
  }
  return out;
}

std::vector<RunFrame> RunReader::Impl::read(std::int64_t first, std::int64_t count) const {
  if (first < 0 || count < 0 || first + count > frame_count)
    throw std::out_of_range(where("frames " + std::to_string(first) + ".." +
                                  std::to_string(first + count) + " outside 0.." +
                                  std::to_string(frame_count)));
  std::vector<RunFrame> out(static_cast<std::size_t>(count));
  if (count == 0) return out;
  try {
    std::vector<State> motion = states_in(first, count);
    const auto sv = rows<L::SolverRow>(solver, solver_type.get(), first, count);
    const auto co = offsets(contact_offset, first, count, contacts);
    const auto cr =
        rows<L::ContactRow>(contacts, contact_type.get(), co.front(), co.back() - co.front());
    const auto ao = offsets(attempt_offset, first, count, attempts);
    const auto ar =
        rows<L::AttemptRow>(attempts, attempt_type.get(), ao.front(), ao.back() - ao.front());
    const auto ho = offsets(history_offset, ao.front(), ao.back() - ao.front(), history);
    const auto hr = rows<double>(history, H5T_NATIVE_DOUBLE, ho.front(), ho.back() - ho.front());
    std::vector<std::int64_t> go, mo;
    std::vector<L::GroupRow> gr;
    std::vector<std::int32_t> mr;
    if (has_groups) {
      go = offsets(group_offset, first, count, groups);
      gr = rows<L::GroupRow>(groups, group_type.get(), go.front(), go.back() - go.front());
      mo = offsets(member_offset, first, count, members);
      mr = rows<std::int32_t>(members, H5T_NATIVE_INT32, mo.front(), mo.back() - mo.front());
    }

    for (std::int64_t f = 0; f < count; ++f) {
      RunFrame& fr = out[f];
      fr.index = first + f;
      fr.time = motion[f].time;
      fr.step = motion[f].step;
      fr.bodies = std::move(motion[f].bodies);
      for (std::int64_t i = co[f]; i < co[f + 1]; ++i)
        fr.contacts.push_back(recorded_contact(cr[i - co.front()], contact_fields));
      if (has_groups) read_groups(go, gr, mo, mr, f, fr);
      fr.solve = to_solve(sv[f]);
      for (std::int64_t a = ao[f]; a < ao[f + 1]; ++a) {
        const L::AttemptRow& r = ar[a - ao.front()];
        RecordedAttempt at;
        at.solver = solver_name(r.solver);
        at.status = to_status(r.status);
        at.iterations = r.iterations;
        at.residual = r.residual;
        at.seconds = r.seconds;
        const std::int64_t h0 = ho[a - ao.front()], h1 = ho[a - ao.front() + 1];
        at.residual_history.assign(hr.begin() + (h0 - ho.front()), hr.begin() + (h1 - ho.front()));
        fr.solve.attempts.push_back(std::move(at));
      }
    }
    read_sm_traps(first, count, out);
  } catch (const h5::Failure& e) {
    throw RunFileError(where(e.what()));
  }
  return out;
}

RunReader::RunReader(const std::filesystem::path& file) : impl_(std::make_unique<Impl>()) {
  impl_->path = file;
  impl_->open();
}

RunReader::~RunReader() = default;
RunReader::RunReader(RunReader&&) noexcept = default;
RunReader& RunReader::operator=(RunReader&&) noexcept = default;

const std::filesystem::path& RunReader::file() const {
  return impl_->path;
}
const RunHeader& RunReader::header() const {
  return impl_->header;
}
std::int64_t RunReader::frame_count() const {
  return impl_->frame_count;
}

const std::vector<double>& RunReader::times() const {
  std::call_once(impl_->times_once, [this] {
    try {
      impl_->times = impl_->rows<double>(impl_->time, H5T_NATIVE_DOUBLE, 0, impl_->frame_count);
    } catch (const h5::Failure& e) {
      throw RunFileError(impl_->where(e.what()));
    }
  });
  return impl_->times;
}

RunFrame RunReader::frame(std::int64_t k) const {
  return std::move(impl_->read(k, 1).front());
}

std::vector<RunFrame> RunReader::frames(std::int64_t first, std::int64_t count) const {
  return impl_->read(first, count);
}

std::vector<State> RunReader::states(std::int64_t first, std::int64_t count) const {
  if (first < 0 || count < 0 || first + count > impl_->frame_count)
    throw std::out_of_range(impl_->where("frames " + std::to_string(first) + ".." +
                                         std::to_string(first + count) + " outside 0.." +
                                         std::to_string(impl_->frame_count)));
  if (count == 0) return {};
  try {
    return impl_->states_in(first, count);
  } catch (const h5::Failure& e) {
    throw RunFileError(impl_->where(e.what()));
  }
}

std::vector<RecordedSolve> RunReader::solver_reports() const {
  try {
    const auto rows =
        impl_->rows<L::SolverRow>(impl_->solver, impl_->solver_type.get(), 0, impl_->frame_count);
    std::vector<RecordedSolve> out;
    out.reserve(rows.size());
    for (const L::SolverRow& r : rows) out.push_back(impl_->to_solve(r));
    return out;
  } catch (const h5::Failure& e) {
    throw RunFileError(impl_->where(e.what()));
  }
}

std::vector<std::int64_t> RunReader::contact_offsets() const {
  try {
    return impl_->offsets(impl_->contact_offset, 0, impl_->frame_count, impl_->contacts);
  } catch (const h5::Failure& e) {
    throw RunFileError(impl_->where(e.what()));
  }
}

const Settings& RunReader::settings(std::int64_t k) const {
  if (k < 0 || k >= impl_->frame_count)
    throw std::out_of_range(impl_->where("frame " + std::to_string(k) + " outside 0.." +
                                         std::to_string(impl_->frame_count)));
  const auto& log = impl_->settings_changes;
  // The last change at or before k (changes ascend by frame).
  auto after =
      std::upper_bound(log.begin(), log.end(), k,
                       [](std::int64_t f, const SettingsChange& c) { return f < c.frame; });
  return after == log.begin() ? impl_->header.settings : std::prev(after)->settings;
}

const std::vector<SettingsChange>& RunReader::settings_changes() const {
  return impl_->settings_changes;
}

bool RunReader::has_wrenches() const {
  return impl_->has_wrenches;
}

bool RunReader::has_sm_traps() const {
  return impl_->has_sm_traps;
}

std::vector<std::int64_t> RunReader::sm_trap_offsets() const {
  if (!impl_->has_sm_traps)
    return std::vector<std::int64_t>(static_cast<std::size_t>(impl_->frame_count) + 1, 0);
  try {
    return impl_->offsets(impl_->sm_trap_offset, 0, impl_->frame_count, impl_->sm_traps);
  } catch (const h5::Failure& e) {
    throw RunFileError(impl_->where(e.what()));
  }
}

bool RunReader::has_problems() const {
  return impl_->has_problems;
}
RecordedProblem RunReader::problem(std::int64_t k) const {
  return impl_->problem(k);
}

Model RunReader::model() const {
  return build_model(impl_->header, impl_->path.string());
}

}  // namespace pegsim
