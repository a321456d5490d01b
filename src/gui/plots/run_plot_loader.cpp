#include "gui/plots/run_plot_loader.hpp"

#include <QElapsedTimer>
#include <algorithm>

namespace pegsim::gui {

RunPlotLoader::RunPlotLoader(const RunFileSource& source, const Vec3& gravity, int max_buckets,
                             int budget_ms, QObject* parent)
    : QObject(parent),
      source_(source),
      gravity_(gravity),
      buckets_(buckets(source.count(), max_buckets)),
      budget_ms_(budget_ms),
      scan_(*source.model(), gravity) {
  // The step figures of every frame come from three small tables, read once.
  const RunReader& r = source.reader();
  const std::vector<RecordedSolve> solves = r.solver_reports();
  const std::vector<std::int64_t> offsets = r.contact_offsets();
  const std::vector<std::int64_t> traps = r.sm_trap_offsets();  // all zeros in older files
  peaks_.reserve(buckets_.size());
  for (const Bucket& b : buckets_) {
    StepFigures peak;
    for (std::int64_t k = b.first; k <= b.last; ++k) {
      const RecordedSolve& s = solves[std::size_t(k)];
      StepFigures f;
      f.contacts = double(offsets[std::size_t(k) + 1] - offsets[std::size_t(k)]);
      f.sm_traps = double(traps[std::size_t(k) + 1] - traps[std::size_t(k)]);
      f.iterations = s.iterations;
      f.residual = s.problem_size > 0 ? s.residual : 0.0;
      f.solve_ms = 1e3 * s.timings.solve;
      peak.include(f);
    }
    peaks_.push_back(peak);
  }
  connect(&timer_, &QTimer::timeout, this, &RunPlotLoader::tick);
  timer_.start(0);
}

void RunPlotLoader::tick() {
  QElapsedTimer budget;
  budget.start();
  const Model& model = *source_.model();
  const std::size_t before = next_;
  try {
    while (!done() && (next_ == before || budget.elapsed() < budget_ms_)) {
      // The states of several buckets in one read (no contacts or solver reports: the step
      // figures came from the solver table); every frame is scanned, each bucket's last drawn.
      const std::size_t end = std::min(buckets_.size(), next_ + kBucketsPerRead);
      const std::int64_t first = buckets_[next_].first;
      const RunReader& reader = source_.reader();
      const std::vector<State> states = reader.states(first, buckets_[end - 1].last - first + 1);
      for (; next_ < end; ++next_) {
        const Bucket& b = buckets_[next_];
        for (std::int64_t k = b.first; k <= b.last; ++k)
          scan_.see(states[std::size_t(k - first)].time, states[std::size_t(k - first)].bodies);
        const FramePtr last = make_snapshot(model, states[std::size_t(b.last - first)], nullptr,
                                            &reader.settings(b.last));
        data_.append(model, gravity_, *last, scan_.take(), peaks_[next_]);
      }
    }
  } catch (const std::exception& e) {
    timer_.stop();
    emit failed(QString::fromStdString(e.what()));
    return;
  }
  if (done()) timer_.stop();
  emit progressed();
}

}  // namespace pegsim::gui
