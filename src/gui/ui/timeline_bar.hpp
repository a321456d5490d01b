// The timeline: one slider over the frames of the current source (the live history or a run
// file), with playback of those frames, step back/forward and jump to start/end.
#pragma once

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <functional>

class QLabel;
class QSlider;
class QToolButton;

namespace pegsim::gui {

class TimelineBar : public QWidget {
  Q_OBJECT
 public:
  explicit TimelineBar(QWidget* parent = nullptr);
  // count frames; `time_of(k)` gives frame k's simulated time (for real-time playback).
  void setFrameCount(qint64 count, std::function<double(qint64)> time_of);
  qint64 frameCount() const { return count_; }
  qint64 current() const;
  bool atEnd() const { return count_ == 0 || current() == count_ - 1; }
  bool playing() const { return timer_.isActive(); }

 public slots:
  void setCurrent(qint64 k);  // emits frameChosen if it changes
  void togglePlayback();
  void stepBack() { setCurrent(current() - 1); }
  void stepForward() { setCurrent(current() + 1); }
  void toStart() { setCurrent(0); }
  void toEnd() { setCurrent(count_ - 1); }

 signals:
  void frameChosen(qint64 k);

 private:
  void tick();
  void updateLabel();

  QSlider* slider_;
  QLabel* label_;
  QToolButton* play_;
  QTimer timer_;
  QElapsedTimer wall_;
  double start_time_ = 0.0;
  qint64 count_ = 0;
  std::function<double(qint64)> time_of_;
};

}  // namespace pegsim::gui
