// Joint-space PD control (thesis §6.5, Script 7), built in and scriptable from scene files.
#pragma once

#include "engine/controllers/controller.hpp"

namespace pegsim {

// Effort e = kp (x_d(t) - x) + kd (x_d'(t) - x') on the joint's free coordinate x
// (joint_coordinates; the angle error wrapped to (-pi, pi]), clamped to |e| <= max_effort, applied
// as +e about (along) z_a on body b and -e on body a — Script 7's t2 and t1. Script 7 takes
// x' as a finite difference of the angle; here it is the exact rate from the twists, so the
// controller keeps no state. A translational effort acts at the origin of {J_b} on both bodies.
class PdJointController : public Controller {
 public:
  explicit PdJointController(PdJointSpec spec) : spec_(std::move(spec)) {}
  void control(const Model& model, const State& state, const Settings& settings,
               WrenchSink& out) override;
  // The effort the controller applies in `state` (N m or N), for tests and plots.
  double effort(const Model& model, const State& state) const;

 private:
  PdJointSpec spec_;
};

}  // namespace pegsim
