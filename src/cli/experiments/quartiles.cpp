#include "cli/experiments/quartiles.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim::cli {

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return NAN;
  const double at = q * static_cast<double>(sorted.size() - 1);
  const std::size_t i = static_cast<std::size_t>(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (at - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

Quartiles quartiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {quantile(values, 0.25), quantile(values, 0.5), quantile(values, 0.75)};
}

}  // namespace pegsim::cli
