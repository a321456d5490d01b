// libFuzzer target: sweep files (cli/sweep/sweep_spec.hpp). Promise under test: any bytes either
// load as a sweep or are refused with one SweepError; a loaded sweep's first points give their
// parameter values and a scene JSON (of a fixed small base scene, or of its generator) or a
// SweepError naming the parameter, and that scene either parses or is refused with a SceneError.
// Nothing runs: the points' runs are the engine's, fuzzed through fuzz_scene.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "cli/sweep/sweep_point.hpp"
#include "input_file.hpp"

namespace {

// A base scene for sweeps that name a file: two bodies, one with an orientation to turn.
constexpr const char* kBase = R"({"name": "base", "duration": 0.1, "settings": {"h": 0.01},
  "bodies": [{"name": "ground", "shape": {"type": "plane"}},
             {"name": "box", "shape": {"type": "box", "size": [1, 1, 1]}, "position": [0, 0, 0.5],
              "orientation": {"axis": [0, 0, 1], "angle": 0.3}, "mu": 0.4}]})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pegsim;
  using namespace pegsim::cli;
  static const std::filesystem::path file = fuzz::input_path(".json");
  fuzz::write_input(file, data, size);
  Sweep sweep;
  try {
    sweep = load_sweep(file);
  } catch (const SweepError&) {
    return 0;  // refused with a message: the promise kept
  } catch (const std::exception& e) {
    fuzz::defect(std::string("load_sweep threw a non-SweepError: ") + e.what());
  }
  SweepBase base;
  if (sweep.generator.empty()) {
    base.scene = nlohmann::json::parse(kBase);
  } else {
    // Generated scenes cost their bodies' hulls: a few bodies reach every branch.
    if (sweep.generator_options.contains("bodies") &&
        !(sweep.generator_options["bodies"].is_number() &&
          sweep.generator_options["bodies"].get<double>() <= 4))
      return 0;
  }
  const long long points = std::min<long long>(sweep.point_count(), 3);
  for (long long k = 0; k < points; ++k) {
    try {
      const SweepPoint p = sweep_point(sweep, k);
      if (p.values.size() != sweep.parameters.size()) fuzz::defect("a point lacks a value");
      const nlohmann::json scene = point_scene_json(sweep, base, p);
      try {
        parse_scene(scene.dump(), "point", ".");
      } catch (const SceneError&) {
        // refused with a message
      }
    } catch (const SweepError&) {
      // refused, naming the parameter
    } catch (const std::exception& e) {
      fuzz::defect(std::string("a sweep point threw a non-SweepError: ") + e.what());
    }
  }
  return 0;
}
