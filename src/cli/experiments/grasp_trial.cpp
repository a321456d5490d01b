#include "cli/experiments/grasp_trial.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "cli/experiments/experiment.hpp"
#include "cli/experiments/pour_trial.hpp"
#include "engine/dynamics/simulator.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {
namespace {

// A trap between a fingertip (a distal link) and the object, either one's feature trapped.
bool fingertip_against_object(const SmTrap& trap, const std::array<int, 2>& fingertips,
                              int object) {
  const auto tip = [&](int body) { return body == fingertips[0] || body == fingertips[1]; };
  return (tip(trap.body) && trap.other_body == object) ||
         (trap.body == object && tip(trap.other_body));
}

}  // namespace

GraspTrial run_grasp_trial(const GraspSetup& setup) {
  Scene scene;
  try {
    scene = parse_scene(grasp_scene(setup).dump(), "generated grasp scene", ".");
  } catch (const SceneError& e) {
    throw ExperimentError(e.what());
  }
  const Model& model = scene.model;
  const int object = model.body_index("object");
  const std::array<int, 2> fingertips = {model.body_index("left_distal"),
                                         model.body_index("right_distal")};
  Simulator sim(model, scene.initial, scene.settings);
  GraspTrial t;
  t.setup = setup;
  const int steps = static_cast<int>(std::lround(setup.duration / setup.h));
  t.positions.reserve(steps + 1);
  auto record = [&] { t.positions.push_back(sim.state().bodies[object].position.head<2>()); };
  record();
  for (int k = 0; k < steps; ++k) {
    const StepReport& r = sim.step();
    if (r.failed) {
      t.failure = "step " + std::to_string(k + 1) + " failed: " + r.failure;
      break;
    }
    ++t.steps;
    record();
    t.max_penetration = std::max(t.max_penetration, r.max_penetration);
    t.steps_with_sm_traps += !r.sm_traps.empty();
    t.steps_with_fingertip_traps += std::any_of(
        r.sm_traps.begin(), r.sm_traps.end(),
        [&](const SmTrap& trap) { return fingertip_against_object(trap, fingertips, object); });
    for (std::size_t b = 0; b < model.bodies.size(); ++b)
      if (!(sim.state().bodies[b].velocity.norm() <= kExplodedSpeed)) {
        t.failure = "exploded at step " + std::to_string(k + 1) + ": " + model.bodies[b].name +
                    " moves at " + std::to_string(sim.state().bodies[b].velocity.norm()) + " m/s";
        break;
      }
    if (!t.failure.empty()) break;
  }
  t.finished = t.failure.empty() && t.steps == steps;
  return t;
}

}  // namespace pegsim::cli
