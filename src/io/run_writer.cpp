#include "io/run_writer.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include <pthread.h>
#include <sched.h>

#include "engine/solvers/lcp_matrix.hpp"
#include "io/hdf5_io.hpp"
#include "io/run_contact_row.hpp"
#include "io/run_header_io.hpp"
#include "io/run_layout.hpp"
#include "io/run_settings_row.hpp"

namespace pegsim {
namespace {

namespace L = run_layout;

// Frames buffered between two writes. Offsets are absolute (rows since the start of the run).
struct Batch {
  std::vector<double> time;
  std::vector<std::int64_t> step;
  std::vector<double> pose, twist;    // 7 and 6 values per body per frame
  std::vector<double> force, torque;  // 3 values per body per frame
  // Settings changes: the frame each row applies from, and the row.
  std::vector<std::int64_t> settings_frame;
  std::vector<L::SettingsRow> settings_rows;
  std::vector<L::SolverRow> solver;
  std::vector<std::int64_t> contact_end, attempt_end, history_end;
  std::vector<L::ContactRow> contacts;
  std::vector<std::int64_t> group_end, member_end;
  std::vector<L::GroupRow> groups;
  std::vector<std::int32_t> members;
  std::vector<L::AttemptRow> attempts;
  std::vector<double> history;
  // Recorded problems (empty unless RunWriterOptions::record_problems).
  std::vector<std::int64_t> problem_end, entry_end, block_end;
  std::vector<std::int32_t> free_rows, block_starts;
  std::vector<double> q, z;
  std::vector<L::EntryRow> entries;
  // SM traps: rows, and per trap the contacts that trap it.
  std::vector<std::int64_t> trap_end, trap_member_end;
  std::vector<L::SmTrapRow> traps;
  std::vector<std::int32_t> trap_members;

  // Every buffer above, once: what bytes() counts and clear() empties.
  template <typename Self, typename F>
  static void each(Self& b, F&& f) {
    f(b.time), f(b.step), f(b.pose), f(b.twist), f(b.force), f(b.torque);
    f(b.settings_frame), f(b.settings_rows), f(b.solver);
    f(b.contact_end), f(b.attempt_end), f(b.history_end), f(b.contacts);
    f(b.group_end), f(b.member_end), f(b.groups), f(b.members), f(b.attempts), f(b.history);
    f(b.problem_end), f(b.entry_end), f(b.block_end), f(b.free_rows), f(b.block_starts);
    f(b.q), f(b.z), f(b.entries);
    f(b.trap_end), f(b.trap_member_end), f(b.traps), f(b.trap_members);
  }

  std::size_t frames() const { return time.size(); }
  std::size_t bytes() const {
    std::size_t n = 0;
    each(*this, [&](const auto& v) { n += v.size() * sizeof(v[0]); });
    return n;
  }
  // The fixed share of one frame: time, step, the solver row, the five offset tables every
  // frame has, and the bodies' pose, twist and wrench.
  static std::size_t frame_bytes(std::size_t bodies) {
    return sizeof(double) + sizeof(std::int64_t) + sizeof(L::SolverRow) + 5 * sizeof(std::int64_t) +
           bodies * (7 + 6 + 3 + 3) * sizeof(double);
  }
  // Room for a batch twice kBatchBytes of the largest per-frame data (rows for poses and
  // contacts), reserved once: growing a vector while the step waits costs it a copy and the
  // page faults of the new buffer (p99 of the recording step 150 us, bench_run_file).
  void reserve(std::size_t bodies, std::size_t bytes) {
    const std::size_t frames = bytes / frame_bytes(bodies);
    time.reserve(frames), step.reserve(frames), solver.reserve(frames);
    contact_end.reserve(frames), attempt_end.reserve(frames), history_end.reserve(frames);
    group_end.reserve(frames), member_end.reserve(frames), trap_end.reserve(frames);
    pose.reserve(frames * bodies * 7), twist.reserve(frames * bodies * 6);
    force.reserve(frames * bodies * 3), torque.reserve(frames * bodies * 3);
    contacts.reserve(bytes / sizeof(L::ContactRow));
  }
  // Keeps the capacity: the three batches (filling, handed, writing) rotate.
  void clear() {
    each(*this, [](auto& v) { v.clear(); });
  }
};

// A per-frame dataset and the rows it holds on disk.
struct Column {
  h5::Handle dataset;
  const char* name = "";
  std::vector<hsize_t> inner;
  hsize_t rows = 0;
};

// 64 KB chunks rather than 32 KB: fewer deflate start-ups per byte and longer matches, so a
// smaller file (stack10: 3.0 instead of 3.45 MB per 1000 steps), for a random-frame read of
// ~1.2 ms instead of ~0.6 ms of CPU (bench_run_file). Larger chunks make scrubbing slower.
hsize_t rows_per_chunk(std::size_t row_bytes, hsize_t target_bytes = 65536) {
  return std::clamp<hsize_t>(target_bytes / std::max<std::size_t>(row_bytes, 1), 1, 8192);
}

// Past this many buffered bytes the batch is handed to the writer thread (without flushing):
// small batches keep the buffers hot in cache and never grow them again after the first few
// (growing a multi-MB buffer costs the stepping thread milliseconds of page faults).
constexpr std::size_t kBatchBytes = 512 * 1024;
// The most frames (in bytes) that wait in the stepping thread for the writer; with the batch
// being written and the one handed over, pending frames hold at most 3 times this.
constexpr std::size_t kMaxBacklogBytes = 16 * kBatchBytes;

}  // namespace

struct RunWriter::Impl {
  std::filesystem::path path;
  RunWriterOptions options;
  std::size_t bodies = 0;
  std::vector<std::string> solver_names;

