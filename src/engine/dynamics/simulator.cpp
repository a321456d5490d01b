// One step = detect contacts, build the constraints (contact model), formulate the
// Stewart–Trinkle LCP, solve it through the fallback chain, integrate (docs/architecture.md).
#include "engine/dynamics/simulator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "engine/collision/detect_contacts.hpp"
#include "engine/collision/overlap_contacts.hpp"
#include "engine/contact_models/contact_model.hpp"
#include "engine/contact_models/sm_traps.hpp"
#include "engine/controllers/make_controllers.hpp"
#include "engine/dynamics/implicit_stage.hpp"
#include "engine/dynamics/integrate.hpp"
#include "engine/formulation/constraint_problem.hpp"
#include "engine/formulation/coulomb_ncp.hpp"
#include "engine/formulation/joint_drives.hpp"

namespace pegsim {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A residual for a message: 2.4e-05, not the 0.000000 of std::to_string.
std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

bool same_key(const Contact& c, int ka, int ia, int kb, int ib) {
  return static_cast<int>(c.feature_a.kind) == ka && c.feature_a.index == ia &&
         static_cast<int>(c.feature_b.kind) == kb && c.feature_b.index == ib;
}

}  // namespace

std::string check_settings(const Settings& s) {
  if (!(s.h > 0.0) || !std::isfinite(s.h)) return "h must be a positive number of seconds";
  if (!s.gravity.allFinite()) return "gravity must be finite";
  if (!(s.epsilon >= 0.0) || !std::isfinite(s.epsilon)) return "epsilon must be >= 0";
  if (!(s.eps_theta >= -1.0 && s.eps_theta <= 1.0)) return "eps_theta must lie in [-1, 1]";
  if (!(s.feasibility_depth >= 0.0)) return "feasibility_depth must be >= 0";
  if (!(s.feasibility_angle >= 0.0 && s.feasibility_angle <= M_PI / 2))
    return "feasibility_angle must lie in [0, pi/2]";
  if (s.friction_directions < 1 || s.friction_directions > 64)
    return "friction_directions must be from 1 to 64";
  // The corrective impulse comes from the gap term psi / h alone (§5.2.3), which
  // anitescu-potra drops.
  if (s.contact_model == ContactModel::Corrective && s.formulation == Formulation::AnitescuPotra)
    return "contact_model corrective needs the gap term psi/h: use formulation "
           "stewart-trinkle or mixed-lcp, not anitescu-potra";
  // Its compliant normal rows are built into the LCP of (6.1) (stewart_trinkle.cpp) alone.
  if (s.contact_model == ContactModel::Volumetric && s.formulation != Formulation::StewartTrinkle &&
      s.formulation != Formulation::MixedLcp)
    return std::string(
               "contact_model volumetric needs formulation stewart-trinkle or mixed-lcp, "
               "not ") +
           to_string(s.formulation);
  if (!(s.tolerance > 0.0)) return "tolerance must be > 0";
  if (s.max_iterations < 1) return "max_iterations must be >= 1";
  if (!(s.time_budget >= 0.0 && std::isfinite(s.time_budget)))
    return "time_budget must be >= 0 s (0: no limit)";
  if (!(s.joint_position_tolerance > 0.0)) return "joint_position_tolerance must be > 0";
  if (!(s.joint_velocity_tolerance > 0.0)) return "joint_velocity_tolerance must be > 0";
  if (!make_solver(s.solver)) return "unknown solver '" + s.solver + "'";
  for (const std::string& f : s.fallbacks)
    if (!make_solver(f)) return "unknown fallback solver '" + f + "'";
  // The fallbacks that take only LCPs are skipped on the NCP; the first solver must take it.
  if (s.formulation == Formulation::Ncp && !make_solver(s.solver)->supports_ncp())
    return "solver '" + s.solver +
           "' solves only LCPs; formulation ncp (the quadratic cone) "
           "needs one of: " +
           ncp_solver_list();
  return {};
}

