#include "engine/controllers/wrench_schedule.hpp"

namespace pegsim {

bool WrenchSchedule::active(double t, double h) const {
  const double slack = 1e-6 * h;
  return t + slack >= spec_.start && t + slack < spec_.end;
}

void WrenchSchedule::control(const Model& model, const State& state, const Settings& settings,
                             WrenchSink& out) {
  if (!active(state.time, settings.h) || model.bodies.at(spec_.body).is_static) return;
  const Vec3 point = to_world(state.bodies[spec_.body], spec_.point);
  out.add_at(spec_.body, spec_.force, point);
  out.add(spec_.body, Vec3::Zero(), spec_.torque);
}

}  // namespace pegsim
