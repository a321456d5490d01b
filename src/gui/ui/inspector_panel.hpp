// The inspector dock: the selected body's name, mass, pose, twist, kinetic energy and its
// contacts (gap, impulses) in the frame on screen.
#pragma once

#include <QWidget>

#include "gui/sim/frame_snapshot.hpp"

class QLabel;
class QTableWidget;

namespace pegsim::gui {

// Kinetic energy 1/2 m v.v + 1/2 w.(R I R^T) w, J (0 for a static body).
double kinetic_energy(const Body& body, const BodyState& state);

class InspectorPanel : public QWidget {
  Q_OBJECT
 public:
  explicit InspectorPanel(QWidget* parent = nullptr);
  // body -1: nothing selected.
  void show(const ModelPtr& model, const FramePtr& frame, int body);
  QString summaryText() const;  // the text of the property block (tests read it)

 private:
  QLabel* summary_;
  QTableWidget* contacts_;
};

}  // namespace pegsim::gui
