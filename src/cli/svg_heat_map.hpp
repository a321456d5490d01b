// A grid of values as a standalone SVG document (one coloured square per cell, its value
// written in it), for the success maps of parameter sweeps: fractions in [0, 1] by default,
// or any range [lo, hi].
#pragma once

#include <string>
#include <vector>

namespace pegsim::cli {

struct HeatMap {
  std::string title;
  std::string x_label, y_label;
  std::vector<double> x, y;  // cell centres along each axis, increasing, evenly spaced
  // value[j][i]: the cell at (x[i], y[j]), in [lo, hi]; NaN: no data (drawn grey).
  std::vector<std::vector<double>> value;
  double lo = 0.0, hi = 1.0;  // the colour scale's ends; lo == hi: fitted to the values
};

// The map as an SVG document: white (lo) to dark green (hi), y increasing upwards.
std::string heat_map_svg(const HeatMap& map);

}  // namespace pegsim::cli
