// FrameSnapshot: an immutable copy of one frame (live step or recorded frame), the only thing
// the GUI thread sees of the simulation. Shared by pointer so history, view and panels agree.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/collision/aabb.hpp"
#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "engine/dynamics/step_report.hpp"
#include "engine/kinematics/joint_rows.hpp"
#include "io/run_data.hpp"

namespace pegsim::gui {

struct ContactSnapshot {
  int body_a = -1, body_b = -1;
  Feature feature_a, feature_b;  // that made the contact
  int part_a = -1, part_b = -1;  // the compounds' convex parts (Contact::part_a), else -1
  Vec3 point_a = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double gap = 0.0;
  bool primary = true;
  bool enforced = false;
  double normal_impulse = 0.0;           // N s
  Vec3 friction_impulse = Vec3::Zero();  // N s, world frame
  // Under the geometrically implicit formulation (seed 001) point_a and point_b are the
  // end-of-step closest points a1 and a2, and a quasi-rigid shell's deflection is known.
  bool implicit = false;
  Vec3 point_b = Vec3::Zero();
  double deflection = 0.0;  // delta_n, m
  // delta_t t + delta_o o, or a volumetric contact's bristle stretch, world, m.
  Vec3 tangential_deflection = Vec3::Zero();
  // A volumetric contact's common volume (planar: area), centred midway between its points, and
  // its torsional friction impulse about the normal on B (N m s).
  double volume = 0.0;
  double torsional_impulse = 0.0;

  // Total impulse on B (normal plus friction), world frame.
  Vec3 impulse() const { return normal_impulse * normal + friction_impulse; }
  // The contact's point on B: a2, or the point the gap reaches along the normal.
  Vec3 point_on_b() const { return implicit ? point_b : Vec3(point_a + gap * normal); }
};

struct SolveSummary {
  std::string solver;  // that answered; empty when nothing was solved
  int problem_size = 0;
  int iterations = 0;
  double residual = 0.0;
  bool fell_back = false;
  std::string fell_back_how;  // the answering solve's note (an implicit step taken in parts)
  bool failed = false;
  std::string failure;
  double seconds = 0.0;  // wall time of every solver attempt together
  // No solver answered, yet the step went on with the best answer found (residual above):
  // past the time budget (over_budget, of time_budget s; StepReport::time_budget_spent) or
  // under on_failure continue.
  bool approximate = false;
  bool over_budget = false;
  double time_budget = 0.0;
  // Settings::iteration_budget spent (StepReport::iteration_budget_spent): the solver stopped
  // after max_iterations, its answer taken as it was (the interactive preset).
  bool iteration_budget = false;
  int max_iterations = 0;
};

// A joint in this frame, as the engine measures it (thesis §2.2.3): its two frames in the
// world, how far they are apart along the constrained directions, and its free coordinate.
struct JointSnapshot {
  JointFrames frames;
  JointError error;
  JointCoordinates coordinates;
  // The step's implicit PD drive effort on the joint (StepReport): N m or N; NaN where unknown
  // (initial and recorded frames: run files do not store it).
  double drive_effort = std::numeric_limits<double>::quiet_NaN();
};

struct FrameSnapshot {
  std::int64_t step = 0;
  double time = 0.0;
  std::vector<BodyState> bodies;  // pose and twist; force/torque unused
  std::vector<ContactSnapshot> contacts;
  std::vector<Aabb> aabbs;            // per body, world frame, no margin (empty: absent)
  std::vector<char> absent;           // per body: not yet appeared (Body::appear_time)
  std::vector<JointSnapshot> joints;  // per joint of the model
  // The contact model's U-, I- and X-constraints over `contacts` (thesis §4.2), and the SM
  // traps among them (trap t's contacts: sm_trap_contacts[t.first, t.first + t.count)).
  ConstraintSet constraints;
  std::vector<SmTrap> sm_traps;
  std::vector<int> sm_trap_contacts;
  SolveSummary solve;
  // The settings the step ran with (0 and "" for an initial frame): what a change in the
  // Settings dock shows up as. A run file's frames carry the settings recorded for them.
  double h = 0.0;
  std::string configured_solver;
  std::string contact_model;  // "sm", ..., "volumetric" (to_string(ContactModel))
  std::string formulation;    // "stewart-trinkle", ..., "ncp" (to_string(Formulation))

  // Number of contacts touching `body` (as A or B).
  int contact_count(int body) const;
  bool has_enforced_contact(int body) const;
  // Indices into constraints.groups of the groups `contact` belongs to.
  std::vector<int> groups_of(int contact) const;
  // Whether `body` has appeared by this frame (absent bodies are not drawn nor picked).
  bool present(int body) const {
    return body < 0 || std::size_t(body) >= absent.size() || !absent[body];
  }
};

using FramePtr = std::shared_ptr<const FrameSnapshot>;
using ModelPtr = std::shared_ptr<const Model>;

// A frame from the simulator after a step (report describes that step, taken with `settings`;
// pass nullptrs for the initial state: no contacts, no solve).
FramePtr make_snapshot(const Model& model, const State& state, const StepReport* report,
                       const Settings* settings = nullptr);
// A frame of a recorded run, recorded with `settings`.
FramePtr make_snapshot(const Model& model, const RunFrame& frame,
                       const Settings* settings = nullptr);

}  // namespace pegsim::gui