  h5::Handle file;
  h5::Handle contact_type = L::contact_type();
  h5::Handle solver_type = L::solver_type();
  h5::Handle attempt_type = L::attempt_type();
  h5::Handle entry_type = L::entry_type();
  h5::Handle group_type = L::group_type();
  h5::Handle settings_type = L::settings_type();
  h5::Handle sm_trap_type = L::sm_trap_type();
  Column sm_trap_offset, sm_traps, sm_trap_member_offset, sm_trap_members;
  Column force, torque, settings_frame, settings_rows;
  Column time, step, pose, twist, solver, contact_offset, contacts, attempt_offset, attempts,
      history_offset, history;
  Column group_offset, groups, member_offset, members;
  Column problem_offset, problem_q, problem_z, problem_free_rows, entry_offset, entries,
      block_offset, block_starts;

  // Owned by the observing thread: frames are added to `filling` without a lock.
  Batch filling;
  std::chrono::steady_clock::time_point last_hand_off = std::chrono::steady_clock::now();
  std::int64_t frames = 0, contact_rows = 0, attempt_rows = 0, history_rows = 0;
  std::int64_t group_rows = 0, member_rows = 0;
  std::int64_t problem_rows = 0, entry_rows = 0, block_rows = 0;
  std::int64_t trap_rows = 0, trap_member_rows = 0;
  Settings last_settings;  // of the last recorded step (the header's before the first)

  // Shared with the writing thread.
  std::mutex mutex;
  std::condition_variable wake, written;
  Batch handed;  // handed to the writer, not yet taken (empty: the writer took it)
  std::uint64_t flush_requested = 0, flush_done = 0;
  bool stop = false;
  std::string error;                // first write error; later writes are skipped
  std::atomic<bool> failed{false};  // error is set: a lock-free check for every step
  std::thread worker;
  bool closed = false;

