// StepReport: the single thing observers (CLI, recorder, GUI) see of a step.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/contact_models/sm_traps.hpp"
#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/math.hpp"
#include "engine/core/settings.hpp"
#include "engine/formulation/implicit_step.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

struct StepTimings {
  double detect = 0.0;     // broad + narrow phase, s
  double formulate = 0.0;  // assembling the complementarity problem, s
  double solve = 0.0;      // every solver attempt together (every leaf of a primary search), s
  double integrate = 0.0;  // velocity and position update, s
};

// One joint at the end of a step (after the joint correction, if on): plain numbers for
// plots, the inspector and run files.
struct JointStepReport {
  double angle = 0.0;           // rad, joint_coordinates (revolute, cylindrical)
  double displacement = 0.0;    // m, joint_coordinates (prismatic, cylindrical)
  double position_error = 0.0;  // m, joint_error: origins apart along the constrained axes
  double angle_error = 0.0;     // rad, joint_error: rotation about the constrained axes
  double velocity_error = 0.0;  // ||G^T nu|| over the joint's rows (m/s and rad/s together)
  // Impulses of the joint's limit stops this step, signed as the coordinate they push
  // (+ from the lower bound, - from the upper): N m s on the angle, N s on the displacement.
  double angle_limit_impulse = 0.0;
  double displacement_limit_impulse = 0.0;
  // The effort of the joint's implicit PD drives over the step (joint_drives.hpp), N m on the
  // angle or N on the displacement, positive along the coordinate; 0 without one (an explicit
  // controller's effort is part of applied_force / applied_torque).
  double drive_effort = 0.0;
};

// What a step came to, apart from its per-contact data: the solve, the checks of the answer,
// the joint correction. Simulator::step starts each step from StepOutcome{}.
struct StepOutcome {
  int problem_size = 0;    // LCP (or NCP) dimension (0: no enforced contact, no solve)
  SolveReport solve;       // the answer that was used
  bool fell_back = false;  // the first solver did not answer (also on a step
                           // solved only without its X-constraints)
  bool failed = false;     // no solver answered; see failure
  // No solver answered within Settings::time_budget: the step went on with the best answer
  // found (solve.residual says how far from exact it is).
  bool time_budget_spent = false;
  // Settings::iteration_budget: the chain's solvers stopped at max_iterations, and the step
  // went on with the best answer (approximate, as above).
  bool iteration_budget_spent = false;
  // Geometrically implicit: the steps the step was taken as, where Newton found no answer at h
  // (halved down to h / 8, implicit_step.hpp; fell_back is then set and solve.message says so).
  int substeps = 1;
  std::string failure;
  // -min(0, gap) over the constraints, m: a U-constraint's gap, the largest gap of an I- or
  // X-constraint's contacts (the max of (4.1) that it keeps >= 0).
  double max_penetration = 0.0;
  int joint_limit_rows = 0;  // joint-limit rows in the LCP (after the contacts')
  // X-constraints (thesis §4.2.3) dropped because no solver answered the step with them, or
  // because the answer with them added far more kinetic energy than an estimate of what its
  // overlaps need (cross_energy_refused below); the step was then solved without them and
  // `constraints` lists what it kept.
  int dropped_cross_constraints = 0;
  // The energy check of the step's first answer when its problem had X-constraints (both 0
  // otherwise): the kinetic energy the answer added to its worst set of bodies and the estimate
  // of what removing that set's overlaps needs, J; refused when gain > kCrossEnergyMargin * need,
  // the step then solved without its X-constraints (dropped_cross_constraints > 0).
  double cross_energy_gain = 0.0;
  double cross_energy_need = 0.0;
  bool cross_energy_refused = false;
  // Settings::primaries = several (dynamics/primary_search.hpp): the single-primary LCPs the
  // step's search solved (0: no I-constraint had a primary to move), the I-constraints whose
  // primary is not the thesis' largest-gap choice, and whether no leaf met (4.13) within
  // kMaxPrimaryLeaves (the step then took the leaf closest to it; `constraints` lists each
  // group's primary as used).
  int primary_leaves = 0;
  int primaries_moved = 0;
  bool primary_search_unresolved = false;
  // Thesis Alg. 1 (Settings::joint_correction): iterations of its position and velocity loops.
  int correction_position_iterations = 0;
  int correction_velocity_iterations = 0;
  // The step's LCP and the z it used (on a failed step: the last attempt's z); null when
  // nothing was solved. They point into the simulator's workspaces, so a step allocates
  // nothing for them: valid until the next step, observers copy what they keep.
  const Lcp* lcp = nullptr;
  const VecX* solution = nullptr;
  // Formulation ncp: the step's NCP (lcp stays null: no LCP was solved, and run files record
  // no problem for the step).
  const Ncp* ncp = nullptr;
};

