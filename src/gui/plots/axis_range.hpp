// A plot axis on round numbers: a range and ticks every 1, 2 or 5 times a power of ten that
// cover the data, as chart libraries do ("nice numbers", Heckbert, Graphics Gems I, 1990).
#pragma once

namespace pegsim::gui {

struct AxisRange {
  double lo = 0.0, hi = 1.0;
  double step = 0.25;  // between ticks
  int ticks = 5;       // lo, lo + step, ..., hi
};

// The smallest range on multiples of a round step that holds [lo, hi] with at most
// `max_ticks` ticks. Data that are all >= 0 (counts, times, energies of bodies above their
// floor) keep the axis at or above 0; an empty or one-valued range gets one round step
// around it.
AxisRange nice_axis(double lo, double hi, int max_ticks = 6);

}  // namespace pegsim::gui