std::string check_settings(const Settings& s, const Model& model) {
  if (std::string why = check_settings(s); !why.empty()) return why;
  if (s.formulation == Formulation::GeometricallyImplicit) return implicit_step_defect(model);
  for (const Body& b : model.bodies)
    if (b.support.active())
      return "body '" + b.name +
             "' has support_friction, which only formulation geometrically-implicit models, not " +
             to_string(s.formulation);
  if (model.planar() && s.formulation != Formulation::Ncp && s.friction_directions != 2)
    return "friction_directions must be 2 in a planar (2D) model (+-t is the exact cone)";
  // The scene files' and the CLI's rule (io/scene_settings.hpp), for settings made elsewhere.
  if (!model.planar() && s.formulation != Formulation::Ncp && s.friction_directions < 3)
    return "friction_directions must be >= 3 in a 3D model (with 1 or 2 the linearized cone "
           "lies along one line: no friction across it)";
  return {};
}

Simulator::Simulator(Model model, State initial, Settings settings)
    : model_(std::move(model)), initial_(std::move(initial)) {
  if (initial_.bodies.size() != model_.bodies.size())
    throw std::invalid_argument("the state has " + std::to_string(initial_.bodies.size()) +
                                " bodies, the model " + std::to_string(model_.bodies.size()));
  const int nj = static_cast<int>(model_.joints.size());
  const int nb = static_cast<int>(model_.bodies.size());
  for (const PdJointSpec& c : model_.controllers.pd_joints) {
    if (c.joint < 0 || c.joint >= nj)
      throw std::invalid_argument("a PD controller names joint " + std::to_string(c.joint) +
                                  " of " + std::to_string(nj));
    const JointType type = model_.joints[c.joint].type;
    if (!has_free_angle(type) && !has_free_translation(type))
      throw std::invalid_argument("a PD controller drives joint " + std::to_string(c.joint) +
                                  ", a " + to_string(type) +
                                  " joint, which has no angle or displacement to drive");
    if (c.implicit && c.max_effort < std::numeric_limits<double>::infinity())
      throw std::invalid_argument("an implicit PD drive (joint " + std::to_string(c.joint) +
                                  ") takes no max_effort: its effort is not bounded");
  }
  for (const WrenchSpec& c : model_.controllers.wrenches)
    if (c.body < 0 || c.body >= nb)
      throw std::invalid_argument("a wrench names body " + std::to_string(c.body) + " of " +
                                  std::to_string(nb));
  for (const Joint& j : model_.joints)
    for (int b : {j.body_a, j.body_b})
      if (b >= 0 && model_.bodies[b].appear_time > 0.0)
        throw std::invalid_argument("joint '" + j.name + "' holds body '" + model_.bodies[b].name +
                                    "', which appears only at t > 0");
  controllers_ = make_controllers(model_.controllers);
  state_ = initial_;
  set_settings(settings);
}

void Simulator::add_controller(std::unique_ptr<Controller> controller) {
  controllers_.push_back(std::move(controller));
}

void Simulator::run_controllers() {
  const std::size_t nb = state_.bodies.size();
  pending_force_.resize(nb);
  pending_torque_.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    pending_force_[b] = state_.bodies[b].force;
    pending_torque_[b] = state_.bodies[b].torque;
  }
  WrenchSink sink(model_, state_.bodies);
  for (auto& c : controllers_) c->control(model_, state_, settings_, sink);
}

void Simulator::set_settings(const Settings& settings) {
  if (std::string why = check_settings(settings, model_); !why.empty())
    throw std::invalid_argument("settings: " + why);
  settings_ = settings;
  implicit_margin_ = implicit_broad_margin(model_, settings_);
  chain_.clear();
  chain_.push_back(make_solver(settings_.solver));
  for (const std::string& name : settings_.fallbacks) chain_.push_back(make_solver(name));
  choose_assembly();
}

void Simulator::set_full_problems(bool full) {
  full_problems_ = full;
  choose_assembly();
}

void Simulator::choose_assembly() {
  // A chain of one solver that reads M only in its diagonal blocks spares the assembly of the
  // rest (the larger part of a step's formulation on a stack).
  problem_.want_blocks_only =
      !full_problems_ && chain_.size() == 1 && chain_.front()->takes_blocks_only();
}

void Simulator::set_time_budget(double seconds) {
  if (!(seconds >= 0.0 && std::isfinite(seconds)))
    throw std::invalid_argument("settings: time_budget must be >= 0 s (0: no limit)");
  settings_.time_budget = seconds;
}

