// Median and quartiles over the trials of an experiment (the thesis' figures plot the median
// with Q1 and Q3 over ten trials, e.g. Fig. 5.10b, 5.20).
#pragma once

#include <vector>

namespace pegsim::cli {

// The q-quantile of sorted values, linearly interpolated between order statistics; NaN when
// there are none.
double quantile(const std::vector<double>& sorted, double q);

struct Quartiles {
  double q1, median, q3;
};
Quartiles quartiles(std::vector<double> values);

}  // namespace pegsim::cli
