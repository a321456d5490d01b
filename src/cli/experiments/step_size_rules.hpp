// Settings that the thesis' Chapter 5 experiments scale with the step size h.
#pragma once

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/settings.hpp"

namespace pegsim::cli {

// Contact-consideration distance, epsilon = 10 h (thesis §5.2.1).
inline double contact_distance(double h) {
  return 10.0 * h;
}

// Penetration allowed inside a facet's Voronoi region before a contact turns infeasible (thesis
// §3.3). It must cover the penetration that one step's rotation leaves (§5.3), which grows with
// h: with a fixed 2.5 mm, the contacts of a tumbling body turn infeasible, are dropped, and it
// sinks through the body it rests on (triangle_drop under PEG at h = 0.008: through the static
// triangle; polygon_pour, seed 0, h = 0.01: mean overlap 0.077 m^2 against 1.1e-5 m^2 with 1 cm).
inline double feasibility_allowance(double h) {
  return std::max(0.0025, 2.0 * h);
}

// The "settings" of a generated experiment scene at step size h: the two rules above, Lemke
// with PGS behind it.
inline nlohmann::json scaled_settings(double h, const std::string& contact_model,
                                      Primaries primaries) {
  nlohmann::json s = {{"h", h},
                      {"epsilon", contact_distance(h)},
                      {"feasibility_depth", feasibility_allowance(h)},
                      {"contact_model", contact_model},
                      {"solver", "lemke"},
                      {"fallbacks", {"pgs"}}};
  if (primaries != Primaries::LargestGap) s["primaries"] = to_string(primaries);
  return s;
}

}  // namespace pegsim::cli