void Simulator::apply_wrench(int body, const Vec3& force, const Vec3& torque) {
  state_.bodies.at(body).force += force;
  state_.bodies.at(body).torque += torque;
}

void Simulator::set_wrench(int body, const Vec3& force, const Vec3& torque) {
  state_.bodies.at(body).force = force;
  state_.bodies.at(body).torque = torque;
}

void Simulator::reset() {
  state_ = initial_;
  for (auto& c : controllers_) c->reset();
  warm_keys_.clear();
  warm_basis_.clear();
  implicit_.forget();
  anchors_.clear();
  report_ = StepReport{};
}

void Simulator::attach_anchors() {
  for (Contact& c : report_.contacts) {
    if (!(c.stick_stiffness > 0.0)) continue;
    for (const Anchor& a : anchors_)
      if (a.body_a == c.body_a && a.body_b == c.body_b && a.part_a == c.part_a &&
          a.part_b == c.part_b) {
        c.anchor = a.stretch;
        break;
      }
  }
}

// After the answer: p_t = -h (k_s ds+ + c_s v_t) gives each bristle's stretch at the end of the
// step, ds+ = -(p_t / h + c_s v_t) / k_s, with v_t the contact's end-of-step slip. Sticking,
// that is ds + h v_t; sliding, the stretch whose force is the cone's limit (the anchor moved,
// (5.2)). Contacts that end or were not enforced drop theirs.
void Simulator::renew_anchors() {
  anchors_.clear();
  StepReport& r = report_;
  r.stick_stretch.assign(r.contacts.size(), Vec3::Zero());
  const double h = settings_.h;
  auto point_velocity = [&](int b, const Vec3& at) -> Vec3 {
    if (model_.bodies[b].is_static) return Vec3::Zero();
    const auto v = velocity_.segment<6>(6 * b);
    return v.head<3>() + v.tail<3>().cross(at - state_.bodies[b].position);
  };
  for (std::size_t i = 0; i < r.contacts.size(); ++i) {
    const Contact& c = r.contacts[i];
    if (!(c.stick_stiffness > 0.0) || i >= r.enforced.size() || !r.enforced[i]) continue;
    Vec3 slip = point_velocity(c.body_b, c.point_b()) - point_velocity(c.body_a, c.point_a);
    slip -= c.normal * c.normal.dot(slip);
    const Vec3 p_t = r.friction_impulse[i];
    r.stick_stretch[i] = -(p_t / h + c.stick_damping * slip) / c.stick_stiffness;
    anchors_.push_back({c.body_a, c.body_b, c.part_a, c.part_b, r.stick_stretch[i]});
  }
}

void Simulator::remove_observer(StepObserver* observer) {
  observers_.erase(std::remove(observers_.begin(), observers_.end(), observer), observers_.end());
}

const StepReport& Simulator::step() {
  StepReport& r = report_;
  static_cast<StepOutcome&>(r) = StepOutcome{};
  r.attempts.clear();
  r.implicit.clear();
  r.stick_stretch.clear();
  r.settings = &settings_;
  // Stage 1: controllers add their wrenches to what apply_wrench left pending.
  run_controllers();
  keep_applied_wrench();
  if (settings_.formulation == Formulation::GeometricallyImplicit) {
    // Stage 2, then stages 3-7 as one mixed NCP (seed 001): the state moves only if it is
    // solved.
    const auto t0 = Clock::now();
    broad_.update(model_, state_,
                  implicit_margin_ + implicit_reach_margin(model_, state_, settings_.h));
    r.timings.detect = seconds_since(t0);
    r.contacts.clear();  // a failed step reports no contacts; smooth surfaces have no SM traps
    r.sm_traps.clear();
    r.sm_trap_contacts.clear();
    implicit_.step(model_, settings_, broad_.pairs, state_, r);
    if (r.failed) restore_pending_wrench();
    r.time = state_.time;
    r.step = state_.step;
    for (StepObserver* o : observers_) o->on_step(model_, state_, r);
    return r;
  }
  // Stages 2-3, and the SM traps among the contacts.
  find_contacts();
  // Stage 4: the contact model's U-, I- and X-constraints.
  apply_contact_model(model_, state_, settings_, r.contacts, r.constraints, r.duplicate_of,
                      scratch_, manifold_);
  mark_enforced();
  // Stages 5-6: formulate and solve, or move freely.
  formulate_and_solve();
  check_new_velocities();
  // Stage 7: integrate; a failed step leaves the state as it was (FailurePolicy::Stop).
  integrate();
  report_joints(problem_, r.failed ? VecX() : z_);
  r.time = state_.time;
  r.step = state_.step;
  // Stage 8: report.
  for (StepObserver* o : observers_) o->on_step(model_, state_, r);
  return r;
}