struct StepReport : StepOutcome {
  double time = 0.0;      // simulated time at the end of the step
  std::int64_t step = 0;  // index of the step just taken (1 for the first)
  // The settings the step ran with: the simulator's own, valid until the next step or
  // set_settings (observers copy what they keep; a recorder compares it with the last one).
  const Settings* settings = nullptr;
  // Per body: the external wrench (Simulator::apply_wrench, world frame) the step applied.
  // The engine clears it once the step is taken, so this is where observers find it; the
  // vectors are reused from step to step.
  std::vector<Vec3> applied_force;   // N
  std::vector<Vec3> applied_torque;  // N m
  // Every contact within epsilon at the start of the step, then those the contact model added
  // (PEG: contacts of the faces and edges around a vertex, see peg_model.hpp).
  std::vector<Contact> contacts;
  // The contact model's constraints over `contacts` (settings->contact_model): U-, I- and
  // X-constraints, each group's primary first, with the impulse of each group.
  ConstraintSet constraints;
  std::vector<char> enforced;          // per contact: 1 if it entered the problem
  std::vector<int> duplicate_of;       // per contact: the enforced contact it repeats, or -1
  std::vector<double> normal_impulse;  // per contact: p_n summed over the groups it is
                                       // primary of, N s (0 if it carries no force)
  std::vector<Vec3> friction_impulse;  // per contact: world-frame sum of p_f,j d_j, N s
  std::vector<char> sliding;           // per contact: 1 if the slip speed s (NCP: sigma) > 0
  // Per enforced frictional contact: t0, the first friction direction d_1 of its cone (the
  // others are t0 turned about the normal by 2 pi j / n_d; NCP: t, with o = n x t); zero for
  // a contact not enforced or without friction rows. See formulation/friction_basis.hpp.
  std::vector<Vec3> friction_basis;
  // Per contact: the torsional friction impulse about the normal on B, N m s (volumetric
  // contacts' Coulomb spin columns, ContactProblem::spin; 0 for the others).
  std::vector<double> torsional_impulse;
  // Per contact: its stiction bristle's stretch at the end of the step (volumetric contacts with
  // a stick_stiffness, Simulator's anchors; world frame, m), zero for the others; empty under
  // the other contact models or after a failed step.
  std::vector<Vec3> stick_stretch;
  // Per contact under the geometrically implicit formulation (seed 001): the pair's unknowns
  // at the end of the step (a2, l1, l2, sigma, p_r, a quasi-rigid shell's delta_n and p_nr);
  // empty under the others.
  std::vector<ImplicitContact> implicit;
  std::vector<SolveReport> attempts;  // every solver tried, in fallback order (leaf after
                                      // leaf in a primary search)
  // SM traps among this step's contacts (contact_models/sm_traps.hpp, thesis Fig. 4.1, 5.13),
  // found whichever model runs the step: one per trapped feature; trap t's contacts are
  // sm_trap_contacts[t.first, t.first + t.count) (indices into `contacts`).
  std::vector<SmTrap> sm_traps;
  std::vector<int> sm_trap_contacts;
  std::vector<JointStepReport> joints;  // per joint of the model
  StepTimings timings;
};

}  // namespace pegsim
