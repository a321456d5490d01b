#include "cli/performance_profile.hpp"

#include "cli/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pegsim::cli {

PerformanceProfile performance_profile(const std::vector<std::string>& solvers,
                                       const std::vector<std::vector<double>>& times) {
  PerformanceProfile out;
  out.solvers = solvers;
  const std::size_t ns = solvers.size();
  std::vector<std::vector<double>> ratio(ns);
  for (const std::vector<double>& t : times) {
    double best = std::numeric_limits<double>::infinity();
    for (double v : t) best = std::min(best, v);
    for (std::size_t s = 0; s < ns; ++s) {
      // A problem nobody solved counts against everyone; a zero best time (below the clock's
      // resolution) compares as equal times.
      double r = std::numeric_limits<double>::infinity();
      if (std::isfinite(t[s])) r = best > 0.0 ? t[s] / best : 1.0;
      ratio[s].push_back(r);
      if (std::isfinite(r)) out.max_ratio = std::max(out.max_ratio, r);
    }
  }
  out.taus.push_back(1.0);
  for (const auto& rs : ratio)
    for (double r : rs)
      if (std::isfinite(r)) out.taus.push_back(r);
  std::sort(out.taus.begin(), out.taus.end());
  out.taus.erase(std::unique(out.taus.begin(), out.taus.end()), out.taus.end());
  const double n = std::max<double>(1.0, static_cast<double>(times.size()));
  for (std::size_t s = 0; s < ns; ++s) {
    std::vector<double> sorted = ratio[s];
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> rho;
    for (double tau : out.taus)
      rho.push_back(static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), tau) -
                                        sorted.begin()) /
                    n);
    out.rho.push_back(std::move(rho));
  }
  return out;
}

std::string profile_svg(const PerformanceProfile& p, const std::string& title) {
  Chart chart;
  chart.title = title;
  // x: log2(tau) from 1 to at least 2, up to a whole power of two.
  const double xmax = std::max(1.0, std::ceil(std::log2(p.max_ratio) + 1e-12));
  chart.x = {"\u03c4 (time within a factor \u03c4 of the best; log scale)", 2, 1.0,
             std::exp2(xmax)};
  chart.y = {"fraction of problems solved", 0, 0.0, 1.0};
  for (std::size_t k = 0; k < p.solvers.size(); ++k) {
    ChartSeries series;
    series.label = p.solvers[k];
    series.x = p.taus;
    series.y = p.rho[k];
    series.step = true;
    chart.series.push_back(std::move(series));
  }
  return chart_svg(chart);
}

}  // namespace pegsim::cli
