// PlotData: what the Plots dock draws, computed from frames and independent of Qt Charts.
// A long history is decimated into buckets of consecutive frames: each bucket is drawn at its
// last frame (motion and energy there, acceleration over that frame's step) and with the
// largest step figures of its frames, so a spike in iterations or residual is never lost.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/model.hpp"
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

struct PlotData {
  std::vector<double> time;                     // per sample, s
  std::vector<std::vector<BodyState>> bodies;   // per sample: every body's pose and twist
  std::vector<std::vector<Vec3>> acceleration;  // per sample, per body, m/s^2
  std::vector<double> kinetic, potential;       // per sample, J
  std::vector<StepFigures> steps;               // per sample: the bucket's maxima
  std::vector<std::vector<JointError>>
      joint_error;  // per sample, per joint (at the sample's frame)
  std::vector<std::vector<JointCoordinates>> joint_coordinates;

  std::size_t size() const { return time.size(); }
  // Adds a sample at `frame`; `previous` is the frame before it (nullptr for frame 0: zero
  // acceleration), `peak` the bucket's step figures.
  void append(const Model& model, const Vec3& gravity, const FrameSnapshot& frame,
              const FrameSnapshot* previous, const StepFigures& peak);
};

}  // namespace pegsim::gui
