#include "gui/sim/frame_snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace pegsim::gui {

int FrameSnapshot::contact_count(int body) const {
  int n = 0;
  for (const ContactSnapshot& c : contacts) n += (c.body_a == body || c.body_b == body);
  return n;
}

bool FrameSnapshot::has_enforced_contact(int body) const {
  for (const ContactSnapshot& c : contacts)
    if (c.enforced && (c.body_a == body || c.body_b == body)) return true;
  return false;
}

std::vector<int> FrameSnapshot::groups_of(int contact) const {
  std::vector<int> out;
  for (std::size_t g = 0; g < constraints.groups.size(); ++g) {
    const ConstraintGroup& group = constraints.groups[g];
    const std::int64_t end =
        std::min(std::int64_t{group.first} + group.count, std::int64_t(constraints.members.size()));
    for (std::int64_t k = std::max(group.first, 0); k < end; ++k)
      if (constraints.members[std::size_t(k)] == contact) {
        out.push_back(int(g));
        break;
      }
  }
  return out;
}

namespace {

// Boxes of the bodies present at `time`; an absent body's box is empty (lo > hi, not drawn).
void fill_bodies(const Model& model, double time, FrameSnapshot& f) {
  f.aabbs.clear();
  f.absent.clear();
  for (std::size_t i = 0; i < f.bodies.size() && i < model.bodies.size(); ++i) {
    const bool present = model.bodies[i].present_at(time);
    f.absent.push_back(!present);
    f.aabbs.push_back(present ? compute_aabb(model.bodies[i], f.bodies[i], 0.0)
                              : Aabb{Vec3::Constant(INFINITY), Vec3::Constant(-INFINITY)});
  }
}

std::vector<JointSnapshot> joints_of(const Model& model, const State& state) {
  std::vector<JointSnapshot> out;
  out.reserve(model.joints.size());
  for (const Joint& j : model.joints)
    out.push_back({joint_frames(state, j), joint_error(state, j), joint_coordinates(state, j)});
  return out;
}

}  // namespace

FramePtr make_snapshot(const Model& model, const State& state, const StepReport* report,
                       const Settings* settings) {
  auto f = std::make_shared<FrameSnapshot>();
  f->step = state.step;
  f->time = state.time;
  f->bodies = state.bodies;
  fill_bodies(model, state.time, *f);
  f->joints = joints_of(model, state);
  if (!report) return f;
  const StepReport& r = *report;
  if (!r.failed && r.joints.size() == f->joints.size())
    for (std::size_t k = 0; k < r.joints.size(); ++k)
      f->joints[k].drive_effort = r.joints[k].drive_effort;
  f->contacts.reserve(r.contacts.size());
  for (std::size_t i = 0; i < r.contacts.size(); ++i) {
    const Contact& c = r.contacts[i];
    ContactSnapshot s;
    s.body_a = c.body_a;
    s.body_b = c.body_b;
    s.feature_a = c.feature_a;
    s.feature_b = c.feature_b;
    s.part_a = c.part_a;
    s.part_b = c.part_b;
    s.point_a = c.point_a;
    s.normal = c.normal;
    s.gap = c.gap;
    s.volume = c.volume;
    s.primary = c.primary();
    s.enforced = i < r.enforced.size() && r.enforced[i];
    if (i < r.normal_impulse.size()) s.normal_impulse = r.normal_impulse[i];
    if (i < r.friction_impulse.size()) s.friction_impulse = r.friction_impulse[i];
    if (i < r.torsional_impulse.size()) s.torsional_impulse = r.torsional_impulse[i];
    if (i < r.stick_stretch.size()) s.tangential_deflection = r.stick_stretch[i];
    if (i < r.implicit.size()) {
      s.implicit = true;
      s.point_b = r.implicit[i].a2;
      s.deflection = r.implicit[i].deflection;
      s.tangential_deflection = r.implicit[i].tangential_deflection();
    }
    f->contacts.push_back(s);
  }
  f->constraints = r.constraints;
  f->sm_traps = r.sm_traps;
  f->sm_trap_contacts = r.sm_trap_contacts;
  f->solve.problem_size = r.problem_size;
  f->solve.solver = r.problem_size > 0 ? r.solve.solver : std::string();
  f->solve.iterations = r.solve.iterations;
  f->solve.residual = r.solve.residual;
  f->solve.fell_back = r.fell_back;
  f->solve.fell_back_how = r.fell_back ? r.solve.message : std::string();
  f->solve.failed = r.failed;
  f->solve.failure = r.failure;
  f->solve.seconds = r.timings.solve;
  f->solve.approximate = r.problem_size > 0 && !r.failed && !r.solve.solved();
  f->solve.over_budget = r.time_budget_spent;
  f->solve.iteration_budget = r.iteration_budget_spent;
  if (settings) {
    f->solve.time_budget = settings->time_budget;
    f->solve.max_iterations = settings->max_iterations;
    f->h = settings->h;
    f->configured_solver = settings->solver;
    f->contact_model = to_string(settings->contact_model);
    f->formulation = to_string(settings->formulation);
  }
  return f;
}

