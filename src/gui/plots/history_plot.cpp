#include "gui/plots/history_plot.hpp"

namespace pegsim::gui {

PlotData plot_history(const Model& model, const Vec3& gravity, const FrameSource& frames,
                      int max_buckets) {
  PlotData data;
  for (const Bucket& b : buckets(frames.count(), max_buckets)) {
    StepFigures peak;
    for (std::int64_t k = b.first; k <= b.last; ++k) peak.include(step_figures(*frames.frame(k)));
    const FramePtr last = frames.frame(b.last);
    const FramePtr previous = b.last > 0 ? frames.frame(b.last - 1) : nullptr;
    data.append(model, gravity, *last, previous.get(), peak);
  }
  return data;
}

}  // namespace pegsim::gui
