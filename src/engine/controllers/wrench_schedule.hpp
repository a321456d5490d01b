// Constant or timed external wrenches, built in and scriptable from scene files.
#pragma once

#include "engine/controllers/controller.hpp"

namespace pegsim {

// Applies spec.force and spec.torque (world frame; the force at spec.point of the body) on
// every step that starts at a time t with start <= t < end. Times are compared to within
// 1e-6 h, so a run of h = 0.01 from 0 applies a wrench of [0.1, 0.2) on exactly 10 steps
// although t accumulates rounding.
class WrenchSchedule : public Controller {
 public:
  explicit WrenchSchedule(WrenchSpec spec) : spec_(spec) {}
  void control(const Model& model, const State& state, const Settings& settings,
               WrenchSink& out) override;
  bool active(double t, double h) const;

 private:
  WrenchSpec spec_;
};

}  // namespace pegsim
