#include "gui/ui/timeline_bar.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace pegsim::gui {

TimelineBar::TimelineBar(QWidget* parent) : QWidget(parent) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  auto button = [this, layout](QStyle::StandardPixmap icon, const QString& tip, auto slot) {
    auto* b = new QToolButton;
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, this, slot);
    layout->addWidget(b);
    return b;
  };
  button(QStyle::SP_MediaSkipBackward, "First frame (Home)", &TimelineBar::toStart);
  button(QStyle::SP_MediaSeekBackward, "Previous frame (Left)", &TimelineBar::stepBack);
  play_ = button(QStyle::SP_MediaPlay, "Play the timeline", &TimelineBar::togglePlayback);
  button(QStyle::SP_MediaSeekForward, "Next frame (Right)", &TimelineBar::stepForward);
  button(QStyle::SP_MediaSkipForward, "Last frame (End)", &TimelineBar::toEnd);
  slider_ = new QSlider(Qt::Horizontal);
  slider_->setRange(0, 0);
  layout->addWidget(slider_, 1);
  label_ = new QLabel;
  label_->setMinimumWidth(180);
  layout->addWidget(label_);
  // Sliders hold int: run files beyond 2^31 frames are far outside this tool's use.
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    updateLabel();
    emit frameChosen(v);
  });
  connect(&timer_, &QTimer::timeout, this, &TimelineBar::tick);
  updateLabel();
}

void TimelineBar::setFrameCount(qint64 count, std::function<double(qint64)> time_of) {
  count_ = count;
  time_of_ = std::move(time_of);
  const QSignalBlocker block(slider_);  // the range change must not pick a frame by itself
  slider_->setRange(0, int(std::max<qint64>(0, count - 1)));
  updateLabel();
}

qint64 TimelineBar::current() const {
  return slider_->value();
}

void TimelineBar::setCurrent(qint64 k) {
  if (count_ == 0) return;
  slider_->setValue(int(std::clamp<qint64>(k, 0, count_ - 1)));
}

void TimelineBar::togglePlayback() {
  if (timer_.isActive()) {
    timer_.stop();
  } else {
    if (atEnd()) setCurrent(0);
    start_time_ = time_of_ ? time_of_(current()) : 0.0;
    wall_.start();
    timer_.start(16);
  }
  play_->setIcon(
      style()->standardIcon(timer_.isActive() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

void TimelineBar::tick() {
  // Real-time playback: the last frame whose time has been reached by the wall clock.
  const double target = start_time_ + wall_.nsecsElapsed() * 1e-9;
  qint64 k = current();
  while (k + 1 < count_ && time_of_ && time_of_(k + 1) <= target) ++k;
  if (k == current() && !time_of_) ++k;
  setCurrent(k);
  if (atEnd()) togglePlayback();
}

void TimelineBar::updateLabel() {
  const double t = (time_of_ && count_ > 0) ? time_of_(current()) : 0.0;
  label_->setText(QString("frame %1 / %2   t = %3 s")
                      .arg(count_ ? current() : 0)
                      .arg(std::max<qint64>(0, count_ - 1))
                      .arg(t, 0, 'f', 3));
}

}  // namespace pegsim::gui
