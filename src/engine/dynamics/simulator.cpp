// One step = detect contacts, choose the enforced ones (standard model), formulate the
// Stewart–Trinkle LCP, solve it through the fallback chain, integrate (ARCHITECTURE.md).
#include "engine/dynamics/simulator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "engine/collision/detect_contacts.hpp"
#include "engine/contact_models/standard_model.hpp"
#include "engine/dynamics/integrate.hpp"

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
  if (s.friction_directions < 1) return "friction_directions must be >= 1";
  if (!(s.tolerance > 0.0)) return "tolerance must be > 0";
  if (s.max_iterations < 1) return "max_iterations must be >= 1";
  if (!make_solver(s.solver)) return "unknown solver '" + s.solver + "'";
  for (const std::string& f : s.fallbacks)
    if (!make_solver(f)) return "unknown fallback solver '" + f + "'";
  return {};
}

Simulator::Simulator(Model model, State initial, Settings settings)
    : model_(std::move(model)), initial_(std::move(initial)) {
  if (initial_.bodies.size() != model_.bodies.size())
    throw std::invalid_argument("the state has " + std::to_string(initial_.bodies.size()) +
                                " bodies, the model " + std::to_string(model_.bodies.size()));
  state_ = initial_;
  set_settings(settings);
}

void Simulator::set_settings(const Settings& settings) {
  if (std::string why = check_settings(settings); !why.empty())
    throw std::invalid_argument("settings: " + why);
  settings_ = settings;
  chain_.clear();
  chain_.push_back(make_solver(settings_.solver));
  for (const std::string& name : settings_.fallbacks) chain_.push_back(make_solver(name));
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
  warm_keys_.clear();
  report_ = StepReport{};
}

void Simulator::remove_observer(StepObserver* observer) {
  observers_.erase(std::remove(observers_.begin(), observers_.end(), observer), observers_.end());
}

