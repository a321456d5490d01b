#include "gui/ui/inspector_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace pegsim::gui {

double kinetic_energy(const Body& body, const BodyState& s) {
  if (body.is_static) return 0.0;
  const Mat3 R = s.orientation.toRotationMatrix();
  const Mat3 inertia_world = R * body.inertia * R.transpose();
  return 0.5 * body.mass * s.velocity.squaredNorm() +
         0.5 * s.angular_velocity.dot(inertia_world * s.angular_velocity);
}

namespace {
QString vec(const Vec3& v, int precision = 4) {
  return QString("(%1, %2, %3)")
      .arg(v.x(), 0, 'f', precision)
      .arg(v.y(), 0, 'f', precision)
      .arg(v.z(), 0, 'f', precision);
}

}  // namespace

QString contact_text(const ContactSnapshot& c, double h) {
  if (c.volume > 0.0) {
    QString text = QString("common volume %1, depth %2 m, centroid %3")
                       .arg(c.volume, 0, 'g', 4)
                       .arg(-c.gap, 0, 'g', 4)
                       .arg(vec(c.point_a + 0.5 * c.gap * c.normal));
    if (h > 0.0) text += QString(", force %1 N").arg(c.normal_impulse / h, 0, 'g', 4);
    if (h > 0.0 && c.torsional_impulse != 0.0)
      text += QString(", spin torque %1 N m").arg(c.torsional_impulse / h, 0, 'g', 4);
    if (c.tangential_deflection.norm() > 0.0)
      text += QString(", bristle stretch %1 m").arg(c.tangential_deflection.norm(), 0, 'g', 4);
    return text;
  }
  if (!c.implicit) return c.primary ? "primary" : "secondary";
  const double shear = c.tangential_deflection.norm();
  if (c.deflection <= 1e-12 && shear <= 1e-12) return "closest points";
  QString text = QString("shell, deflection %1 m").arg(c.deflection, 0, 'g', 4);
  if (shear > 1e-12) text += QString(", tangential %1 m").arg(shear, 0, 'g', 4);
  return text;
}

QString group_text(const FrameSnapshot& frame, int contact) {
  QStringList out;
  for (int g : frame.groups_of(contact)) {
    const ConstraintGroup& group = frame.constraints.groups[std::size_t(g)];
    const char* kind = group.kind == ConstraintKind::Unilateral     ? "U"
                       : group.kind == ConstraintKind::InterContact ? "I"
                                                                    : "X";
    const bool primary = frame.constraints.primary(group) == contact;
    out << QString("%1 #%2%3").arg(kind).arg(g).arg(primary && group.count > 1 ? " primary" : "");
  }
  return out.isEmpty() ? QString("—") : out.join(", ");
}

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  summary_ = new QLabel("Click a body to inspect it.");
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  contacts_ = new QTableWidget(0, 7);
  contacts_->setHorizontalHeaderLabels(
      {"with", "kind", "gap (m)", "p_n (N s)", "|p_f| (N s)", "enforced", "group"});
  contacts_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  contacts_->verticalHeader()->hide();
  contacts_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  joints_title_ = new QLabel("<b>Joints</b>");
  joints_ = new QListWidget;
  joints_->setMaximumHeight(70);
  joint_table_ = new QTableWidget(0, 2);
  joint_table_->horizontalHeader()->hide();
  joint_table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  joint_table_->horizontalHeader()->setStretchLastSection(true);
  joint_table_->verticalHeader()->hide();
  joint_table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
  joint_table_->setWordWrap(false);
  joint_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(summary_);
  layout->addWidget(contacts_, 1);
  layout->addWidget(joints_title_);
  layout->addWidget(joints_);
  layout->addWidget(joint_table_, 1);
  connect(joints_, &QListWidget::currentRowChanged, this, &InspectorPanel::jointChosen);
  setJoints(nullptr);
}

void InspectorPanel::setJoints(const ModelPtr& model) {
  const QSignalBlocker block(joints_);
  joints_->clear();
  const bool any = model && !model->joints.empty();
  if (any)
    for (const Joint& j : model->joints)
      joints_->addItem(QString("%1 (%2)").arg(QString::fromStdString(j.name), to_string(j.type)));
  for (QWidget* w : std::initializer_list<QWidget*>{joints_title_, joints_, joint_table_})
    w->setVisible(any);
  joint_table_->setRowCount(0);
}