  std::string where(const std::string& what) const { return path.string() + ": " + what; }
  void create(const RunHeader& header);
  void add(const State& state, const StepReport* report);
  std::optional<L::SettingsRow> changed_settings(const StepReport* report);
  void add_bodies(Batch& b, const State& state, const StepReport* report);
  void add_contacts(Batch& b, const StepReport& report);
  void add_attempts(Batch& b, const StepReport& report, L::SolverRow& row);
  void fill_solver_row(const StepReport& report, L::SolverRow& row) const;
  void try_hand_off();
  void hand_off(std::unique_lock<std::mutex>& lock);
  void add_problem(Batch& b, const StepReport* report);
  void add_sm_traps(Batch& b, const StepReport* report);
  void run();
  void write(Batch& batch);
  void append(Column& c, hid_t type, std::size_t rows, const void* data) {
    h5::append_rows(c.dataset.get(), type, c.rows, rows, c.inner, data, c.name);
    c.rows += rows;
  }
  std::int8_t solver_index(const std::string& name) const {
    for (std::size_t i = 0; i < solver_names.size(); ++i)
      if (solver_names[i] == name) return static_cast<std::int8_t>(i);
    return -1;
  }
  void shutdown();
  ~Impl() { shutdown(); }  // also when the constructor throws after the thread started
};

void RunWriter::Impl::create(const RunHeader& header) {
  h5::silence_errors();
  std::error_code ec;
  if (!options.overwrite && std::filesystem::exists(path, ec))
    throw RunFileError(where("exists; not overwriting it (use --force)"));
  // SWMR needs the latest file format; EXCL keeps a file appearing meanwhile safe too.
  h5::Handle fapl = h5::plist(H5Pcreate(H5P_FILE_ACCESS));
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  file = h5::file(H5Fcreate(path.c_str(), options.overwrite ? H5F_ACC_TRUNC : H5F_ACC_EXCL,
                            H5P_DEFAULT, fapl.get()));
  if (!file) {
    const std::string why = h5::last_error();
    const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    throw RunFileError(where(std::string("cannot be created") +
                             (std::filesystem::is_directory(dir, ec)
                                  ? " (" + (why.empty() ? std::string("unknown error") : why) + ")"
                                  : " (folder " + dir.string() + " does not exist)")));
  }
  bodies = header.bodies.size();
  solver_names = header.solver_names;
  last_settings = header.settings;
  try {
    write_run_header(file.get(), header);
    h5::Handle g =
        h5::group(H5Gcreate2(file.get(), "/frames", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!g) throw h5::Failure("cannot create group /frames");
    h5::write_attribute(g.get(), "solver_names", header.solver_names);
    h5::write_attribute(g.get(), "body_count", static_cast<std::int64_t>(bodies));

    const hsize_t b = bodies;
    const int level = std::clamp(options.deflate_level, 0, 9);
    auto column = [&](Column& c, const char* name, hid_t type, std::vector<hsize_t> inner,
                      std::size_t row_bytes) {
      c.name = name;
      c.inner = std::move(inner);
      c.dataset =
          h5::create_extendable(file.get(), name, type, c.inner, rows_per_chunk(row_bytes), level);
    };
    // Stored as laid out in memory (padding included, deflate absorbs it): a read then needs
    // no type conversion, whose 1 MB zeroed buffers would dominate a frame read.
    const h5::Handle& contact_file = contact_type;
    const h5::Handle& solver_file = solver_type;
    const h5::Handle& attempt_file = attempt_type;
    column(time, L::kTime, H5T_IEEE_F64LE, {}, 8);
    column(step, L::kStep, H5T_STD_I64LE, {}, 8);
    column(pose, L::kPose, H5T_IEEE_F64LE, {b, 7}, 56 * bodies);
    column(twist, L::kTwist, H5T_IEEE_F64LE, {b, 6}, 48 * bodies);
    column(force, L::kForce, H5T_IEEE_F64LE, {b, 3}, 24 * bodies);
    column(torque, L::kTorque, H5T_IEEE_F64LE, {b, 3}, 24 * bodies);
    h5::Handle log =
        h5::group(H5Gcreate2(file.get(), L::kSettingsLog, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!log) throw h5::Failure(std::string("cannot create group ") + L::kSettingsLog);
    // Changes are rare: small chunks keep a run without any nearly free.
    settings_frame.name = L::kSettingsLogFrame;
    settings_frame.dataset =
        h5::create_extendable(file.get(), L::kSettingsLogFrame, H5T_STD_I64LE, {}, 64, level);
    settings_rows.name = L::kSettingsLogRows;
    settings_rows.dataset =
        h5::create_extendable(file.get(), L::kSettingsLogRows, settings_type.get(), {}, 16, level);
    column(solver, L::kSolver, solver_file.get(), {}, H5Tget_size(solver_file.get()));
    column(contact_offset, L::kContactOffset, H5T_STD_I64LE, {}, 8);
    column(contacts, L::kContacts, contact_file.get(), {}, H5Tget_size(contact_file.get()));
    column(attempt_offset, L::kAttemptOffset, H5T_STD_I64LE, {}, 8);
    column(attempts, L::kAttempts, attempt_file.get(), {}, H5Tget_size(attempt_file.get()));
    column(history_offset, L::kHistoryOffset, H5T_STD_I64LE, {}, 8);
    column(history, L::kHistory, H5T_IEEE_F64LE, {}, 8);
    column(group_offset, L::kGroupOffset, H5T_STD_I64LE, {}, 8);
    column(groups, L::kGroups, group_type.get(), {}, sizeof(L::GroupRow));
    column(member_offset, L::kMemberOffset, H5T_STD_I64LE, {}, 8);
    column(members, L::kMembers, H5T_STD_I32LE, {}, 4);
    // Offset tables start with the 0 before frame 0 (and before attempt 0).
    const std::int64_t zero = 0;
    append(contact_offset, H5T_NATIVE_INT64, 1, &zero);
    append(attempt_offset, H5T_NATIVE_INT64, 1, &zero);
    append(history_offset, H5T_NATIVE_INT64, 1, &zero);
    append(group_offset, H5T_NATIVE_INT64, 1, &zero);
    append(member_offset, H5T_NATIVE_INT64, 1, &zero);
    column(sm_trap_offset, L::kSmTrapOffset, H5T_STD_I64LE, {}, 8);
    column(sm_traps, L::kSmTraps, sm_trap_type.get(), {}, sizeof(L::SmTrapRow));
    column(sm_trap_member_offset, L::kSmTrapMemberOffset, H5T_STD_I64LE, {}, 8);
    column(sm_trap_members, L::kSmTrapMembers, H5T_STD_I32LE, {}, 4);
    append(sm_trap_offset, H5T_NATIVE_INT64, 1, &zero);
    append(sm_trap_member_offset, H5T_NATIVE_INT64, 1, &zero);
    if (options.record_problems) {
      column(problem_offset, L::kProblemOffset, H5T_STD_I64LE, {}, 8);
      column(problem_q, L::kProblemQ, H5T_IEEE_F64LE, {}, 8);
      column(problem_z, L::kProblemZ, H5T_IEEE_F64LE, {}, 8);
      column(problem_free_rows, L::kProblemFreeRows, H5T_STD_I32LE, {}, 4);
      column(entry_offset, L::kProblemEntryOffset, H5T_STD_I64LE, {}, 8);
      column(entries, L::kProblemEntries, entry_type.get(), {}, sizeof(L::EntryRow));
      column(block_offset, L::kProblemBlockOffset, H5T_STD_I64LE, {}, 8);
      column(block_starts, L::kProblemBlockStarts, H5T_STD_I32LE, {}, 4);
      for (Column* c : {&problem_offset, &entry_offset, &block_offset})
        append(*c, H5T_NATIVE_INT64, 1, &zero);
    }
    if (H5Fstart_swmr_write(file.get()) < 0)
      throw h5::Failure("cannot start SWMR write mode (" + h5::last_error() + ")");
  } catch (const h5::Failure& e) {
    file.reset();
    std::filesystem::remove(path, ec);  // ours, half-written
    throw RunFileError(where(e.what()));
  }
}

void RunWriter::Impl::add(const State& state, const StepReport* r) {
  // Built before the batch changes: it may throw for a name that does not fit.
  const std::optional<L::SettingsRow> settings_row = changed_settings(r);
  Batch& b = filling;
  if (settings_row) {
    b.settings_frame.push_back(frames);
    b.settings_rows.push_back(*settings_row);
  }
  add_bodies(b, state, r);
  L::SolverRow row{};
  row.answer = -1;
  row.solver = -1;
  row.status = -1;
  if (r) {
    add_contacts(b, *r);
    add_attempts(b, *r, row);
    fill_solver_row(*r, row);
  }
  if (options.record_problems) add_problem(b, r);
  add_sm_traps(b, r);
  b.solver.push_back(row);
  b.contact_end.push_back(contact_rows);
  b.group_end.push_back(group_rows);
  b.member_end.push_back(member_rows);
  b.attempt_end.push_back(attempt_rows);
  ++frames;
}

// A change of settings since the last step is one log row.
std::optional<L::SettingsRow> RunWriter::Impl::changed_settings(const StepReport* r) {
  if (!r || !r->settings || L::same_settings(*r->settings, last_settings)) return std::nullopt;
  L::SettingsRow row{};
  try {
    row = L::to_row(*r->settings);
  } catch (const h5::Failure& e) {
    throw RunFileError(where(e.what()));
  }
  last_settings = *r->settings;
  return row;
}

// Per body: the step's external wrench (zero for frame 0 and a report without one), the pose
// and the twist.
void RunWriter::Impl::add_bodies(Batch& b, const State& state, const StepReport* r) {
  const bool wrench = r && r->applied_force.size() == bodies && r->applied_torque.size() == bodies;
  for (std::size_t i = 0; i < bodies; ++i) {
    const Vec3 f = wrench ? r->applied_force[i] : Vec3::Zero();
    const Vec3 t = wrench ? r->applied_torque[i] : Vec3::Zero();
    b.force.insert(b.force.end(), {f.x(), f.y(), f.z()});
    b.torque.insert(b.torque.end(), {t.x(), t.y(), t.z()});
  }
  b.time.push_back(state.time);
  b.step.push_back(state.step);
  for (const BodyState& s : state.bodies) {
    const Quat& q = s.orientation;
    b.pose.insert(b.pose.end(),
                  {s.position.x(), s.position.y(), s.position.z(), q.w(), q.x(), q.y(), q.z()});
    b.twist.insert(b.twist.end(),
                   {s.velocity.x(), s.velocity.y(), s.velocity.z(), s.angular_velocity.x(),
                    s.angular_velocity.y(), s.angular_velocity.z()});
  }
}

// The step's contacts (run_contact_row.hpp) and the contact model's constraint groups.
void RunWriter::Impl::add_contacts(Batch& b, const StepReport& r) {
  for (std::size_t i = 0; i < r.contacts.size(); ++i) b.contacts.push_back(contact_row(r, i));
  contact_rows += static_cast<std::int64_t>(r.contacts.size());
  for (const ConstraintGroup& g : r.constraints.groups)
    b.groups.push_back({g.first, g.count, static_cast<std::int8_t>(g.kind), g.impulse});
  b.members.insert(b.members.end(), r.constraints.members.begin(), r.constraints.members.end());
  group_rows += static_cast<std::int64_t>(r.constraints.groups.size());
  member_rows += static_cast<std::int64_t>(r.constraints.members.size());
}

// Every solver attempt with its residual history; row.answer marks the one the simulator kept
// (the last attempt whose report matches r.solve).
void RunWriter::Impl::add_attempts(Batch& b, const StepReport& r, L::SolverRow& row) {
  for (std::size_t i = 0; i < r.attempts.size(); ++i) {
    const SolveReport& a = r.attempts[i];
    b.attempts.push_back({a.iterations, solver_index(a.solver), static_cast<std::int8_t>(a.status),
                          a.residual, a.seconds});
    b.history.insert(b.history.end(), a.residual_history.begin(), a.residual_history.end());
    history_rows += static_cast<std::int64_t>(a.residual_history.size());
    b.history_end.push_back(history_rows);
    if (!r.solve.solver.empty() && a.solver == r.solve.solver &&
        a.iterations == r.solve.iterations && a.residual == r.solve.residual)
      row.answer = static_cast<std::int32_t>(i);
  }
  attempt_rows += static_cast<std::int64_t>(r.attempts.size());
}

// The answer's solver, status and figures, the step's outcome and its timings.
void RunWriter::Impl::fill_solver_row(const StepReport& r, L::SolverRow& row) const {
  row.problem_size = r.problem_size;
  if (!r.solve.solver.empty()) {
    row.solver = solver_index(r.solve.solver);
    row.status = static_cast<std::int8_t>(r.solve.status);
    row.iterations = r.solve.iterations;
    row.residual = r.solve.residual;
  }
  row.fell_back = r.fell_back;
  row.failed = r.failed;
  row.max_penetration = r.max_penetration;
  row.detect_seconds = r.timings.detect;
  row.formulate_seconds = r.timings.formulate;
  row.solve_seconds = r.timings.solve;
  row.integrate_seconds = r.timings.integrate;
}

// The stepping thread does not wait for the writer while it keeps up: it hands its batch over
// when the batch is full or a half flush period has passed, but only if it gets the lock at
// once and the writer has taken the previous batch; otherwise the frames stay and go with a
// later step. (Waiting on the lock cost steps up to milliseconds when the writer was
// descheduled holding it.) Once kMaxBacklogBytes wait, it waits: a writer that falls behind
// (large problems recorded with --record-problems) slows the run instead of growing memory.
void RunWriter::Impl::try_hand_off() {
  if (filling.frames() == 0) return;
  if (filling.bytes() >= kMaxBacklogBytes) {
    std::unique_lock lock(mutex);
    hand_off(lock);
    lock.unlock();
    wake.notify_one();
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (filling.bytes() < kBatchBytes &&
      now - last_hand_off < std::chrono::duration<double>(options.flush_seconds / 2))
    return;
  std::unique_lock lock(mutex, std::try_to_lock);
  if (!lock.owns_lock() || handed.frames() > 0) return;
  std::swap(filling, handed);  // filling gets the emptied batch back, capacity kept
  last_hand_off = now;
  lock.unlock();
  wake.notify_one();
}

// For flush() and close(): waits until the writer has taken the previous batch.
void RunWriter::Impl::hand_off(std::unique_lock<std::mutex>& lock) {
  written.wait(lock, [&] { return handed.frames() == 0; });
  std::swap(filling, handed);
  last_hand_off = std::chrono::steady_clock::now();
}

// M is copied as its nonzeros, column by column, rows ascending (the order of the simulator's
// sparse M): Stewart-Trinkle matrices couple only contacts that share a body.
void RunWriter::Impl::add_problem(Batch& b, const StepReport* r) {
  const Lcp* lcp = r ? r->lcp : nullptr;
  const int n = lcp ? lcp->size() : 0;
  if (n > 0) {
    b.q.insert(b.q.end(), lcp->q.data(), lcp->q.data() + n);
    if (r->solution && r->solution->size() == n)
      b.z.insert(b.z.end(), r->solution->data(), r->solution->data() + n);
    else
      b.z.insert(b.z.end(), static_cast<std::size_t>(n), 0.0);
    const std::size_t before = b.entries.size();
    for (int c = 0; c < n; ++c)
      for_each_in_column(*lcp, c, [&](int i, double v) { b.entries.push_back({i, c, v}); });
    entry_rows += static_cast<std::int64_t>(b.entries.size() - before);
    b.block_starts.insert(b.block_starts.end(), lcp->block_starts.begin(), lcp->block_starts.end());
    block_rows += static_cast<std::int64_t>(lcp->block_starts.size());
  }
  problem_rows += n;
  b.problem_end.push_back(problem_rows);
  b.entry_end.push_back(entry_rows);
  b.block_end.push_back(block_rows);
  b.free_rows.push_back(lcp ? lcp->free_rows() : 0);  // mixed-lcp: the joint rows, first
}

void RunWriter::Impl::add_sm_traps(Batch& b, const StepReport* r) {
  if (r) {
    for (const SmTrap& t : r->sm_traps) {
      b.traps.push_back(
          {t.body, t.other_body, t.feature.index, static_cast<std::int8_t>(t.feature.kind)});
      for (int k = 0; k < t.count; ++k) b.trap_members.push_back(r->sm_trap_contacts[t.first + k]);
      trap_member_rows += t.count;
      b.trap_member_end.push_back(trap_member_rows);
    }
    trap_rows += static_cast<std::int64_t>(r->sm_traps.size());
  }
  b.trap_end.push_back(trap_rows);
}

// The writing thread: it appends the pending frames when a batch is full, and flushes the
// file at least every flush_seconds, when asked, and at the end.
void RunWriter::Impl::run() {
  h5::silence_errors();
  using Clock = std::chrono::steady_clock;
  Batch writing;
  writing.reserve(bodies, 2 * kBatchBytes);
  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(options.flush_seconds));
  auto next_flush = Clock::now() + period;
  bool unflushed = false;
  std::unique_lock lock(mutex);
  for (;;) {
    wake.wait_until(lock, next_flush,
                    [&] { return stop || flush_requested > flush_done || handed.frames() > 0; });
    const std::uint64_t request = flush_requested;
    const bool last = stop;
    const bool flush_now = last || request > flush_done || Clock::now() >= next_flush;
    std::swap(writing, handed);
    lock.unlock();
    if (error.empty()) {
      try {
        if (writing.frames() > 0) {
          write(writing);
          unflushed = true;
        }
        if (flush_now && unflushed) {
          if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0)
            throw h5::Failure("cannot flush (" + h5::last_error() + ")");
          unflushed = false;
        }
      } catch (const h5::Failure& e) {
        std::lock_guard guard(mutex);
        error = e.what();
        failed = true;
      }
    }
    writing.clear();
    if (flush_now) next_flush = Clock::now() + period;
    lock.lock();
    if (flush_now) flush_done = request;
    written.notify_all();
    if (last && handed.frames() == 0) return;
  }
}

// Rows before the offsets that point at them, and the frame's time last: a reader that sees
// a frame (by its time) finds all its rows, whatever a crash cut short.
void RunWriter::Impl::write(Batch& b) {
  if (options.record_problems) {
    append(entries, entry_type.get(), b.entries.size(), b.entries.data());
    append(problem_q, H5T_NATIVE_DOUBLE, b.q.size(), b.q.data());
    append(problem_z, H5T_NATIVE_DOUBLE, b.z.size(), b.z.data());
    append(block_starts, H5T_NATIVE_INT32, b.block_starts.size(), b.block_starts.data());
    append(entry_offset, H5T_NATIVE_INT64, b.entry_end.size(), b.entry_end.data());
    append(block_offset, H5T_NATIVE_INT64, b.block_end.size(), b.block_end.data());
    append(problem_offset, H5T_NATIVE_INT64, b.problem_end.size(), b.problem_end.data());
    append(problem_free_rows, H5T_NATIVE_INT32, b.free_rows.size(), b.free_rows.data());
  }
  append(sm_trap_members, H5T_NATIVE_INT32, b.trap_members.size(), b.trap_members.data());
  append(sm_trap_member_offset, H5T_NATIVE_INT64, b.trap_member_end.size(),
         b.trap_member_end.data());
  append(sm_traps, sm_trap_type.get(), b.traps.size(), b.traps.data());
  append(sm_trap_offset, H5T_NATIVE_INT64, b.trap_end.size(), b.trap_end.data());
  append(contacts, contact_type.get(), b.contacts.size(), b.contacts.data());
  append(groups, group_type.get(), b.groups.size(), b.groups.data());
  append(members, H5T_NATIVE_INT32, b.members.size(), b.members.data());
  append(group_offset, H5T_NATIVE_INT64, b.group_end.size(), b.group_end.data());
  append(member_offset, H5T_NATIVE_INT64, b.member_end.size(), b.member_end.data());
  append(history, H5T_NATIVE_DOUBLE, b.history.size(), b.history.data());
  append(history_offset, H5T_NATIVE_INT64, b.history_end.size(), b.history_end.data());
  append(attempts, attempt_type.get(), b.attempts.size(), b.attempts.data());
  append(attempt_offset, H5T_NATIVE_INT64, b.attempt_end.size(), b.attempt_end.data());
  append(contact_offset, H5T_NATIVE_INT64, b.contact_end.size(), b.contact_end.data());
  append(solver, solver_type.get(), b.solver.size(), b.solver.data());
  append(settings_rows, settings_type.get(), b.settings_rows.size(), b.settings_rows.data());
  append(settings_frame, H5T_NATIVE_INT64, b.settings_frame.size(), b.settings_frame.data());
  append(force, H5T_NATIVE_DOUBLE, b.frames(), b.force.data());
  append(torque, H5T_NATIVE_DOUBLE, b.frames(), b.torque.data());
  append(twist, H5T_NATIVE_DOUBLE, b.frames(), b.twist.data());
  append(pose, H5T_NATIVE_DOUBLE, b.frames(), b.pose.data());
  append(step, H5T_NATIVE_INT64, b.frames(), b.step.data());
  append(time, H5T_NATIVE_DOUBLE, b.frames(), b.time.data());
}

void RunWriter::Impl::shutdown() {
  if (closed) return;
  closed = true;
  if (worker.joinable()) {
    {
      std::unique_lock lock(mutex);
      hand_off(lock);
      stop = true;
    }
    wake.notify_one();
    worker.join();
  }
  h5::silence_errors();
  for (Column* c :
       {&time,           &step,           &pose,           &twist,        &solver,
        &contact_offset, &contacts,       &attempt_offset, &attempts,     &history_offset,
        &history,        &problem_offset, &problem_q,      &problem_z,    &problem_free_rows,
        &entry_offset,   &entries,        &block_offset,   &block_starts, &force,
        &torque,         &settings_frame, &settings_rows,  &group_offset, &groups,
        &member_offset,  &members,        &sm_trap_offset, &sm_traps,     &sm_trap_member_offset,
        &sm_trap_members})
    c->dataset.reset();
  // Only a file this writer created and wrote is marked: creation may have failed on a file
  // that exists (a user's, never to be touched).
  const bool written = static_cast<bool>(file);
  if (file && H5Fclose(file.get()) < 0 && error.empty())
    error = "cannot close (" + h5::last_error() + ")";
  file = h5::Handle();  // already closed (or failed): do not close twice
  // Said once the file is whole (SWMR writing creates no attribute): a reader then knows how
  // many frames every column must hold, and takes fewer for damage, not for a killed writer.
  if (written && error.empty()) {
    const h5::Handle whole = h5::file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    const h5::Handle g =
        whole ? h5::group(H5Gopen2(whole.get(), "/frames", H5P_DEFAULT)) : h5::Handle();
    if (!g) {
      error = "cannot mark the file complete (" + h5::last_error() + ")";
    } else {
      try {
        h5::write_attribute(g.get(), L::kClosedFrameCount, std::int64_t{frames});
      } catch (const h5::Failure& e) {
        error = std::string("cannot mark the file complete (") + e.what() + ")";
      }
    }
  }
}

RunWriter::RunWriter(const std::filesystem::path& file, const RunHeader& header,
                     const State& initial, const RunWriterOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = file;
  impl_->options = options;
  if (initial.bodies.size() != header.bodies.size())
    throw RunFileError(impl_->where("the initial state has " +
                                    std::to_string(initial.bodies.size()) + " bodies, the model " +
                                    std::to_string(header.bodies.size())));
  impl_->create(header);
  impl_->filling.reserve(impl_->bodies, 2 * kBatchBytes);
  impl_->handed.reserve(impl_->bodies, 2 * kBatchBytes);
  impl_->add(initial, nullptr);
  impl_->worker = std::thread([impl = impl_.get()] { impl->run(); });
#ifdef SCHED_BATCH
  // Batch scheduling: when the writer wakes on a busy machine it does not preempt the
  // stepping thread (a woken thread normally does, and compressing a batch takes ms). It
  // keeps its fair share of CPU; only its wake-up priority drops. No privileges needed.
  const sched_param param{};
  pthread_setschedparam(impl_->worker.native_handle(), SCHED_BATCH, &param);
#endif
  flush();  // frame 0 is on disk before the first step
}

RunWriter::~RunWriter() = default;

void RunWriter::on_step(const Model&, const State& state, const StepReport& report) {
  if (impl_->closed) throw RunFileError(impl_->where("recording after close"));
  if (impl_->failed) {
    std::lock_guard lock(impl_->mutex);
    throw RunFileError(impl_->where(impl_->error));
  }
  impl_->add(state, &report);
  impl_->try_hand_off();
}

void RunWriter::flush() {
  Impl& m = *impl_;
  if (m.closed) return;
  std::unique_lock lock(m.mutex);
  m.hand_off(lock);
  const std::uint64_t request = ++m.flush_requested;
  m.wake.notify_one();
  m.written.wait(lock, [&] { return m.flush_done >= request; });
  if (!m.error.empty()) throw RunFileError(m.where(m.error));
}

void RunWriter::close() {
  Impl& m = *impl_;
  if (m.closed) return;
  m.shutdown();
  if (!m.error.empty()) throw RunFileError(m.where(m.error));
}

std::int64_t RunWriter::frames() const {
  return impl_->frames;
}
const std::filesystem::path& RunWriter::file() const {
  return impl_->path;
}

}  // namespace pegsim
