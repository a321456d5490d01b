// The inspector dock: the selected body's name, mass, pose, twist, kinetic energy and its
// contacts (gap, impulses, constraint group) in the frame on screen; below, the model's joints and
// the chosen joint's type, bodies, anchor, axis, angle or displacement and error in that frame.
#pragma once

#include <QWidget>

#include "gui/sim/frame_snapshot.hpp"

class QLabel;
class QListWidget;
class QTableWidget;

namespace pegsim::gui {

// The constraint groups (thesis §4.2) a contact of the frame belongs to, as the contact
// table shows them: "I #3 primary, X #5"; "U #0" for a unilateral constraint; "—" for none.
QString group_text(const FrameSnapshot& frame, int contact);
// A contact's kind for the contacts table: primary or secondary; a geometrically implicit
// contact's closest points, and on a quasi-rigid shell its deflection (normal, and tangential
// where it has one); a volumetric contact's common volume, mean depth, centroid, normal force
// p_n / h and spinning friction torque (h > 0, the step's size).
QString contact_text(const ContactSnapshot& c, double h);

// Kinetic energy 1/2 m v.v + 1/2 w.(R I R^T) w, J (0 for a static body).
double kinetic_energy(const Body& body, const BodyState& state);

class InspectorPanel : public QWidget {
  Q_OBJECT
 public:
  explicit InspectorPanel(QWidget* parent = nullptr);
  // body -1: nothing selected.
  void show(const ModelPtr& model, const FramePtr& frame, int body);
  QString summaryText() const;  // the text of the property block (tests read it)
  QTableWidget* contactTable() const { return contacts_; }

  // The joint list of a new model (hidden when it has none).
  void setJoints(const ModelPtr& model);
  // joint -1: none chosen.
  void showJoint(const ModelPtr& model, const FramePtr& frame, int joint);
  QListWidget* jointList() const { return joints_; }
  // A row of the joint table by its name ("type", "angle (rad)", "position error (m)", ...);
  // empty when the row is not shown.
  QString jointValue(const QString& property) const;

 signals:
  void jointChosen(int joint);  // picked in the list

 private:
  QLabel* summary_;
  QTableWidget* contacts_;
  QLabel* joints_title_;
  QListWidget* joints_;
  QTableWidget* joint_table_;
};

}  // namespace pegsim::gui