FramePtr make_snapshot(const Model& model, const RunFrame& frame, const Settings* settings) {
  auto f = std::make_shared<FrameSnapshot>();
  f->step = frame.step;
  f->time = frame.time;
  f->bodies = frame.bodies;
  fill_bodies(model, frame.time, *f);
  if (!model.joints.empty())
    f->joints = joints_of(model, State{frame.time, frame.step, frame.bodies});
  f->contacts.reserve(frame.contacts.size());
  for (const RecordedContact& rc : frame.contacts) {
    ContactSnapshot s;
    s.body_a = rc.contact.body_a;
    s.body_b = rc.contact.body_b;
    s.feature_a = rc.contact.feature_a;
    s.feature_b = rc.contact.feature_b;
    s.part_a = rc.contact.part_a;
    s.part_b = rc.contact.part_b;
    s.point_a = rc.contact.point_a;
    s.normal = rc.contact.normal;
    s.gap = rc.contact.gap;
    s.volume = rc.contact.volume;
    s.primary = rc.contact.primary();
    s.enforced = rc.enforced;
    s.normal_impulse = rc.normal_impulse;
    s.friction_impulse = rc.friction_impulse;
    if (rc.contact.volume > 0.0) s.torsional_impulse = rc.torsional_impulse;
    s.implicit = settings && settings->formulation == Formulation::GeometricallyImplicit;
    s.point_b = rc.point_b;
    s.deflection = rc.deflection;
    s.tangential_deflection = rc.tangential_deflection;
    f->contacts.push_back(s);
  }
  f->constraints = frame.constraints;
  f->sm_traps = frame.sm_traps;
  f->sm_trap_contacts = frame.sm_trap_contacts;
  f->solve.problem_size = frame.solve.problem_size;
  f->solve.solver = frame.solve.solver;
  f->solve.iterations = frame.solve.iterations;
  f->solve.residual = frame.solve.residual;
  f->solve.fell_back = frame.solve.fell_back;
  f->solve.failed = frame.solve.failed;
  f->solve.seconds = frame.solve.timings.solve;
  f->solve.approximate = frame.solve.problem_size > 0 && !frame.solve.failed &&
                         frame.solve.status && *frame.solve.status != SolveStatus::Solved;
  bool stopped_at_limit = false;
  for (const RecordedAttempt& a : frame.solve.attempts) {
    f->solve.over_budget = f->solve.over_budget || a.status == SolveStatus::TimeBudget;
    stopped_at_limit = stopped_at_limit || a.status == SolveStatus::MaxIterations;
  }
  if (settings) {
    f->solve.time_budget = settings->time_budget;
    f->solve.max_iterations = settings->max_iterations;
    f->solve.iteration_budget = f->solve.approximate && !f->solve.over_budget &&
                                settings->iteration_budget && stopped_at_limit;
  }
  if (settings && frame.step > 0) {
    f->h = settings->h;
    f->configured_solver = settings->solver;
    f->contact_model = to_string(settings->contact_model);
    f->formulation = to_string(settings->formulation);
  }
  return f;
}

}  // namespace pegsim::gui