const StepReport& Simulator::step() {
  StepReport& r = report_;
  r.attempts.clear();
  r.failed = false;
  r.fell_back = false;
  r.failure.clear();
  r.problem_size = 0;
  r.solve = SolveReport{};
  r.max_penetration = 0.0;
  r.lcp = nullptr;
  r.solution = nullptr;
  r.settings = &settings_;
  // The wrench this step applies, kept for observers: the state's copy is cleared below.
  const std::size_t nb = state_.bodies.size();
  r.applied_force.resize(nb);
  r.applied_torque.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    r.applied_force[b] = state_.bodies[b].force;
    r.applied_torque[b] = state_.bodies[b].torque;
  }

  // Stages 2-3: contacts within epsilon at the start of the step.
  auto t0 = Clock::now();
  detect_contacts(model_, state_, settings_, broad_, r.contacts);
  r.timings.detect = seconds_since(t0);

  // Stage 4, standard model: every primary contact is a unilateral constraint.
  standard_model(r.contacts, enforced_, r.duplicate_of);
  r.enforced.assign(r.contacts.size(), 0);
  for (int i : enforced_) {
    r.enforced[i] = 1;
    r.max_penetration = std::max(r.max_penetration, -r.contacts[i].gap);
  }

  // Stages 5-6: formulate and solve, or move freely.
  t0 = Clock::now();
  if (enforced_.empty() && model_.joints.empty()) {
    free_velocities(model_, state_, settings_, velocity_);
    r.timings.formulate = seconds_since(t0);
    r.timings.solve = 0.0;
    fill_impulses(problem_, VecX());
  } else if (enforced_.empty() && settings_.formulation != Formulation::MixedLcp) {
    // Joints alone: their Schur complement needs no complementarity problem (mixed-lcp still
    // solves the joints' free rows).
    assemble_stewart_trinkle(model_, state_, settings_, r.contacts, enforced_, problem_);
    r.timings.formulate = seconds_since(t0);
    r.timings.solve = 0.0;
    fill_impulses(problem_, VecX());
    z_.resize(0);
    contact_velocities(problem_, z_, velocity_);
  } else {
    assemble_stewart_trinkle(model_, state_, settings_, r.contacts, enforced_, problem_);
    r.timings.formulate = seconds_since(t0);
    r.problem_size = problem_.lcp.size();
    t0 = Clock::now();
    solve(problem_);
    r.timings.solve = seconds_since(t0);
    r.lcp = used_mixed_ ? &problem_.mixed : &problem_.lcp;
    r.problem_size = r.lcp->size();
    r.solution = &z_;
    if (!r.failed && used_mixed_) mixed_velocities(problem_, z_, velocity_);
    else if (!r.failed) contact_velocities(problem_, z_, velocity_);
  }
  if (!r.failed && !velocity_.allFinite()) {
    r.failed = true;
    r.failure = "the new velocities are not finite";
  }

  // Stage 7: integrate; a failed step leaves the state as it was (FailurePolicy::Stop).
  t0 = Clock::now();
  if (!r.failed) {
    integrate_positions(model_, velocity_, settings_.h, state_);
    state_.time += settings_.h;
    ++state_.step;
    for (BodyState& s : state_.bodies) {
      s.force.setZero();
      s.torque.setZero();
    }
  }
  r.timings.integrate = seconds_since(t0);
  r.time = state_.time;
  r.step = state_.step;

  // Stage 8: report.
  for (StepObserver* o : observers_) o->on_step(model_, state_, r);
  return r;
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

  // Warm start from the impulses of the previous step's matching contacts.
  VecX warm = VecX::Zero(n);
  bool have_warm = false;
  if (settings_.warm_start) {
    for (int i = 0; i < problem.contacts(); ++i) {
      const Contact& c = r.contacts[problem.contact[i]];
      for (const WarmEntry& e : warm_keys_) {
        if (e.body_a == c.body_a && e.body_b == c.body_b &&
            same_key(c, e.kind_a, e.index_a, e.kind_b, e.index_b) &&
            e.offset + block <= warm_values_.size()) {
          warm.segment(i * block, block) = warm_values_.segment(e.offset, block);
          have_warm = true;
          break;
        }
      }
    }
  }

  SolverOptions options;
  options.tolerance = settings_.tolerance;
  options.max_iterations = settings_.max_iterations;
  double best_residual = INFINITY;
  bool best_mixed = false, last_mixed = false;
  used_mixed_ = false;
  for (std::size_t k = 0; k < chain_.size(); ++k) {
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
    SolveReport attempt = chain_[k]->solve(lcp, z_, options);
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
    if (settings_.on_failure == FailurePolicy::Continue && std::isfinite(best_residual)) {
      z_ = best_z_;
      used_mixed_ = best_mixed;
      z_.tail(n) = z_.tail(n).cwiseMax(0.0);  // the joints' free rows keep their sign
    } else {
      used_mixed_ = last_mixed;  // the report's problem is the one z_ answers
      r.failed = true;
      r.failure = "no solver answered:";
      for (const SolveReport& a : r.attempts)
        r.failure += " " + a.solver + " " + to_string(a.status) + " (residual " +
                     format_number(a.residual) + (a.message.empty() ? "" : "; " + a.message) +
                     ");";
      r.failure.pop_back();
      fill_impulses(problem, VecX());
      return;
    }
  }
  // The contact blocks are z_'s last n rows (after the joints' rows in the mixed form).
  fill_impulses(problem, z_.tail(n));

  // Remember this step's impulses for the next warm start.
  warm_keys_.clear();
  for (int i = 0; i < problem.contacts(); ++i) {
    const Contact& c = r.contacts[problem.contact[i]];
    warm_keys_.push_back({c.body_a, c.body_b, static_cast<int>(c.feature_a.kind), c.feature_a.index,
                          static_cast<int>(c.feature_b.kind), c.feature_b.index, i * block});
  }
  warm_values_ = z_.tail(n);
}

void Simulator::fill_impulses(const ContactProblem& problem, const Eigen::Ref<const VecX>& z) {
  StepReport& r = report_;
  const std::size_t nc = r.contacts.size();
  r.normal_impulse.assign(nc, 0.0);
  r.friction_impulse.assign(nc, Vec3::Zero());
  r.sliding.assign(nc, 0);
  if (z.size() == 0) return;
  const int nd = problem.directions;
  for (int i = 0; i < problem.contacts(); ++i) {
    const int c = problem.contact[i];
    const int base = i * problem.block_size();
    r.normal_impulse[c] = z(base);
    Vec3 f = Vec3::Zero();
    for (int k = 0; k < nd; ++k) f += z(base + 1 + k) * problem.tangents[i * nd + k];
    r.friction_impulse[c] = f;
    r.sliding[c] = z(base + nd + 1) > settings_.tolerance ? 1 : 0;
  }
}

}  // namespace pegsim
