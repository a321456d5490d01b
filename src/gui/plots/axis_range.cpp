#include "gui/plots/axis_range.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim::gui {
namespace {

// The round number (1, 2 or 5 times a power of ten) at least x > 0.
double round_up(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= x * (1.0 - 1e-12)) return m * p;
  return 10.0 * p;
}

}  // namespace

AxisRange nice_axis(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) lo = 0.0, hi = 1.0;
  max_ticks = std::max(max_ticks, 3);
  if (hi == lo) {  // one value: a round step on each side (not below 0 for a value >= 0)
    const double half = lo == 0.0 ? 1.0 : round_up(std::abs(lo) * 0.5);
    hi = lo + half;
    lo = lo >= 0.0 && lo - half < 0.0 ? 0.0 : lo - half;
  }
  AxisRange a;
  double step = round_up((hi - lo) / (max_ticks - 1));
  while (true) {
    a.lo = std::floor(lo / step + 1e-9) * step;
    a.hi = std::ceil(hi / step - 1e-9) * step;
    a.ticks = static_cast<int>(std::lround((a.hi - a.lo) / step)) + 1;
    if (a.ticks <= max_ticks) break;
    step = round_up(step * 1.5);  // the next round step
  }
  a.step = step;
  if (a.lo == 0.0) a.lo = 0.0;  // no "-0"
  return a;
}

}  // namespace pegsim::gui
