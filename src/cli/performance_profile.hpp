// Dolan-More performance profiles (Math. Programming 91, 2002) drawn as a standalone SVG.
#pragma once

#include <string>
#include <vector>

namespace pegsim::cli {

// times[p][s]: solver s's time on problem p, +infinity where it did not solve p.
// rho_s(tau) = |{p : times[p][s] <= tau * min_s' times[p][s']}| / |problems|.
// Returns the profile of each solver at the breakpoints `taus` (ascending, from 1).
struct PerformanceProfile {
  std::vector<std::string> solvers;
  std::vector<double> taus;              // every ratio that occurs, ascending, starting at 1
  std::vector<std::vector<double>> rho;  // [solver][tau]
  double max_ratio = 1.0;                // largest finite ratio
};

PerformanceProfile performance_profile(const std::vector<std::string>& solvers,
                                       const std::vector<std::vector<double>>& times);

// The profile as an SVG document: log2(tau) on x, rho in [0, 1] on y, one step line per solver
// and a legend.
std::string profile_svg(const PerformanceProfile& profile, const std::string& title);

}  // namespace pegsim::cli
