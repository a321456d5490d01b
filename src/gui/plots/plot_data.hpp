// PlotData: what the Plots dock draws, computed from frames and independent of Qt Charts.
// A long history is decimated into buckets of consecutive frames. Each bucket keeps the lowest
// and highest value of every plotted quantity over all its frames (motion, acceleration,
// energy, joint errors and coordinates; the largest step figures), so a spike between two
// samples is never lost: a 5000-frame file shows the same acceleration peak as a 500-frame one.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "gui/sim/frame_snapshot.hpp"

namespace pegsim::gui {

// Kinetic energy of every moving body, J.
double system_kinetic_energy(const Model& model, const std::vector<BodyState>& bodies);
// Potential energy of gravity, -sum m g . x over moving bodies (zero at the origin), J.
double system_potential_energy(const Model& model, const Vec3& gravity,
                               const std::vector<BodyState>& bodies);

// The step figures of one frame (or the largest over a bucket).
struct StepFigures {
  double contacts = 0.0;
  double sm_traps = 0.0;  // SM traps among the contacts (thesis Fig. 5.13)
  double iterations = 0.0;
  double residual = 0.0;  // 0: nothing solved
  double solve_ms = 0.0;
  void include(const StepFigures& other);  // element-wise maximum
};
StepFigures step_figures(const FrameSnapshot& frame);

// [first, last] frame ranges covering [0, count) in at most `max_buckets` buckets of equal
// length (the last may be shorter); one bucket per frame when count <= max_buckets.
struct Bucket {
  std::int64_t first = 0, last = 0;
};
std::vector<Bucket> buckets(std::int64_t count, int max_buckets);

// Lowest and highest of a quantity over a bucket's frames (empty: lo > hi).
struct Extremes {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  void include(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};
// Per body: position x, y, z, velocity x, y, z, acceleration x, y, z.
using MotionExtremes = std::array<Extremes, 9>;
enum MotionIndex { kPositionX = 0, kVelocityX = 3, kAccelerationX = 6 };

// Per joint: its position and rotation errors and its free coordinates (joint_rows.hpp).
using JointExtremes = std::array<Extremes, 4>;
enum JointIndex { kPositionError = 0, kRotationError, kAngle, kDisplacement };

struct BucketExtremes {
  std::vector<MotionExtremes> bodies;
  std::array<Extremes, 3> energy;  // kinetic, potential, total
  std::vector<Vec3> acceleration;  // per body, over the step into the bucket's last frame
  std::vector<JointExtremes> joints;
};

// Sees every frame in order and gives the extremes of each bucket: acceleration is the change
// of velocity over each step, so a frame's needs the frame before it (also across buckets).
class BucketScanner {
 public:
  BucketScanner(const Model& model, const Vec3& gravity) : model_(model), gravity_(gravity) {}
  void see(double time, const std::vector<BodyState>& bodies);
  // The bucket seen since the last take; the next starts empty.
  BucketExtremes take();

 private:
  const Model& model_;
  Vec3 gravity_;
  State joint_state_;  // the frame's bodies, for the joints' kinematics
  BucketExtremes bucket_;
  std::vector<BodyState> last_;
  double last_time_ = 0.0;
  bool has_last_ = false;
};

struct PlotData {
  std::vector<double> time;                         // per sample, s
  std::vector<std::vector<BodyState>> bodies;       // per sample: every body's pose and twist
  std::vector<std::vector<Vec3>> acceleration;      // per sample, per body, m/s^2
  std::vector<double> kinetic, potential;           // per sample, J
  std::vector<std::vector<MotionExtremes>> motion;  // per sample, per body: over its bucket
  std::vector<std::array<Extremes, 3>> energy;      // per sample: kinetic, potential, total
  std::vector<StepFigures> steps;                   // per sample: the bucket's maxima
  std::vector<std::vector<JointExtremes>> joints;   // per sample, per joint: over its bucket

  std::size_t size() const { return time.size(); }
  // Adds the sample of a bucket, drawn at its last `frame`, with the extremes of its frames
  // (BucketScanner) and the largest step figures.
  void append(const Model& model, const Vec3& gravity, const FrameSnapshot& frame,
              BucketExtremes extremes, const StepFigures& peak);
};

}  // namespace pegsim::gui
