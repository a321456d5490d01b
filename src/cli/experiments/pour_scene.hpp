// The scenes of the pouring experiments (thesis §5.2.3 box of polygons, §5.2.4 box of
// polyhedra; journal paper Fig. 20-25): random convex bodies, the hull of 10 points in
// ±0.25 m, appear one at a time above an open container and fall into it. Generated from a
// seed, the same on every machine; written as scene JSON so that a trial can be opened in the
// GUI (`pegsim-cli experiment polygon_pour --write-scene FILE`).
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "engine/core/settings.hpp"

namespace pegsim::cli {

struct PourSetup {
  int dimension = 2;       // 2: polygons into a 2D box; 3: polyhedra into a box of 5 blocks
  std::uint64_t seed = 0;  // the trial: which random bodies and drop points
  double h = 0.01;         // step size, s; epsilon = 10 h (as in §5.2.1)
  int bodies = 20;         // §5.2.3: 20 polygons; §5.2.4: 10 polyhedra
  double interval = 0.25;  // s between two bodies (§5.2.3: 0.25 s, §5.2.4: 0.5 s)
  double duration = 5.0;   // s (both experiments)
  std::string contact_model = "sm";
  Primaries primaries = Primaries::LargestGap;
};

// The thesis' set-ups: PourSetup for §5.2.3 (dimension 2) and §5.2.4 (dimension 3).
PourSetup polygon_pour_setup(std::uint64_t seed, double h);
PourSetup polyhedra_pour_setup(std::uint64_t seed, double h);

// The scene (docs/scene-format.md) of one trial.
nlohmann::json pour_scene(const PourSetup& setup);

}  // namespace pegsim::cli