void Simulator::keep_applied_wrench() {
  // The wrench this step applies, kept for observers: the state's copy is cleared once the
  // step is taken.
  const std::size_t nb = state_.bodies.size();
  report_.applied_force.resize(nb);
  report_.applied_torque.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    report_.applied_force[b] = state_.bodies[b].force;
    report_.applied_torque[b] = state_.bodies[b].torque;
  }
}

void Simulator::find_contacts() {
  StepReport& r = report_;
  // Contacts within epsilon at the start of the step; for the corrective method only the
  // overlaps, one contact per overlapping pair (§5.2.3).
  const auto t0 = Clock::now();
  if (settings_.contact_model == ContactModel::Corrective)
    overlap_contacts(model_, state_, settings_, broad_, overlap_work_, r.contacts);
  else if (settings_.contact_model == ContactModel::Volumetric) {
    volume_contacts(model_, state_, broad_, volume_work_, r.contacts);
    attach_anchors();
  } else
    detect_contacts(model_, state_, settings_, broad_, r.contacts);
  r.timings.detect = seconds_since(t0);
  // SM traps among the narrow phase's contacts, before a contact model appends its own: those
  // of the contacts the standard model enforces under settings_.sm_enforce.
  find_sm_traps(r.contacts, trap_workspace_, r.sm_traps, r.sm_trap_contacts, settings_.sm_enforce);
}

void Simulator::formulate_and_solve() {
  StepReport& r = report_;
  auto t0 = Clock::now();
  if (r.constraints.groups.empty() && model_.joints.empty()) {
    free_velocities(model_, state_, settings_, velocity_);
    r.timings.formulate = seconds_since(t0);
    r.timings.solve = 0.0;
    fill_impulses(problem_, VecX());
    used_mixed_ = false;
    return;
  }
  assemble_constraint_problem(model_, state_, settings_, r.contacts, r.constraints, primaries_,
                              problem_);
  r.timings.formulate = seconds_since(t0);
  r.joint_limit_rows = static_cast<int>(problem_.limit_rows.size());
  if (problem_.lcp.size() == 0 && settings_.formulation != Formulation::MixedLcp) {
    // Joints alone: their Schur complement needs no complementarity problem (mixed-lcp
    // still hands the joints' free rows to a solver that takes bounds).
    r.timings.solve = 0.0;
    fill_impulses(problem_, VecX());
    z_.resize(0);
    used_mixed_ = false;
    contact_velocities(problem_, z_, velocity_);
    return;
  }
  t0 = Clock::now();
  solve_problem();
  r.cross_energy_gain = energy_.gain;
  r.cross_energy_need = energy_.need;
  r.cross_energy_refused = energy_refused_;
  if (r.failed && drop_cross_constraints()) {
    // Thesis §4.2.3: X-constraints can make the subproblem unsatisfiable, or answerable
    // only by impulses that throw bodies apart (cross_energy_holds). Without them the
    // step keeps every U- and I-constraint (and reports what it dropped, and why).
    assemble_and_solve();
    r.fell_back = true;  // the chain's first answer, if any, was not kept
  }
  if (settings_.primaries == Primaries::Several) search_primaries();
  r.timings.solve = seconds_since(t0);
  if (settings_.formulation == Formulation::Ncp)
    r.ncp = &problem_.ncp;
  else
    r.lcp = used_mixed_ ? &problem_.mixed : &problem_.lcp;
  r.problem_size = r.lcp ? r.lcp->size() : r.ncp->size();
  r.solution = &z_;
}

void Simulator::check_new_velocities() {
  StepReport& r = report_;
  if (r.failed) return;
  if (!velocity_.allFinite()) {
    r.failed = true;
    r.failure = "the new velocities are not finite";
  } else if (!poses_stay_finite(model_, velocity_, settings_.h, state_)) {
    r.failed = true;
    r.failure = "the new velocities overflow the pose update (|w| h is not finite)";
  }
}

