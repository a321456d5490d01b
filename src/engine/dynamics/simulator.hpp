// The simulator: owns the state and runs the step as stages (docs/architecture.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/collision/broad_phase.hpp"
#include "engine/collision/overlap_contacts.hpp"
#include "engine/collision/volume_contacts.hpp"
#include "engine/contact_models/contact_manifold.hpp"
#include "engine/controllers/controller.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/dynamics/cross_energy.hpp"
#include "engine/dynamics/implicit_stage.hpp"
#include "engine/dynamics/joint_correction.hpp"
#include "engine/dynamics/primary_search.hpp"
#include "engine/dynamics/step_report.hpp"
#include "engine/formulation/stewart_trinkle.hpp"
#include "engine/solvers/solver.hpp"

namespace pegsim {

// Observers see every completed step (the recorder, the GUI, the CLI's statistics).
class StepObserver {
 public:
  virtual ~StepObserver() = default;
  virtual void on_step(const Model& model, const State& state, const StepReport& report) = 0;
};

class Simulator {
 public:
  // Throws std::invalid_argument if the state does not match the model, a controller names a
  // joint or body the model lacks, or the settings are unusable (see check_settings). Runs the
  // model's built-in controllers (Model::controllers) at the start of every step.
  Simulator(Model model, State initial, Settings settings);

  const Model& model() const { return model_; }
  const State& state() const { return state_; }
  const Settings& settings() const { return settings_; }
  // Takes effect at the next step. Throws std::invalid_argument for unusable settings.
  void set_settings(const Settings& settings);
  // Settings::time_budget alone, from the next solve on (live play's budget: nothing else of
  // the settings, nor the solvers' workspaces, changes). Throws std::invalid_argument if < 0.
  void set_time_budget(double seconds);
  // Assemble each step's M in full even when the solver reads only its diagonal blocks
  // (Lcp::blocks_only), so that StepReport::lcp is the whole problem (recording problems).
  void set_full_problems(bool full);
  // External force/torque (world frame) applied during the next step only.
  void apply_wrench(int body, const Vec3& force, const Vec3& torque);
  // Replaces (rather than adds to) the wrench of the next step: a replay sets the recorded
  // wrench bit for bit, whatever a failed step left pending.
  void set_wrench(int body, const Vec3& force, const Vec3& torque);
  // A user controller, run at the start of every step after the built-in ones (stage 1); the
  // wrenches it adds are part of the step's applied wrench (StepReport::applied_force), so a
  // replay of a recorded run needs no controller.
  void add_controller(std::unique_ptr<Controller> controller);
  // Advances one step of settings().h. On failure (no solver answered, or a non-finite
  // state) the state is left unchanged under FailurePolicy::Stop and report.failed is set.
  const StepReport& step();
  const StepReport& last_report() const { return report_; }
  void reset();  // back to the initial state

  void add_observer(StepObserver* observer) { observers_.push_back(observer); }
  void remove_observer(StepObserver* observer);

 private:
  // The stages of step(), in order (docs/architecture.md, "The step").
  void keep_applied_wrench();  // the wrench of this step, for observers (report_)
  void find_contacts();        // stages 2-3 and the SM traps among the contacts
  // Stages 5-6: the constraint problem assembled and solved (through the fallback chain, the
  // X-constraint guard and the primary search) into velocity_, or the free motion.
  void formulate_and_solve();
  void check_new_velocities();  // report_.failed when velocity_ cannot be integrated
  void integrate();             // stage 7, with the joint correction
  // The fallback chain on `problem`, warm-started from warm_keys_: z_, report_.solve and the
  // impulses (fill_impulses), or report_.failed.
  void solve(ContactProblem& problem);
  // solve(problem_), then velocity_ from the answer if a solver gave one; an answer with
  // X-constraints that fails cross_energy_holds counts as failed. An answer kept is
  // remembered for the next warm start.
  void solve_problem();
  // warm_keys_, warm_values_ and warm_basis_ from z_, the answer of `problem`.
  void remember_warm_start(const ContactProblem& problem);
  // Thesis §4.2.3 (cross_energy.hpp): false, and the step marked failed, if the answer of a
  // problem with X-constraints adds more kinetic energy to a set of bodies than
  // kCrossEnergyMargin times the estimate of what removing that set's overlaps needs.
  bool cross_energy_holds();
  // problem_ assembled afresh from report_.constraints and solved, the last failure forgotten.
  void assemble_and_solve();
  // Settings::primaries = several: the search of primary_search.hpp over report_.constraints'
  // I-constraints, each leaf assembled and solved into problem_, z_ and velocity_.
  void search_primaries();
  void solve_leaf();
  // (4.13) per searched group of the solved leaf (leaf_violation_), and their sum (infinite
  // for a leaf no solver answered).
  double leaf_violations();
  // After a failed solve (no solver answered, or cross_energy_holds refused the answer):
  // removes the step's X-constraints from report_.constraints; false if it had none.
  bool drop_cross_constraints();
  // report_.enforced and max_penetration from report_.constraints.
  void mark_enforced();
  // held_[b] = 1 for a body that an enforced contact or a joint holds this step: it turns by
  // its solved w (integrate_positions).
  void mark_held();
  void fill_impulses(const ContactProblem& problem, const Eigen::Ref<const VecX>& z);
  void run_controllers();
  void restore_pending_wrench();  // a failed step's wrenches back as they were before stage 1
  void report_joints(const ContactProblem& problem, const VecX& z);

