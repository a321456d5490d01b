// The settings dock: a preset (exact, interactive, custom), step size, solver, fallback solvers,
// the iteration limit and whether it is a budget, formulation, contact model, the
// I-constraint primaries, gyroscopic term, friction directions and cone orientation, epsilon,
// eps_theta, tolerance, the live step budget and how many live frames the timeline keeps. Every
// edit is sent at once: the worker applies it at the next step, also while running.
#pragma once

#include <QWidget>

#include "engine/core/settings.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace pegsim::gui {

class SettingsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SettingsPanel(QWidget* parent = nullptr);
  // Shows `settings` without emitting settingsEdited (a new scene, or the worker's answer).
  void setSettings(const pegsim::Settings& settings);
  pegsim::Settings settings() const;
  void setHistoryCapacity(int frames);
  double liveBudget() const;             // s, 0: none
  void showProblem(const QString& why);  // empty clears it
  // A line under the title saying whose settings these are (a replay's frame); empty hides it.
  void showNote(const QString& note);
  QString note() const;
  // Applies preset `name`'s solver settings, shown and sent as an edit; false if unknown.
  bool choosePreset(const QString& name);

 signals:
  void settingsEdited(const pegsim::Settings& settings);
  void historyCapacityChanged(int frames);
  // The live budget (s, 0: none) edited: see SimWorker::setLiveTimeBudget.
  void liveBudgetChanged(double seconds);

 private:
  void edited();
  void showPreset(const pegsim::Settings& s);  // the preset s matches, or "custom"

  pegsim::Settings base_;  // fields the panel does not show are kept as loaded
  bool updating_ = false;
  QComboBox* preset_;
  QDoubleSpinBox* h_;
  QComboBox* solver_;
  QLineEdit* fallbacks_;
  QComboBox* formulation_;
  QComboBox* contact_model_;
  QComboBox* gyroscopic_;
  QComboBox* cone_orientation_;
  QComboBox* primaries_;
  QComboBox* sm_enforce_;
  QSpinBox* directions_;
  QSpinBox* contacts_per_pair_;
  QDoubleSpinBox* epsilon_;
  QDoubleSpinBox* eps_theta_;
  QSpinBox* max_iterations_;
  QCheckBox* iteration_budget_;
  QLineEdit* tolerance_;
  QSpinBox* live_budget_;
  QSpinBox* history_;
  QLabel* problem_;
  QLabel* note_;
};

}  // namespace pegsim::gui