void Simulator::integrate() {
  StepReport& r = report_;
  const auto t0 = Clock::now();
  if (!r.failed) {
    if (settings_.contact_model == ContactModel::Volumetric) renew_anchors();
    mark_held();
    integrate_positions(model_, velocity_, settings_.h, settings_.gyroscopic, held_, state_);
    state_.time += settings_.h;
    ++state_.step;
    for (BodyState& s : state_.bodies) {
      s.force.setZero();
      s.torque.setZero();
    }
    if (settings_.joint_correction && !model_.joints.empty()) {
      const JointCorrectionReport c = correct_joints(model_, settings_, state_, correction_);
      r.correction_position_iterations = c.position_iterations;
      r.correction_velocity_iterations = c.velocity_iterations;
    }
  } else {
    restore_pending_wrench();
  }
  r.timings.integrate = seconds_since(t0);
}

void Simulator::restore_pending_wrench() {
  // The controllers run again on the retried step: take back what they added.
  for (std::size_t b = 0; b < state_.bodies.size(); ++b) {
    state_.bodies[b].force = pending_force_[b];
    state_.bodies[b].torque = pending_torque_[b];
  }
}

void Simulator::solve_problem() {
  energy_ = CrossEnergy{};
  energy_refused_ = false;
  solve(problem_);
  if (report_.failed) return;
  if (used_mixed_)
    mixed_velocities(problem_, z_, velocity_);
  else
    contact_velocities(problem_, z_, velocity_);
  // A refused answer does not warm-start the re-solve without X-constraints, nor the next step.
  if (cross_energy_holds()) remember_warm_start(problem_);
}

bool Simulator::cross_energy_holds() {
  StepReport& r = report_;
  const bool cross =
      std::any_of(r.constraints.groups.begin(), r.constraints.groups.end(),
                  [](const ConstraintGroup& g) { return g.kind == ConstraintKind::CrossContact; });
  if (!cross) return true;
  const CrossEnergy& e = energy_ =
      cross_energy(model_, state_, settings_, r.contacts, r.constraints, problem_.free_velocity,
                   velocity_, energy_work_);
  if (!(e.gain > kCrossEnergyMargin * e.need)) return true;
  energy_refused_ = true;
  r.failed = true;
  r.failure = "the answer adds " + format_number(e.gain) +
              " J of kinetic energy where removing the overlaps needs an estimated " +
              format_number(e.need) + " J (X-constraints, thesis 4.2.3)";
  return false;
}

void Simulator::search_primaries() {
  StepReport& r = report_;
  if (!begin_primary_search(r.contacts, r.constraints, search_)) return;
  r.primary_leaves = 1;  // the thesis' leaf, solved
  double best = INFINITY;
  for (;;) {
    mark_leaf_visited(search_);
    const double violation = leaf_violations();
    if (violation < best) {
      best = violation;
      best_choice_ = search_.choice;
    }
    if (violation == 0.0) break;
    if (r.primary_leaves == kMaxPrimaryLeaves ||
        !next_primary_leaf(leaf_violation_, end_rate_, search_)) {
      // No leaf meets (4.13): the closest one (the thesis' leaf if none was solved).
      r.primary_search_unresolved = true;
      if (!std::isfinite(best)) best_choice_.assign(search_.choice.size(), 0);
      const bool solved_last = std::equal(best_choice_.begin(), best_choice_.end(),
                                          search_.visited.end() - best_choice_.size());
      search_.choice = best_choice_;
      if (!solved_last) solve_leaf();
      break;
    }
    solve_leaf();
  }
  for (int c : search_.choice) r.primaries_moved += c != 0;
}

void Simulator::assemble_and_solve() {
  StepReport& r = report_;
  r.failed = false;
  r.failure.clear();
  r.solve = SolveReport{};
  assemble_constraint_problem(model_, state_, settings_, r.contacts, r.constraints, primaries_,
                              problem_);
  solve_problem();
}

void Simulator::solve_leaf() {
  leaf_constraints(search_, report_.constraints);
  assemble_and_solve();
  ++report_.primary_leaves;
}

