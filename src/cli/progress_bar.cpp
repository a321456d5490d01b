#include "cli/progress_bar.hpp"

#include <cstdio>

namespace pegsim::cli {

void draw_progress_bar(const char* unit, long long done, long long total, double wall_seconds) {
  const int width = 40;
  const int filled = total ? int(width * done / total) : width;
  std::fprintf(stderr, "\r[%.*s%*s] %3d%%  %s %lld/%lld  %.1f s", filled,
               "########################################", width - filled, "",
               total ? int(100 * done / total) : 100, unit, done, total, wall_seconds);
  std::fflush(stderr);
}

}  // namespace pegsim::cli
