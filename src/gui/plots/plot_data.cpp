#include "gui/plots/plot_data.hpp"

#include <algorithm>
#include <utility>

#include "engine/kinematics/joint_rows.hpp"
#include "gui/ui/inspector_panel.hpp"

namespace pegsim::gui {

double system_kinetic_energy(const Model& model, const std::vector<BodyState>& bodies) {
  double e = 0.0;
  for (std::size_t i = 0; i < bodies.size() && i < model.bodies.size(); ++i)
    e += kinetic_energy(model.bodies[i], bodies[i]);
  return e;
}

double system_potential_energy(const Model& model, const Vec3& gravity,
                               const std::vector<BodyState>& bodies) {
  double e = 0.0;
  for (std::size_t i = 0; i < bodies.size() && i < model.bodies.size(); ++i)
    if (!model.bodies[i].is_static) e -= model.bodies[i].mass * gravity.dot(bodies[i].position);
  return e;
}

void StepFigures::include(const StepFigures& o) {
  contacts = std::max(contacts, o.contacts);
  sm_traps = std::max(sm_traps, o.sm_traps);
  iterations = std::max(iterations, o.iterations);
  residual = std::max(residual, o.residual);
  solve_ms = std::max(solve_ms, o.solve_ms);
}

StepFigures step_figures(const FrameSnapshot& f) {
  StepFigures s;
  s.contacts = double(f.contacts.size());
  s.sm_traps = double(f.sm_traps.size());
  s.iterations = f.solve.iterations;
  s.residual = f.solve.problem_size > 0 ? f.solve.residual : 0.0;
  s.solve_ms = 1e3 * f.solve.seconds;
  return s;
}

std::vector<Bucket> buckets(std::int64_t count, int max_buckets) {
  std::vector<Bucket> out;
  if (count <= 0 || max_buckets <= 0) return out;
  const std::int64_t length = (count + max_buckets - 1) / max_buckets;
  for (std::int64_t first = 0; first < count; first += length)
    out.push_back({first, std::min(count, first + length) - 1});
  return out;
}

void BucketScanner::see(double time, const std::vector<BodyState>& bodies) {
  const std::size_t n = bodies.size();
  bucket_.bodies.resize(n);
  bucket_.acceleration.assign(n, Vec3::Zero());
  const double dt = has_last_ ? time - last_time_ : 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (dt > 0.0 && i < last_.size())
      bucket_.acceleration[i] = (bodies[i].velocity - last_[i].velocity) / dt;
    MotionExtremes& m = bucket_.bodies[i];
    for (int c = 0; c < 3; ++c) {
      m[kPositionX + c].include(bodies[i].position[c]);
      m[kVelocityX + c].include(bodies[i].velocity[c]);
      m[kAccelerationX + c].include(bucket_.acceleration[i][c]);
    }
  }
  const double kinetic = system_kinetic_energy(model_, bodies);
  const double potential = system_potential_energy(model_, gravity_, bodies);
  bucket_.energy[0].include(kinetic);
  bucket_.energy[1].include(potential);
  bucket_.energy[2].include(kinetic + potential);
  if (!model_.joints.empty()) {
    joint_state_.bodies = bodies;
    bucket_.joints.resize(model_.joints.size());
    for (std::size_t j = 0; j < model_.joints.size(); ++j) {
      const JointError e = joint_error(joint_state_, model_.joints[j]);
      const JointCoordinates c = joint_coordinates(joint_state_, model_.joints[j]);
      JointExtremes& x = bucket_.joints[j];
      x[kPositionError].include(e.position);
      x[kRotationError].include(e.angle);
      x[kAngle].include(c.angle);
      x[kDisplacement].include(c.displacement);
    }
  }
  last_ = bodies;
  last_time_ = time;
  has_last_ = true;
}

BucketExtremes BucketScanner::take() {
  return std::exchange(bucket_, BucketExtremes{});
}

void PlotData::append(const Model& model, const Vec3& gravity, const FrameSnapshot& frame,
                      BucketExtremes extremes, const StepFigures& peak) {
  time.push_back(frame.time);
  bodies.push_back(frame.bodies);
  acceleration.push_back(std::move(extremes.acceleration));
  kinetic.push_back(system_kinetic_energy(model, frame.bodies));
  potential.push_back(system_potential_energy(model, gravity, frame.bodies));
  motion.push_back(std::move(extremes.bodies));
  energy.push_back(extremes.energy);
  steps.push_back(peak);
  joints.push_back(std::move(extremes.joints));
}

}  // namespace pegsim::gui