double Simulator::leaf_violations() {
  const StepReport& r = report_;
  if (r.failed) return INFINITY;
  end_rate_.assign(r.contacts.size(), 0.0);
  leaf_violation_.assign(search_.groups.size(), 0.0);
  double total = 0.0;
  for (std::size_t k = 0; k < search_.groups.size(); ++k) {
    const ConstraintGroup& g = r.constraints.groups[search_.groups[k]];
    for (int m = g.first; m < g.first + g.count; ++m) {
      const int i = r.constraints.members[m];
      end_rate_[i] = end_gap_rate(model_, state_, settings_, r.contacts[i], velocity_);
    }
    leaf_violation_[k] =
        primary_violation(r.constraints, g, end_rate_, settings_.h, settings_.tolerance);
    total += leaf_violation_[k];
  }
  return total;
}

bool Simulator::drop_cross_constraints() {
  StepReport& r = report_;
  kept_constraints_.clear();
  for (const ConstraintGroup& g : r.constraints.groups) {
    if (g.kind == ConstraintKind::CrossContact) continue;
    kept_constraints_.groups.push_back(g);
    kept_constraints_.groups.back().first = static_cast<int>(kept_constraints_.members.size());
    kept_constraints_.members.insert(kept_constraints_.members.end(),
                                     r.constraints.members.begin() + g.first,
                                     r.constraints.members.begin() + g.first + g.count);
  }
  r.dropped_cross_constraints =
      static_cast<int>(r.constraints.groups.size() - kept_constraints_.groups.size());
  if (r.dropped_cross_constraints == 0) return false;
  std::swap(r.constraints, kept_constraints_);
  mark_enforced();  // a contact only an X-constraint held is no longer enforced
  return true;
}

void Simulator::mark_held() {
  const StepReport& r = report_;
  held_.assign(model_.bodies.size(), 0);
  for (std::size_t i = 0; i < r.contacts.size(); ++i)
    if (r.enforced[i]) held_[r.contacts[i].body_a] = held_[r.contacts[i].body_b] = 1;
  for (const Joint& j : model_.joints) {
    if (j.body_a >= 0) held_[j.body_a] = 1;
    if (j.body_b >= 0) held_[j.body_b] = 1;
  }
}

void Simulator::mark_enforced() {
  StepReport& r = report_;
  r.enforced.assign(r.contacts.size(), 0);
  r.max_penetration = 0.0;
  for (const ConstraintGroup& g : r.constraints.groups) {
    double largest_gap = -INFINITY;
    for (int k = g.first; k < g.first + g.count; ++k) {
      const int i = r.constraints.members[k];
      r.enforced[i] = 1;
      largest_gap = std::max(largest_gap, r.contacts[i].gap);
    }
    r.max_penetration = std::max(r.max_penetration, -largest_gap);
  }
}

