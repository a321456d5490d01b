// A grid of fractions in [0, 1] as a standalone SVG document (one coloured square per cell,
// its value written in it), for the success maps of parameter sweeps.
#pragma once

#include <string>
#include <vector>

namespace pegsim::cli {

struct HeatMap {
  std::string title;
  std::string x_label, y_label;
  std::vector<double> x, y;  // cell centres along each axis, increasing, evenly spaced
  // value[j][i]: the cell at (x[i], y[j]), in [0, 1]; NaN: no data (drawn grey).
  std::vector<std::vector<double>> value;
};

// The map as an SVG document: white (0) to dark green (1), y increasing upwards.
std::string heat_map_svg(const HeatMap& map);

}  // namespace pegsim::cli
