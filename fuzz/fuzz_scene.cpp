// libFuzzer target: scene files (io/scene.hpp). Promise under test: any bytes either load as a
// scene the simulator accepts, or are refused with one SceneError; a loaded scene of a few
// bodies steps without crashing and its state stays finite (the simulator never writes NaN).
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
    for (int k = 0; k < 3; ++k) {
      sim.step();
      if (!finite(sim.state())) fuzz::defect("a step left a non-finite state");
    }
  } catch (const std::exception& e) {
    fuzz::defect(std::string("an accepted scene was refused by the simulator: ") + e.what());
  }
  return 0;
}