void Simulator::solve(ContactProblem& problem) {
  StepReport& r = report_;
  const int block = problem.block_size();
  const int n = problem.lcp.size();
  // mixed-lcp: a solver that takes bounds gets the joints as free rows, the others the Schur
  // form; both give the same step (tests/engine/dynamics/test_mixed_lcp.cpp).
  const bool have_mixed =
      settings_.formulation == Formulation::MixedLcp && !problem.joint_rows.empty();
  bool mixed_built = false;
  const bool ncp = settings_.formulation == Formulation::Ncp;
  if (ncp) assemble_ncp(problem);

  // Warm start from the impulses of the previous step's matching contacts.
  VecX warm = VecX::Zero(n);
  warm_basis_in_.assign(n, 0);
  bool have_warm = false;
  // The previous step's blocks must be this step's (the formulation or n_d may have changed).
  if (settings_.warm_start && warm_block_ == block) {
    for (int i = 0; i < problem.contacts(); ++i) {
      const Contact& c = r.contacts[problem.contact[i]];
      for (const WarmEntry& e : warm_keys_) {
        if (e.body_a == c.body_a && e.body_b == c.body_b && e.part_a == c.part_a &&
            e.part_b == c.part_b && same_key(c, e.kind_a, e.index_a, e.kind_b, e.index_b) &&
            e.offset + block <= warm_values_.size()) {
          warm.segment(i * block, block) = warm_values_.segment(e.offset, block);
          if (!warm_basis_.empty())
            std::copy_n(warm_basis_.begin() + e.offset, block, warm_basis_in_.begin() + i * block);
          have_warm = true;
          break;
        }
      }
    }
  }

  SolverOptions options;
  options.tolerance = settings_.tolerance;
  options.max_iterations = settings_.max_iterations;
  // No clock is read without a time budget.
  const bool budgeted = settings_.time_budget > 0.0;
  const auto budget = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(settings_.time_budget));
  const Deadline budget_end = budgeted ? Clock::now() + budget : kNoDeadline;
  double best_residual = INFINITY;
  bool best_mixed = false, last_mixed = false;
  used_mixed_ = false;
  for (std::size_t k = 0; k < chain_.size(); ++k) {
    if (ncp && !chain_[k]->supports_ncp()) continue;  // an LCP solver: skipped on the NCP
    const bool mixed = have_mixed && chain_[k]->supports_bounds();
    if (mixed && !mixed_built) {
      assemble_mixed_lcp(problem);
      mixed_built = true;
    }
    const Lcp& lcp = mixed ? problem.mixed : problem.lcp;
    if (mixed) {  // the joints' impulses without contact, p_b0 of the Schur form, as a start
      z_.resize(lcp.size());
      z_ << problem.joint_impulse, warm;
    } else {
      z_ = warm;
    }
    options.warm_start = have_warm || mixed;
    // The previous basis covers the contact blocks only, not the mixed form's free rows.
    options.warm_basis = mixed || warm_basis_.empty() ? nullptr : &warm_basis_in_;
    if (budgeted)  // the chain's last solver gets a quarter of the budget at least
      options.deadline =
          k + 1 == chain_.size() ? std::max(budget_end, Clock::now() + budget / 4) : budget_end;
    SolveReport attempt =
        ncp ? chain_[k]->solve_ncp(problem.ncp, z_, options) : chain_[k]->solve(lcp, z_, options);
    last_mixed = mixed;
    const bool ok = attempt.solved() && z_.allFinite();
    r.attempts.push_back(attempt);
    if (ok) {
      r.solve = attempt;
      r.fell_back = k > 0;
      used_mixed_ = mixed;
      break;
    }
    if (z_.allFinite() && attempt.residual < best_residual) {
      best_residual = attempt.residual;
      best_z_ = z_;
      best_mixed = mixed;
      r.solve = attempt;
    }
  }

  if (!r.solve.solved()) {
    r.fell_back = chain_.size() > 1;
    r.time_budget_spent =
        std::any_of(r.attempts.begin(), r.attempts.end(),
                    [](const SolveReport& a) { return a.status == SolveStatus::TimeBudget; });
    r.iteration_budget_spent =
        !r.time_budget_spent && settings_.iteration_budget &&
        std::any_of(r.attempts.begin(), r.attempts.end(),
                    [](const SolveReport& a) { return a.status == SolveStatus::MaxIterations; });
    if ((settings_.on_failure == FailurePolicy::Continue || r.time_budget_spent ||
         r.iteration_budget_spent) &&
        std::isfinite(best_residual)) {
      z_ = best_z_;
      used_mixed_ = best_mixed;
      if (ncp)
        clamp_to_bounds(problem.ncp, z_);  // p_t, p_o keep their sign
      else
        z_.tail(n) = z_.tail(n).cwiseMax(0.0);  // the joints' free rows keep their sign
    } else {
      used_mixed_ = last_mixed;  // the report's problem is the one z_ answers
      r.failed = true;
      r.failure = "no solver answered:";
      for (const SolveReport& a : r.attempts)
        r.failure += " " + a.solver + " " + to_string(a.status) + " (residual " +
                     format_number(a.residual) + (a.message.empty() ? "" : "; " + a.message) + ");";
      r.failure.pop_back();
      fill_impulses(problem, VecX());
      return;
    }
  }
  // The contact blocks are z_'s last n rows (after the joints' rows in the mixed form).
  fill_impulses(problem, z_.tail(n));
}

