// What a run file holds, as the reader returns it (format: docs/run-format.md).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/body.hpp"
#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/controller_spec.hpp"
#include "engine/core/joint.hpp"
#include "engine/core/math.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/shape.hpp"
#include "engine/core/state.hpp"
#include "engine/dynamics/step_report.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

// One convex part of a compound body: its pose in the body frame, and its geometry in its own
// frame (a sphere's radius, or a polytope's vertices and faces as in RunBody).
struct RunPart {
  ShapeKind kind = ShapeKind::Polytope;
  double radius = 0.0;
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  std::vector<Vec3> vertices;
  std::vector<std::vector<int>> faces;
};

// The resolved geometry and mass properties of one body (body frame, CoM at the origin).
struct RunBody {
  std::string name;
  ShapeKind kind = ShapeKind::Sphere;
  double radius = 0.0;         // sphere or circle radius, m
  std::vector<Vec3> vertices;  // polytope vertices; polygon vertices (x, y, 0), m
  // Polytope faces: vertex indices, CCW from outside; a polygon has one face, its vertices
  // 0..n-1 in order (CCW seen from +z), edge e joining vertices e and e + 1.
  std::vector<std::vector<int>> faces;
  std::vector<RunPart> parts;  // a compound's parts (empty for other shapes)
  std::array<float, 4> color{0.7f, 0.7f, 0.7f, 1.0f};
  bool visible = true;
  bool is_static = false;
  double mass = 0.0;                // kg
  Mat3 inertia = Mat3::Identity();  // body-frame inertia about the CoM, kg m^2
  double mu = 0.0;
  std::vector<int> no_collide;
  double appear_time = 0.0;          // s; absent before (/bodies/appear_time, 0 when absent)
  QuasiRigidShell shell;             // /bodies/shell (rigid when absent)
  double torsion_radius = 0.0;       // m (/bodies/torsion_radius, 0 when absent)
  FrictionEllipse friction_ellipse;  // /bodies/friction_ellipse (isotropic when absent)
  SupportFriction support;           // /bodies/support_friction (none when absent)
  VolumetricLayer layer;             // /bodies/volumetric_layer (the defaults when absent)
  std::shared_ptr<const VisualMesh> visual;  // /bodies/visual_* (none when absent)
};

// Everything that does not change from frame to frame.
struct RunHeader {
  int format_version = 0;
  std::string program;
  std::string created;  // UTC, ISO 8601
  std::string scene_name;
  int dimension = 3;            // 2: a planar scene (attribute "dimension"; 3 when absent)
  std::string scene_json;       // Scene::source, verbatim
  std::string scene_directory;  // folder of the scene file when recorded (resolves mesh paths)
  Settings settings;            // as at the start of the run (after command-line overrides)
  std::vector<RunBody> bodies;
  std::vector<Joint> joints;  // /joints (absent in files of runs without joints)
  // /joint_drives: the implicit PD drives (rows of every step's problem, so a replay needs
  // them); explicit controllers are recorded as the frames' wrenches instead.
  std::vector<PdJointSpec> drives;
  std::vector<std::string> solver_names;
};

// The settings changed before a step: in force from frame `frame` on (until the next change).
struct SettingsChange {
  std::int64_t frame = 0;
  Settings settings;
};

struct RecordedContact {
  Contact contact;
  bool enforced = false;
  int duplicate_of = -1;                 // the enforced contact of the frame it repeats
  double normal_impulse = 0.0;           // N s
  Vec3 friction_impulse = Vec3::Zero();  // N s, world frame
  bool sliding = false;
  Vec3 friction_basis = Vec3::Zero();  // t0 of the friction cone (zero: none recorded)
  // The geometrically implicit step's unknowns at the end of the step (seed 001, run-format.md);
  // under the other formulations point_b = point_a + gap normal and the rest 0.
  Vec3 point_b = Vec3::Zero();      // a2, world, m
  Vec2 multipliers = Vec2::Zero();  // l1, l2
  double slip_measure = 0.0;        // sigma, m/s
  double torsional_impulse = 0.0;   // p_r, N m s
  double deflection = 0.0;          // delta_n of a quasi-rigid shell, m
  double core_impulse = 0.0;        // p_nr, the rigid core's share of normal_impulse, N s
  // delta_t t + delta_o o of a shell, or a volumetric contact's bristle stretch, world, m.
  Vec3 tangential_deflection = Vec3::Zero();
};

struct RecordedAttempt {
  std::string solver;
  SolveStatus status = SolveStatus::NumericalFailure;
  int iterations = 0;
  double residual = 0.0;
  double seconds = 0.0;
  std::vector<double> residual_history;
};

struct RecordedSolve {
  int problem_size = 0;               // 0: no enforced contact, nothing solved
  std::string solver;                 // that answered (or gave the best answer); "" if none
  std::optional<SolveStatus> status;  // of that answer
  int iterations = 0;
  double residual = 0.0;
  int answer = -1;  // index into attempts, -1: none
  bool fell_back = false;
  bool failed = false;
  double max_penetration = 0.0;  // m
  StepTimings timings;
  std::vector<RecordedAttempt> attempts;  // filled by RunReader::frame, not by solver_reports
};

// The complementarity problem of one recorded step (RunWriterOptions::record_problems):
// the first `free_rows` rows of z are free (equalities), the rest complementary. The LCP of
// the Stewart-Trinkle stepper has none; the count is there for mixed LCPs.
struct RecordedProblem {
  Lcp lcp;  // M, q and block_starts; size 0 when the step solved nothing
  VecX z;   // the answer the step used (on a failed step, the last attempt's z)
  int free_rows = 0;
};

// One frame: frame 0 is the initial state, frame k the state after the k-th recorded step.
struct RunFrame {
  std::int64_t index = 0;
  double time = 0.0;
  std::int64_t step = 0;
  // Pose, twist and the external wrench the step applied (force, torque; zero in frame 0
  // and in files recorded before wrenches were).
  std::vector<BodyState> bodies;
  std::vector<RecordedContact> contacts;
  // The contact model's U-, I- and X-constraints over `contacts` (empty in files written
  // before they were recorded).
  ConstraintSet constraints;
  RecordedSolve solve;
  // SM traps of the step, as StepReport has them: trap t's contacts are
  // sm_trap_contacts[t.first, t.first + t.count) (indices into `contacts`). Empty in files
  // recorded before traps were.
  std::vector<SmTrap> sm_traps;
  std::vector<int> sm_trap_contacts;
};

}  // namespace pegsim
