#include "gui/ui/status_panel.hpp"

#include <QLabel>
#include <QStatusBar>

#include "engine/metrics/overlap.hpp"

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
  traps_ = label(90);
  traps_->setToolTip(
      "SM traps in this frame: vertices caught by the half-spaces of two faces at a corner "
      "(thesis §4.1), found among the contacts whatever the contact model (View ▸ Overlays ▸ "
      "SM traps marks them)");
  solver_ = label(200);
  overlap_ = label(150);
  overlap_->hide();
  badge_->hide();
  recording_->hide();
  recording_->setStyleSheet("color: #c62828; font-weight: bold");
  showRealTimeFactor(-1.0);
}

void StatusPanel::showOverlap(const FrameSnapshot& f, const Model* model) {
  if (!model || model->bodies.size() != f.bodies.size()) {
    overlap_->clear();
    overlap_->hide();
    return;
  }
  // One pass over the pairs whose boxes meet: cheap beside drawing the frame.
  overlap_state_.time = f.time;
  overlap_state_.step = f.step;
  overlap_state_.bodies = f.bodies;
  const OverlapTotals t = total_overlap(*model, overlap_state_);
  const bool planar = model->planar();
  const QString unit = planar ? "m²" : "m³";
  overlap_->setText(t.max_pair_volume > 0.0
                        ? QString("overlap %1 %2").arg(t.max_pair_volume, 0, 'e', 2).arg(unit)
                        : QString("overlap 0 %1").arg(unit));
  QString tip = QString(
                    "The largest overlap %1 of any two bodies in this frame (exact); %2 "
                    "pairs overlap, %3 %4 in all.\nContact penetration counts only enforced "
                    "contacts: bodies that pass through each other show here.")
                    .arg(planar ? "area" : "volume")
                    .arg(t.overlapping_pairs)
                    .arg(t.volume, 0, 'e', 2)
                    .arg(unit);
  if (t.unmeasured_pairs > 0)
    tip += QString(
               "\n%1 interpenetrating pairs of a sphere (circle) with a compound are not "
               "measured (no exact formula).")
               .arg(t.unmeasured_pairs);
  overlap_->setToolTip(tip);
  overlap_->setStyleSheet(t.max_pair_volume > 0.0 ? "color: #c62828" : "");
  overlap_->show();
}

void StatusPanel::showFrame(const FrameSnapshot& f, const Model* model) {
  time_->setText(QString("t = %1 s").arg(f.time, 0, 'f', 4));
  step_->setText(QString("step %1").arg(f.step));
  contacts_->setText(QString("%1 contacts").arg(f.contacts.size()));
  traps_->setText(
      QString("%1 SM trap%2").arg(f.sm_traps.size()).arg(f.sm_traps.size() == 1 ? "" : "s"));
  traps_->setStyleSheet(f.sm_traps.empty() ? "" : "color: #b45f06; font-weight: bold");
  solver_->setText(f.solve.solver.empty() ? QString("no solve")
                                          : QString("%1, residual %2")
                                                .arg(QString::fromStdString(f.solve.solver))
                                                .arg(f.solve.residual, 0, 'e', 2));
  showOverlap(f, model);
  if (f.solve.failed) {
    badge_->setText(" STEP FAILED ");
    badge_->setToolTip(QString::fromStdString(f.solve.failure));
    badge_->setStyleSheet(
        "background: #c62828; color: white; font-weight: bold; border-radius: 3px");
    badge_->show();
  } else if (f.solve.approximate) {
    badge_->setText(" APPROXIMATE ");
    const QString residual = QString::number(f.solve.residual, 'e', 2);
    if (f.solve.over_budget)
      badge_->setToolTip(
          QString("No solver answered within the step's time budget (%1 ms): the step went "
                  "on with the best answer found, natural residual %2. Live play gives each "
                  "solve a budget (Settings dock); recordings and pegsim-cli are exact "
                  "unless asked otherwise.")
              .arg(f.solve.time_budget * 1e3, 0, 'g', 4)
              .arg(residual));
    else if (f.solve.iteration_budget)
      badge_->setToolTip(QString("The solver stopped after its budget of %1 iterations (the "
                                 "interactive preset's sweeps): the step went on with that "
                                 "answer, natural residual %2. The exact preset solves every "
                                 "step to the tolerance.")
                             .arg(f.solve.max_iterations)
                             .arg(residual));
    else
      badge_->setToolTip(QString("No solver answered: the step went on with the best answer found "
                                 "(on_failure continue), natural residual %1.")
                             .arg(residual));
    badge_->setStyleSheet(
        "background: #ef6c00; color: white; font-weight: bold; border-radius: 3px");
    badge_->show();
  } else if (f.solve.fell_back) {
    badge_->setText(" FELL BACK ");
    badge_->setToolTip(f.solve.fell_back_how.empty()
                           ? "The first solver did not answer; " +
                                 QString::fromStdString(f.solve.solver) + " did"
                           : QString::fromStdString(f.solve.fell_back_how));
    badge_->setStyleSheet(
        "background: #f9a825; color: black; font-weight: bold; border-radius: 3px");
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

QString StatusPanel::badgeText() const {
  return badge_->text().trimmed();
}

QString StatusPanel::badgeToolTip() const {
  return badge_->toolTip();
}

QString StatusPanel::trapsText() const {
  return traps_->text();
}

QString StatusPanel::overlapText() const {
  return overlap_->text();
}

}  // namespace pegsim::gui
