// The progress bar of long commands on a terminal's standard error, redrawn in place:
// "[#####     ]  50%  step 500/1000  1.2 s".
#pragma once

namespace pegsim::cli {

// `unit` names what is counted ("step", "point").
void draw_progress_bar(const char* unit, long long done, long long total, double wall_seconds);

}  // namespace pegsim::cli
