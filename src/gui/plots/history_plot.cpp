#include "gui/plots/history_plot.hpp"

namespace pegsim::gui {

PlotData plot_history(const Model& model, const Vec3& gravity, const FrameSource& frames,
                      int max_buckets) {
  PlotData data;
  BucketScanner scan(model, gravity);
  for (const Bucket& b : buckets(frames.count(), max_buckets)) {
    StepFigures peak;
    for (std::int64_t k = b.first; k <= b.last; ++k) {
      const FramePtr f = frames.frame(k);
      peak.include(step_figures(*f));
      scan.see(f->time, f->bodies);
    }
    data.append(model, gravity, *frames.frame(b.last), scan.take(), peak);
  }
  return data;
}

}  // namespace pegsim::gui