  Model model_;
  State initial_;
  State state_;
  Settings settings_;
  double implicit_margin_ = 0.0;  // implicit_broad_margin of the model under settings_
  std::vector<std::unique_ptr<Solver>> chain_;  // settings_.solver then its fallbacks
  bool full_problems_ = false;                  // set_full_problems
  void choose_assembly();                       // problem_.want_blocks_only from the chain
  std::vector<StepObserver*> observers_;
  std::vector<std::unique_ptr<Controller>> controllers_;

  // Workspaces reused from step to step.
  BroadPhase broad_;
  ImplicitStage implicit_;  // Formulation::GeometricallyImplicit: the pairs' warm starts
  OverlapContactWorkspace overlap_work_;
  VolumeContactWorkspace volume_work_;
  // Stiction bristles' stretches carried from step to step, per part pair (formulation
  // stewart_trinkle.hpp, stick_pull): set on the contacts found, renewed by an accepted step.
  struct Anchor {
    int body_a, body_b, part_a, part_b;
    Vec3 stretch;
  };
  std::vector<Anchor> anchors_;
  void attach_anchors();
  void renew_anchors();
  ContactProblem problem_;
  std::vector<int> scratch_, primaries_;
  ManifoldScratch manifold_;
  ConstraintSet kept_constraints_;  // drop_cross_constraints's workspace
  CrossEnergyWorkspace energy_work_;
  // cross_energy_holds's figures for the last answer solve_problem checked ({0, 0} if it had
  // no X-constraints or no answer), and whether it refused that answer.
  CrossEnergy energy_;
  bool energy_refused_ = false;
  PrimarySearch search_;
  std::vector<int> best_choice_;
  std::vector<double> end_rate_, leaf_violation_;
  SmTrapWorkspace trap_workspace_;
  VecX z_, best_z_, velocity_;
  std::vector<char> held_;
  std::vector<Vec3> pending_force_,
      pending_torque_;  // wrenches before the controllers added theirs
  JointCorrectionWorkspace correction_;
  std::vector<double> joint_position_error_, joint_velocity_error_;
  bool used_mixed_ = false;  // z_ answers problem_.mixed (joints as free rows), not problem_.lcp
  StepReport report_;
  // Warm start: impulses of the previous step, keyed by the contact's bodies and features.
  struct WarmEntry {
    int body_a, body_b, kind_a, index_a, kind_b, index_b;
    int offset;
    int part_a, part_b;  // compound parts (-1 otherwise)
  };
  std::vector<WarmEntry> warm_keys_;
  VecX warm_values_;
  int warm_block_ = 0;  // the block size warm_values_ was stored with
  // The answering solver's final basis (per variable of the previous step), if it had one,
  // and its mapping onto this step's variables.
  std::vector<char> warm_basis_, warm_basis_in_;
};

// Returns an empty string if the settings are usable, else what is wrong (one line).
std::string check_settings(const Settings& settings);
// The same, and whether they suit the model: a planar (2D) model needs friction_directions = 2.
std::string check_settings(const Settings& settings, const Model& model);

}  // namespace pegsim
