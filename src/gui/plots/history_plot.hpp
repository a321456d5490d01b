// Plot data of frames kept in memory (the live history): every frame is at hand, so the
// whole history is decimated at once.
#pragma once

#include "gui/plots/plot_data.hpp"
#include "gui/sim/frame_source.hpp"

namespace pegsim::gui {

PlotData plot_history(const Model& model, const Vec3& gravity, const FrameSource& frames,
                      int max_buckets);

}  // namespace pegsim::gui
