// Run file format version 1 (docs/run-format.md): object names, the rows of its compound
// datasets and their HDF5 types. Shared by the writer and the reader; private to src/io.
#pragma once

#include <cstdint>

#include "io/hdf5_handle.hpp"

namespace pegsim::run_layout {

inline constexpr int kFormatVersion = 1;
inline constexpr const char* kFormatName = "pegsim-run";

// Per-frame datasets (first dimension = frame, unlimited, chunked, deflated).
inline constexpr const char* kTime = "/frames/time";
inline constexpr const char* kStep = "/frames/step";
inline constexpr const char* kPose = "/frames/pose";    // [N, B, 7]: x y z qw qx qy qz
inline constexpr const char* kTwist = "/frames/twist";  // [N, B, 6]: vx vy vz wx wy wz
inline constexpr const char* kSolver = "/frames/solver";
// Per body: the external wrench the step applied (world frame); zero in frame 0. Files
// written before they existed lack them (the reader then returns zeros).
inline constexpr const char* kForce = "/frames/force";    // [N, B, 3], N
inline constexpr const char* kTorque = "/frames/torque";  // [N, B, 3], N m
// Settings changed during the run: row i holds the full settings in force from frame
// frame[i] on (until the next row); frames before the first row use /settings.
inline constexpr const char* kSettingsLog = "/settings_log";
inline constexpr const char* kSettingsLogFrame = "/settings_log/frame";
inline constexpr const char* kSettingsLogRows = "/settings_log/settings";
// Variable-length per-frame data: rows and an offset table of N + 1 entries.
inline constexpr const char* kContactOffset = "/frames/contact_offset";
inline constexpr const char* kContacts = "/frames/contacts";
inline constexpr const char* kAttemptOffset = "/frames/attempt_offset";
inline constexpr const char* kAttempts = "/frames/attempts";
// Offsets per attempt (A + 1 entries) into the residual history rows.
inline constexpr const char* kHistoryOffset = "/frames/history_offset";
inline constexpr const char* kHistory = "/frames/residual_history";
// The contact model's constraint groups (U, I, X; absent in files written before them):
// group rows with an offset table, and the member contacts (indices into the frame's
// contacts) with their own offset table; a group's `first` counts from its frame's members.
inline constexpr const char* kGroupOffset = "/frames/constraint_group_offset";
inline constexpr const char* kGroups = "/frames/constraint_groups";
// Attribute of /frames written when the writer closed the file whole: its frame count.
inline constexpr const char* kClosedFrameCount = "closed_frame_count";
inline constexpr const char* kMemberOffset = "/frames/constraint_member_offset";
inline constexpr const char* kMembers = "/frames/constraint_members";
// Optional (RunWriterOptions::record_problems): each step's LCP and its z. Rows of q and z
// (and the free-row count) per frame; M as sparse (row, col, value) entries; block starts.
inline constexpr const char* kProblemOffset = "/frames/problem_offset";
inline constexpr const char* kProblemQ = "/frames/problem_q";
inline constexpr const char* kProblemZ = "/frames/problem_z";
inline constexpr const char* kProblemFreeRows = "/frames/problem_free_rows";
inline constexpr const char* kProblemEntryOffset = "/frames/problem_entry_offset";
inline constexpr const char* kProblemEntries = "/frames/problem_entries";
inline constexpr const char* kProblemBlockOffset = "/frames/problem_block_offset";
inline constexpr const char* kProblemBlockStarts = "/frames/problem_block_starts";

// SM traps (thesis Fig. 4.1, 5.13): rows per frame with an offset table, and per trap the
// contacts (indices within the frame) that trap it, with an offset table per trap. Files
// written before they existed lack them (the reader then returns no traps).
inline constexpr const char* kSmTrapOffset = "/frames/sm_trap_offset";
inline constexpr const char* kSmTraps = "/frames/sm_traps";
inline constexpr const char* kSmTrapMemberOffset = "/frames/sm_trap_member_offset";
inline constexpr const char* kSmTrapMembers = "/frames/sm_trap_members";

// One contact of one frame.
struct ContactRow {
  std::int32_t body_a, body_b;
  std::int32_t index_a, index_b;  // feature index in the body's polytope, -1 for sphere/plane
  std::int32_t duplicate_of;      // the enforced contact (index in the frame) it repeats, -1
  std::int8_t kind_a, kind_b;     // FeatureKind
  std::uint8_t applicable, feasible, primary, enforced, sliding;
  double point[3];   // world point on A, m
  double normal[3];  // unit, from A onto B
  double gap;        // m, positive when separated
  double applicability;
  double normal_impulse;        // N s
  double friction_impulse[3];   // N s, world frame
  double friction_basis[3];     // t0 of the friction cone, world frame; zero if none
  std::int32_t part_a, part_b;  // part of a compound body, -1 for other shapes
  // The geometrically implicit step's unknowns (seed 001); under the other formulations
  // point_b = point + gap normal and the rest 0.
  double point_b[3];         // world point on B, m (a2)
  double multipliers[2];     // l1, l2 of (15)-(18)
  double slip_measure;       // sigma, m/s
  double torsional_impulse;  // p_r, N m s
  double deflection;         // delta_n of a quasi-rigid shell, m
  double core_impulse;       // p_nr: the rigid core's share of normal_impulse, N s
  // delta_t t + delta_o o of a tangential shell, or a volumetric contact's bristle stretch at
  // the end of the step (seed 002 (3.4)), world, m.
  double tangential_deflection[3];
  // A volumetric contact's common volume (planar: area) and -dV/dd (m^2; planar: m); else 0.
  double volume;
  double volume_rate;
};

// One constraint group of one frame: members [first, first + count) of the frame, the
// primary first.
struct GroupRow {
  std::int32_t first, count;
  std::int8_t kind;  // ConstraintKind
  double impulse;    // normal impulse of the primary, N s
};

// The solver report of one frame (step).
struct SolverRow {
  std::int32_t problem_size;  // LCP rows, 0 when nothing was solved
  std::int32_t iterations;    // of the answer
  std::int32_t answer;        // index of the answer among this frame's attempts, -1: none
  std::int8_t solver;         // index into the solver_names attribute, -1: none
  std::int8_t status;         // SolveStatus of the answer, -1: none
  std::uint8_t fell_back, failed;
  double residual;         // natural-map residual of the answer
  double max_penetration;  // m, over enforced contacts
  double detect_seconds, formulate_seconds, solve_seconds, integrate_seconds;
};

// One solver attempt of one frame, in fallback order.
struct AttemptRow {
  std::int32_t iterations;
  std::int8_t solver;
  std::int8_t status;
  double residual;
  double seconds;
};

// One nonzero of a recorded LCP matrix M (row and column within the frame's problem).
struct EntryRow {
  std::int32_t row, col;
  double value;
};

// One SM trap of one frame: the trapped feature and the body whose facets trap it.
struct SmTrapRow {
  std::int32_t body, other_body;
  std::int32_t index;  // feature index in the body's polytope
  std::int8_t kind;    // FeatureKind: vertex or edge
};

// The types of the structs above (native layout, used in memory and in the file).
// Without duplicate_of (or part_a/part_b): the contact rows of files written before that
// field existed.
h5::Handle contact_type(bool with_duplicate_of = true, bool with_parts = true,
                        bool with_friction_basis = true, bool with_implicit = true,
                        bool with_tangential_deflection = true, bool with_volume = true);
h5::Handle solver_type();
h5::Handle attempt_type();
h5::Handle entry_type();
h5::Handle sm_trap_type();
h5::Handle group_type();
h5::Handle shape_kind_type();
h5::Handle feature_kind_type();
h5::Handle status_type();

}  // namespace pegsim::run_layout
