#include "io/run_replay.hpp"

#include "io/run_settings_row.hpp"

namespace pegsim {

void prepare_replay_step(Simulator& sim, const RunReader& reader, const RunFrame& next) {
  const Settings& settings = reader.settings(next.index);
  // Only on a change: set_settings rebuilds the solver chain.
  if (!run_layout::same_settings(settings, sim.settings())) sim.set_settings(settings);
  for (std::size_t b = 0; b < next.bodies.size(); ++b)
    sim.set_wrench(static_cast<int>(b), next.bodies[b].force, next.bodies[b].torque);
}

}  // namespace pegsim
