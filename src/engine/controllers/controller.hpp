// Stage 1 of the step: controllers (docs/architecture.md). A controller is called at the start of
// every step with the state the step begins from — RPIsim's userFunction, as the PD-controlled
// arm of thesis §6.5 uses it — and may add external wrenches to the bodies. This is the C++ API
// for users who extend the program: derive from Controller and pass it to
// Simulator::add_controller.
#pragma once

#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// Adds wrenches (world frame) to the bodies' external force and torque of the coming step.
// Wrenches on the world (-1) or on a static body have no effect and are dropped.
class WrenchSink {
 public:
  WrenchSink(const Model& model, std::vector<BodyState>& bodies) : model_(model), bodies_(bodies) {}
  void add(int body, const Vec3& force, const Vec3& torque);
  // A force applied at a world point: adds the force and its moment about the centre of mass.
  void add_at(int body, const Vec3& force, const Vec3& world_point);

 private:
  const Model& model_;
  std::vector<BodyState>& bodies_;
};

class Controller {
 public:
  virtual ~Controller() = default;
  // Reads `state` (time, poses, twists) and adds this step's wrenches to `out`.
  virtual void control(const Model& model, const State& state, const Settings& settings,
                       WrenchSink& out) = 0;
  // Back to the initial state (Simulator::reset); stateless controllers need nothing.
  virtual void reset() {}
};

}  // namespace pegsim
