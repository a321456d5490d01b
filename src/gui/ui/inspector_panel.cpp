#include "gui/ui/inspector_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

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
      .arg(v.x(), 0, 'f', precision).arg(v.y(), 0, 'f', precision).arg(v.z(), 0, 'f', precision);
}
}  // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  summary_ = new QLabel("Click a body to inspect it.");
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  contacts_ = new QTableWidget(0, 6);
  contacts_->setHorizontalHeaderLabels({"with", "kind", "gap (m)", "p_n (N s)", "|p_f| (N s)", "enforced"});
  contacts_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  contacts_->verticalHeader()->hide();
  contacts_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(summary_);
  layout->addWidget(contacts_, 1);
}

QString InspectorPanel::summaryText() const { return summary_->text(); }

void InspectorPanel::show(const ModelPtr& model, const FramePtr& frame, int body) {
  contacts_->setRowCount(0);
  if (!model || !frame || body < 0 || body >= int(model->bodies.size()) ||
      body >= int(frame->bodies.size())) {
    summary_->setText("Click a body to inspect it.");
    return;
  }
  const Body& b = model->bodies[std::size_t(body)];
  const BodyState& s = frame->bodies[std::size_t(body)];
  const Quat& q = s.orientation;
  summary_->setText(
      QString("<b>%1</b> (#%2, %3)<br>mass: %4<br>position: %5 m<br>orientation (w,x,y,z): "
              "(%6, %7, %8, %9)<br>velocity: %10 m/s<br>angular velocity: %11 rad/s<br>"
              "kinetic energy: %12 J<br>contacts: %13")
          .arg(QString::fromStdString(b.name)).arg(body).arg(to_string(b.shape.kind))
          .arg(b.is_static ? QString("static") : QString("%1 kg").arg(b.mass, 0, 'g', 6))
          .arg(vec(s.position))
          .arg(q.w(), 0, 'f', 4).arg(q.x(), 0, 'f', 4).arg(q.y(), 0, 'f', 4).arg(q.z(), 0, 'f', 4)
          .arg(vec(s.velocity)).arg(vec(s.angular_velocity))
          .arg(kinetic_energy(b, s), 0, 'g', 6)
          .arg(frame->contact_count(body)));
  for (const ContactSnapshot& c : frame->contacts) {
    if (c.body_a != body && c.body_b != body) continue;
    const int other = c.body_a == body ? c.body_b : c.body_a;
    const int row = contacts_->rowCount();
    contacts_->insertRow(row);
    const QStringList cells{
        other >= 0 && other < int(model->bodies.size())
            ? QString::fromStdString(model->bodies[std::size_t(other)].name) : QString::number(other),
        c.primary ? "primary" : "secondary",
        QString::number(c.gap, 'g', 4),
        QString::number(c.normal_impulse, 'g', 4),
        QString::number(c.friction_impulse.norm(), 'g', 4),
        c.enforced ? "yes" : "no"};
    for (int col = 0; col < cells.size(); ++col)
      contacts_->setItem(row, col, new QTableWidgetItem(cells[col]));
  }
}

}  // namespace pegsim::gui
