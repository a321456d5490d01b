// Reads the plot data of a run file a little at a time on the GUI thread (HDF5 is not used
// from two threads): each event-loop turn reads samples for a few milliseconds, so a
// 100 000-frame file fills the plots progressively and the window never stalls.
#pragma once

#include <QObject>
#include <QTimer>
#include <vector>

#include "gui/plots/plot_data.hpp"
#include "gui/sim/frame_source.hpp"

namespace pegsim::gui {

class RunPlotLoader : public QObject {
  Q_OBJECT
 public:
  // `source` must outlive the loader. Starts reading at once (from the event loop); each
  // turn reads for `budget_ms` (at least one read of kBucketsPerRead samples).
  RunPlotLoader(const RunFileSource& source, const Vec3& gravity, int max_buckets,
                int budget_ms = 12, QObject* parent = nullptr);
  const PlotData& data() const { return data_; }
  bool done() const { return next_ >= buckets_.size(); }

 signals:
  void progressed();             // more samples in data(); after the last one done() holds
  void failed(QString message);  // the file could not be read: loading stops there

 private:
  void tick();
  static constexpr std::size_t kBucketsPerRead = 16;

  const RunFileSource& source_;
  Vec3 gravity_;
  std::vector<Bucket> buckets_;
  std::vector<StepFigures> peaks_;  // per bucket, from the file's solver table
  int budget_ms_;
  std::size_t next_ = 0;
  BucketScanner scan_;  // every frame, in order
  PlotData data_;
  QTimer timer_;
};

}  // namespace pegsim::gui