void Simulator::remember_warm_start(const ContactProblem& problem) {
  const StepReport& r = report_;
  const int block = problem.block_size();
  const int n = problem.lcp.size();
  warm_keys_.clear();
  for (int i = 0; i < problem.contacts(); ++i) {
    const Contact& c = r.contacts[problem.contact[i]];
    warm_keys_.push_back({c.body_a, c.body_b, static_cast<int>(c.feature_a.kind), c.feature_a.index,
                          static_cast<int>(c.feature_b.kind), c.feature_b.index, i * block,
                          c.part_a, c.part_b});
  }
  warm_values_ = z_.tail(n);
  warm_block_ = block;
  // The basis of the solver that answered, if it has one (of the Schur form: n rows).
  const std::vector<char>* basis = nullptr;
  for (const auto& solver : chain_)
    if (solver->name() == r.solve.solver) basis = solver->final_basis();
  if (basis && !used_mixed_ && basis->size() == static_cast<std::size_t>(n))
    warm_basis_ = *basis;
  else
    warm_basis_.clear();
}

void Simulator::report_joints(const ContactProblem& problem, const VecX& z) {
  StepReport& r = report_;
  const std::size_t nj = model_.joints.size();
  r.joints.resize(nj);
  if (nj == 0) return;
  joint_violations(model_, state_, correction_.rows, joint_position_error_, joint_velocity_error_);
  for (std::size_t k = 0; k < nj; ++k) {
    const Joint& joint = model_.joints[k];
    const JointCoordinates x = joint_coordinates(state_, joint);
    const JointError e = joint_error(state_, joint);
    JointStepReport& j = r.joints[k];
    j = JointStepReport{};
    j.angle = x.angle;
    j.displacement = x.displacement;
    j.position_error = e.position;
    j.angle_error = e.angle;
    j.velocity_error = joint_velocity_error_[k];
  }
  // Implicit drives: their rows' share of p_b, known whenever the step was taken.
  if (!r.failed) {
    const int m = static_cast<int>(problem.joint_rows.size());
    for (int k = 0; k < m && k < problem.joint_impulse.size(); ++k)
      if (problem.joint_rows[k].drive)
        r.joints[problem.joint_rows[k].joint].drive_effort +=
            drive_effort(problem.joint_impulse(k), settings_.h);
  }
  // Limit impulses: only when this step's LCP (and so its limit rows) was solved; in the
  // mixed form the LCP's rows are z's last ones, after the joints' free rows.
  const int n = problem.lcp.size();
  if (n == 0 || z.size() < n) return;
  const int base = static_cast<int>(z.size()) - n;
  for (std::size_t k = 0; k < problem.limit_rows.size(); ++k) {
    const LimitRow& row = problem.limit_rows[k];
    const double p = row.sign() * z(base + problem.limit_row_start() + static_cast<int>(k));
    JointStepReport& j = r.joints[row.joint];
    (row.angle ? j.angle_limit_impulse : j.displacement_limit_impulse) += p;
  }
}

void Simulator::fill_impulses(const ContactProblem& problem, const Eigen::Ref<const VecX>& z) {
  StepReport& r = report_;
  const std::size_t nc = r.contacts.size();
  r.normal_impulse.assign(nc, 0.0);
  r.friction_impulse.assign(nc, Vec3::Zero());
  r.sliding.assign(nc, 0);
  r.friction_basis.assign(nc, Vec3::Zero());
  r.torsional_impulse.assign(nc, 0.0);
  for (ConstraintGroup& g : r.constraints.groups) g.impulse = 0.0;
  if (z.size() == 0) return;  // (problem may then be an earlier step's)
  const int nd = problem.directions;
  // Block i is the primary of group i; a contact that is the primary of several groups
  // (an X-constraint written as an I-constraint, §4.2.3) receives the sum.
  for (int i = 0; i < problem.contacts(); ++i) {
    const int c = problem.contact[i];
    const int base = i * problem.block_size();
    r.constraints.groups[i].impulse = z(base);
    r.normal_impulse[c] += z(base);
    if (nd > 0) r.friction_basis[c] = problem.tangents[i * nd];
    for (int k = 0; k < nd; ++k)
      r.friction_impulse[c] += z(base + 1 + k) * problem.tangents[i * nd + k];
    // The torques +-r_s n (a pair without them repeats d_0 there, with its tangent set).
    const Contact& contact = r.contacts[c];
    if (problem.spin == 2 && problem.tangents[i * nd + nd - 1].isZero())
      r.torsional_impulse[c] += contact.spin_radius * (z(base + nd - 1) - z(base + nd));
    if (nd > 0 && z(base + nd + 1) > settings_.tolerance) r.sliding[c] = 1;
  }
}

}  // namespace pegsim
