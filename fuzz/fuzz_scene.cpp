// libFuzzer target: scene files (io/scene.hpp). Promise under test: any bytes either load as a
// scene the simulator accepts, or are refused with one SceneError; a loaded scene of a few
// bodies steps without crashing and its state stays finite (the simulator never writes NaN).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "engine/dynamics/simulator.hpp"
#include "input_file.hpp"
#include "io/scene.hpp"

namespace {

bool finite(const pegsim::State& state) {
  for (const pegsim::BodyState& b : state.bodies)
    if (!b.position.allFinite() || !b.orientation.coeffs().allFinite() || !b.velocity.allFinite() ||
        !b.angular_velocity.allFinite())
      return false;
  return std::isfinite(state.time);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsim;
  static const std::filesystem::path file = fuzz::input_path(".json");
  fuzz::write_input(file, data, size);
  Scene scene;
  try {
    scene = load_scene(file);
  } catch (const SceneError&) {
    return 0;  // refused with a message: the promise kept
  } catch (const std::exception& e) {
    fuzz::defect(std::string("load_scene threw a non-SceneError: ") + e.what());
  }
  // A scene load_scene accepted must be one the simulator takes (validate does the same).
  try {
    Simulator sim(scene.model, scene.initial, scene.settings);
    // Stepping costs grow with the bodies; a few steps of a small scene reach every stage.
    if (scene.model.bodies.size() > 12) return 0;
    // A step no solver answers runs each to its iteration cap: PGS's 10 000 sweeps on a small
    // pile take 0.2 s, on a jointed one 3.5 s (each sweep solves the joint block by Lemke), the
    // implicit step's three Newton attempts of 200 iterations (at h and again at h/2, h/4, h/8)
    // 0.1 s, and 10 to 70 times that under the sanitizers and coverage. Capped at 1000 (Lemke's
    // pivots on these scenes stay below it; fewer send Lemke to its fallbacks, slower still),
    // at 300 with joints (a jointed cart takes 272 pivots a solve) and at 10 for the implicit
    // Newton, a step stays well within the minute scripts/fuzz.sh allows this target and still
    // reaches every stage; a solve that runs out fails the step (or falls back), an outcome
    // the promise allows.
    Settings capped = scene.settings;
    const int cap = scene.settings.formulation == Formulation::GeometricallyImplicit ? 10
                    : scene.model.joints.empty()                                     ? 1000
                                                                                     : 300;
    capped.max_iterations = std::min(capped.max_iterations, cap);
    sim.set_settings(capped);
    for (int k = 0; k < 3; ++k) {
      const bool failed = sim.step().failed;
      if (!finite(sim.state())) fuzz::defect("a step left a non-finite state");
      if (failed) break;  // a failed step leaves the state as it was: another repeats it
    }
  } catch (const std::exception& e) {
    fuzz::defect(std::string("an accepted scene was refused by the simulator: ") + e.what());
  }
  return 0;
}