void InspectorPanel::showJoint(const ModelPtr& model, const FramePtr& frame, int joint) {
  {
    const QSignalBlocker block(joints_);
    joints_->setCurrentRow(joint);
  }
  joint_table_->setRowCount(0);
  if (!model || !frame || joint < 0 || joint >= int(model->joints.size()) ||
      joint >= int(frame->joints.size()))
    return;
  const Joint& j = model->joints[std::size_t(joint)];
  const JointSnapshot& s = frame->joints[std::size_t(joint)];
  auto body_name = [&](int b) {
    return b >= 0 && b < int(model->bodies.size())
               ? QString::fromStdString(model->bodies[std::size_t(b)].name)
               : QString("world");
  };
  auto number = [](double x) { return QString::number(x, 'g', 6); };
  std::vector<std::pair<QString, QString>> rows{
      {"joint", QString("%1 (#%2)").arg(QString::fromStdString(j.name)).arg(joint)},
      {"type", to_string(j.type)},
      {"body A", body_name(j.body_a)},
      {"body B", body_name(j.body_b)},
      {"anchor (m)", vec(s.frames.origin_a, 5)},
      {"axis z", vec(s.frames.axes_a.col(2), 5)}};
  // The free coordinate of joint_coordinates: angle about z, displacement along it.
  if (j.type == JointType::Revolute || j.type == JointType::Cylindrical) {
    rows.push_back({"angle (rad)", number(s.coordinates.angle)});
    rows.push_back({"angle (deg)", number(s.coordinates.angle * 180.0 / 3.14159265358979323846)});
  }
  if (j.type == JointType::Prismatic || j.type == JointType::Cylindrical)
    rows.push_back({"displacement (m)", number(s.coordinates.displacement)});
  // An implicit drive's effort over the last step, where the frame knows it (live runs).
  for (const PdJointSpec& pd : model->controllers.pd_joints)
    if (pd.implicit && pd.joint == joint && std::isfinite(s.drive_effort)) {
      rows.push_back({drives_angle(pd, j.type) ? "drive effort (N m)" : "drive effort (N)",
                      number(s.drive_effort)});
      break;
    }
  rows.push_back({"position error (m)", number(s.error.position)});
  rows.push_back({"rotation error (rad)", number(s.error.angle)});
  joint_table_->setRowCount(int(rows.size()));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    joint_table_->setItem(int(r), 0, new QTableWidgetItem(rows[r].first));
    joint_table_->setItem(int(r), 1, new QTableWidgetItem(rows[r].second));
  }
}

QString InspectorPanel::jointValue(const QString& property) const {
  for (int r = 0; r < joint_table_->rowCount(); ++r)
    if (joint_table_->item(r, 0)->text() == property) return joint_table_->item(r, 1)->text();
  return {};
}

QString InspectorPanel::summaryText() const {
  return summary_->text();
}

void InspectorPanel::show(const ModelPtr& model, const FramePtr& frame, int body) {
  contacts_->setRowCount(0);
  const bool known = model && frame && body >= 0 && body < int(model->bodies.size()) &&
                     body < int(frame->bodies.size());
  contacts_->setVisible(known);  // the room goes to the joint table
  if (!known) {
    summary_->setText(model && !model->joints.empty() ? "Click a body or a joint to inspect it."
                                                      : "Click a body to inspect it.");
    return;
  }
  const Body& b = model->bodies[std::size_t(body)];
  const BodyState& s = frame->bodies[std::size_t(body)];
  const Quat& q = s.orientation;
  summary_->setText(
      QString("<b>%1</b> (#%2, %3)<br>mass: %4<br>position: %5 m<br>orientation (w,x,y,z): "
              "(%6, %7, %8, %9)<br>velocity: %10 m/s<br>angular velocity: %11 rad/s<br>"
              "kinetic energy: %12 J<br>contacts: %13")
          .arg(QString::fromStdString(b.name))
          .arg(body)
          .arg(to_string(b.shape.kind))
          .arg(b.is_static ? QString("static") : QString("%1 kg").arg(b.mass, 0, 'g', 6))
          .arg(vec(s.position))
          .arg(q.w(), 0, 'f', 4)
          .arg(q.x(), 0, 'f', 4)
          .arg(q.y(), 0, 'f', 4)
          .arg(q.z(), 0, 'f', 4)
          .arg(vec(s.velocity))
          .arg(vec(s.angular_velocity))
          .arg(kinetic_energy(b, s), 0, 'g', 6)
          .arg(frame->contact_count(body)));
  for (std::size_t i = 0; i < frame->contacts.size(); ++i) {
    const ContactSnapshot& c = frame->contacts[i];
    if (c.body_a != body && c.body_b != body) continue;
    const int other = c.body_a == body ? c.body_b : c.body_a;
    const int row = contacts_->rowCount();
    contacts_->insertRow(row);
    const QStringList cells{other >= 0 && other < int(model->bodies.size())
                                ? QString::fromStdString(model->bodies[std::size_t(other)].name)
                                : QString::number(other),
                            contact_text(c, frame->h),
                            QString::number(c.gap, 'g', 4),
                            QString::number(c.normal_impulse, 'g', 4),
                            QString::number(c.friction_impulse.norm(), 'g', 4),
                            c.enforced ? "yes" : "no",
                            group_text(*frame, int(i))};
    for (int col = 0; col < cells.size(); ++col)
      contacts_->setItem(row, col, new QTableWidgetItem(cells[col]));
  }
}

}  // namespace pegsim::gui
