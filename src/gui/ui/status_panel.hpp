// The status bar's fields: time, step, real-time factor, contact count, last solver and its
// residual, and a badge that shows when a step fell back to another solver or failed.
#pragma once

#include <QObject>

#include "gui/sim/frame_snapshot.hpp"

class QLabel;
class QStatusBar;

namespace pegsim::gui {

class StatusPanel : public QObject {
  Q_OBJECT
 public:
  explicit StatusPanel(QStatusBar* bar);
  void showFrame(const FrameSnapshot& frame);
  void showRealTimeFactor(double factor);  // < 0: not running
  QString badgeText() const;               // "" when the last step was clean
  void showRecording(bool on, const QString& file);

 private:
  QLabel* time_;
  QLabel* step_;
  QLabel* rate_;
  QLabel* contacts_;
  QLabel* solver_;
  QLabel* badge_;
  QLabel* recording_;
};

}  // namespace pegsim::gui
