// Line charts as standalone SVG documents, for the experiments' figures and the performance
// profiles: no plotting library, so a figure is reproducible from the CLI on any machine.
#pragma once

#include <string>
#include <vector>

namespace pegsim::cli {

struct ChartAxis {
  std::string label;
  int log_base = 0;             // 0: linear; 2 or 10: logarithmic, ticks at the base's powers
  double min = 0.0, max = 0.0;  // range; min == max: fitted to the data (with a margin)
};

struct ChartSeries {
  std::string label;
  std::vector<double> x, y;
  // Optional band drawn around the line, e.g. the first and third quartiles: same size as x.
  std::vector<double> low, high;
  bool step = false;     // right-continuous step function (performance profiles)
  bool markers = false;  // a dot at every point
  bool dashed = false;
};

struct Chart {
  std::string title;
  ChartAxis x, y;
  std::vector<ChartSeries> series;
};

// The chart as an SVG document (640 x 420 px, legend on the right). Non-finite points and
// points outside a logarithmic axis' positive range break the line instead of bending it.
std::string chart_svg(const Chart& chart);

// Ticks for an axis range: "nice" linear ticks (1, 2, 5 x 10^k) or the base's powers.
std::vector<double> axis_ticks(double lo, double hi, int log_base);

}  // namespace pegsim::cli
