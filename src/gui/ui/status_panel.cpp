#include "gui/ui/status_panel.hpp"

#include <QLabel>
#include <QStatusBar>

namespace pegsim::gui {

StatusPanel::StatusPanel(QStatusBar* bar) : QObject(bar) {
  auto label = [bar](int min_width) {
    auto* l = new QLabel;
    l->setMinimumWidth(min_width);
    bar->addPermanentWidget(l);
    return l;
  };
  recording_ = label(0);
  badge_ = label(0);
  time_ = label(110);
  step_ = label(90);
  rate_ = label(100);
  contacts_ = label(100);
  solver_ = label(200);
  badge_->hide();
  recording_->hide();
  recording_->setStyleSheet("color: #c62828; font-weight: bold");
  showRealTimeFactor(-1.0);
}

void StatusPanel::showFrame(const FrameSnapshot& f) {
  time_->setText(QString("t = %1 s").arg(f.time, 0, 'f', 4));
  step_->setText(QString("step %1").arg(f.step));
  contacts_->setText(QString("%1 contacts").arg(f.contacts.size()));
  solver_->setText(f.solve.solver.empty()
                       ? QString("no solve")
                       : QString("%1, residual %2").arg(QString::fromStdString(f.solve.solver))
                             .arg(f.solve.residual, 0, 'e', 2));
  if (f.solve.failed) {
    badge_->setText(" STEP FAILED ");
    badge_->setToolTip(QString::fromStdString(f.solve.failure));
    badge_->setStyleSheet("background: #c62828; color: white; font-weight: bold; border-radius: 3px");
    badge_->show();
  } else if (f.solve.fell_back) {
    badge_->setText(" FELL BACK ");
    badge_->setToolTip("The first solver did not answer; " + QString::fromStdString(f.solve.solver) + " did");
    badge_->setStyleSheet("background: #f9a825; color: black; font-weight: bold; border-radius: 3px");
    badge_->show();
  } else {
    badge_->setText({});
    badge_->hide();
  }
}

void StatusPanel::showRealTimeFactor(double factor) {
  rate_->setText(factor < 0.0 ? QString("RTF –") : QString("RTF %1").arg(factor, 0, 'f', 2));
}

void StatusPanel::showRecording(bool on, const QString& file) {
  recording_->setText(on ? "● REC" : "");
  recording_->setToolTip(on ? "Recording to " + file : QString());
  recording_->setVisible(on);
}

QString StatusPanel::badgeText() const { return badge_->text().trimmed(); }

}  // namespace pegsim::gui
