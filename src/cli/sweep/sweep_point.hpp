// The points of a sweep: index -> parameter values (the axes in mixed radix, the first varying
// slowest; random parameters drawn from the sweep's seed and the point's index alone, so a
// point's values do not depend on which worker or shard runs it), and the point's scene.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sweep/sweep_spec.hpp"
#include "io/scene.hpp"

namespace pegsim::cli {

struct SweepPoint {
  long long index = 0;
  std::vector<nlohmann::json> values;  // one per parameter, in the sweep's order
};

SweepPoint sweep_point(const Sweep& sweep, long long index);

// The i-th random parameter's draw for `point`: uniform in [low, high), from SplitMix64 over
// (seed, point, i) (docs/sweeps.md).
double random_draw(std::uint64_t seed, long long point, std::size_t parameter, double low,
                   double high);

// The base a sweep's points start from: the scene file's JSON (read once) or the generator.
struct SweepBase {
  nlohmann::json scene;             // the base scene file's JSON; null for a generator
  std::filesystem::path scene_dir;  // resolves the scene's relative mesh and robot paths
  std::string scene_text;           // the file as read (part of the sweep's fingerprint)
};
SweepBase load_sweep_base(const Sweep& sweep);

// The scene JSON of a point: the generator's scene (its seed, h and contact model from the
// point's "seed", "settings.h" and "settings.contact_model") or the base scene, the sweep's
// duration, then every target of every parameter. Throws SweepError naming the parameter.
nlohmann::json point_scene_json(const Sweep& sweep, const SweepBase& base, const SweepPoint& p);
// Parsed and checked; throws SweepError naming the point and the scene's own message.
Scene point_scene(const Sweep& sweep, const SweepBase& base, const SweepPoint& p);

// Builds the scene of every value of every parameter (the others at their first value) and of
// each random parameter's bounds, so that a bad value is reported before anything runs.
// Returns the scene's dimension.
int check_sweep_points(const Sweep& sweep, const SweepBase& base);

// A point's steps for ordering the work (longest first): duration / h from its scene JSON.
double point_cost(const nlohmann::json& scene);

}  // namespace pegsim::cli
