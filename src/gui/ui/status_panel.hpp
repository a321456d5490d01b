// The status bar's fields: time, step, real-time factor, contact count, last solver and its
// residual, the largest overlap of any body pair in the frame, and a badge that shows when a
// step fell back to another solver or failed.
#pragma once

#include <QObject>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"
#include "gui/sim/frame_snapshot.hpp"

class QLabel;
class QStatusBar;

namespace pegsim::gui {

class StatusPanel : public QObject {
  Q_OBJECT
 public:
  explicit StatusPanel(QStatusBar* bar);
  // With `model` (the frame's), also the exact overlap of the frame's body pairs
  // (metrics/overlap.hpp): the largest pair's, an area in m² in a 2D model, else a volume in
  // m³. Contact models measure only enforced contacts, so this is where bodies that pass
  // through each other show.
  void showFrame(const FrameSnapshot& frame, const Model* model = nullptr);
  void showRealTimeFactor(double factor);  // < 0: not running
  QString badgeText() const;               // "" when the last step was clean
  QString badgeToolTip() const;
  QString overlapText() const;  // "" when no model was given
  QString trapsText() const;    // the frame's SM traps, "N SM traps"
  void showRecording(bool on, const QString& file);

 private:
  void showOverlap(const FrameSnapshot& frame, const Model* model);

  State overlap_state_;  // the frame's poses, reused from frame to frame
  QLabel* time_;
  QLabel* step_;
  QLabel* rate_;
  QLabel* contacts_;
  QLabel* traps_;
  QLabel* solver_;
  QLabel* overlap_;
  QLabel* badge_;
  QLabel* recording_;
};

}  // namespace pegsim::gui
