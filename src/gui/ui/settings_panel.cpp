#include "gui/ui/settings_panel.hpp"

#include <cmath>
#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "engine/core/settings_preset.hpp"
#include "engine/dynamics/simulator.hpp"
#include "engine/solvers/solver.hpp"
#include "gui/sim/sim_worker.hpp"

namespace pegsim::gui {

SettingsPanel::SettingsPanel(QWidget* parent) : QWidget(parent) {
  auto* form = new QFormLayout(this);
  preset_ = new QComboBox;
  preset_->setObjectName("preset");
  for (const std::string& name : preset_names()) preset_->addItem(QString::fromStdString(name));
  preset_->addItem("custom");
  preset_->setToolTip(
      "exact: Lemke, every step solved to the tolerance (the default). interactive: pgs-contact "
      "alone, a budget of 20 sweeps a step, the game engines' trade: bounded cost, approximate "
      "answers (the status bar says APPROXIMATE with the residual). custom: any other "
      "solver settings.");
  h_ = new QDoubleSpinBox;
  h_->setObjectName("h");
  h_->setDecimals(5);
  h_->setRange(1e-5, 0.1);
  h_->setSingleStep(0.001);
  h_->setSuffix(" s");
  solver_ = new QComboBox;
  solver_->setObjectName("solver");
  for (const std::string& name : solver_names()) solver_->addItem(QString::fromStdString(name));
  fallbacks_ = new QLineEdit;
  fallbacks_->setObjectName("fallbacks");
  fallbacks_->setPlaceholderText("none");
  QStringList solvers;
  for (const std::string& name : solver_names()) solvers << QString::fromStdString(name);
  fallbacks_->setToolTip(
      "Solvers tried in turn when the solver does not answer, comma-separated: " +
      solvers.join(", "));
  formulation_ = new QComboBox;
  formulation_->setObjectName("formulation");
  // From the engine's registries: a solver or formulation added there shows up here.
  for (const std::string& name : formulation_names())
    formulation_->addItem(QString::fromStdString(name));
  contact_model_ = new QComboBox;
  contact_model_->setObjectName("contact_model");
  contact_model_->setToolTip(
      "Which constraints the contacts become (thesis Ch. 4): sm the standard model, "
      "lnc Nguyen's locally non-convex model, peg polytope exact geometry, "
      "corrective one constraint per overlapping pair (thesis §5.2), volumetric a "
      "compliant constraint per overlapping pair whose force grows with the common volume");
  for (const std::string& name : contact_model_names())
    contact_model_->addItem(QString::fromStdString(name));
  gyroscopic_ = new QComboBox;
  gyroscopic_->setObjectName("gyroscopic");
  gyroscopic_->setToolTip(
      "The gyroscopic torque -w x Jw of a tumbling body: midpoint (keeps a free "
      "body's angular momentum and energy), implicit (backward Euler, loses both) "
      "or explicit as thesis (2.30) (adds energy; spins a body up at large h|w|)");
  for (Gyroscopic g : {Gyroscopic::Midpoint, Gyroscopic::Implicit, Gyroscopic::Explicit})
    gyroscopic_->addItem(to_string(g));
  primaries_ = new QComboBox;
  primaries_->setObjectName("primaries");
  primaries_->setToolTip(
      "Which contact of an I-constraint (peg, lnc) carries its force: largest-gap the "
      "one of largest gap at the step's start (thesis (4.14)), several any one the "
      "step ends at (thesis (4.10)-(4.13), a search over up to 16 LCPs per step)");
  for (Primaries p : {Primaries::LargestGap, Primaries::Several}) primaries_->addItem(to_string(p));
  sm_enforce_ = new QComboBox;
  sm_enforce_->setObjectName("sm_enforce");
  sm_enforce_->setToolTip(
      "Which contacts the standard model (sm) enforces, and the SM traps are looked for among: "
      "primary the applicable and feasible ones, all every contact within ε as the thesis' "
      "experiments (§5.2.1)");
  for (SmEnforce e : {SmEnforce::Primary, SmEnforce::All}) sm_enforce_->addItem(to_string(e));
  cone_orientation_ = new QComboBox;
  cone_orientation_->setObjectName("cone_orientation");
  cone_orientation_->setToolTip(
      "How each contact's friction polygon is turned: motion puts one direction against the "
      "slip (Coulomb's law whatever the heading), fixed turns it from a fixed tangent as RPIsim "
      "(the friction then depends on the heading)");
  for (ConeOrientation c : {ConeOrientation::Motion, ConeOrientation::Fixed})
    cone_orientation_->addItem(to_string(c));
  directions_ = new QSpinBox;
  directions_->setRange(1, 64);
  contacts_per_pair_ = new QSpinBox;
  contacts_per_pair_->setObjectName("contacts_per_pair");
  contacts_per_pair_->setRange(0, std::numeric_limits<int>::max());
  contacts_per_pair_->setSpecialValueText("all");
  contacts_per_pair_->setToolTip(
      "At most this many of the standard model's contacts per body pair and normal direction: "
      "the deepest and those spanning the largest area (all: every contact)");
  epsilon_ = new QDoubleSpinBox;
  epsilon_->setDecimals(4);
  epsilon_->setRange(0.0, 10.0);
  epsilon_->setSingleStep(0.005);
  epsilon_->setSuffix(" m");
  eps_theta_ = new QDoubleSpinBox;
  eps_theta_->setDecimals(3);
  eps_theta_->setRange(-1.0, 1.0);
  eps_theta_->setSingleStep(0.01);
  max_iterations_ = new QSpinBox;
  max_iterations_->setObjectName("max_iterations");
  max_iterations_->setRange(1, 100000000);
  max_iterations_->setToolTip("Pivots (Lemke) or sweeps (the PGS family) a solve may take");
  iteration_budget_ = new QCheckBox("a budget: go on with the answer");
  iteration_budget_->setObjectName("iteration_budget");
  iteration_budget_->setToolTip(
      "A solve that reaches the iteration limit is not a failure: the step goes on with its "
      "answer, marked APPROXIMATE (its residual). Steps stay reproducible.");
  tolerance_ = new QLineEdit;
  tolerance_->setObjectName("tolerance");
  tolerance_->setValidator(new QDoubleValidator(0.0, 1.0, 20, tolerance_));
  live_budget_ = new QSpinBox;
  live_budget_->setObjectName("live_budget");
  live_budget_->setRange(0, 60000);
  live_budget_->setSingleStep(50);
  live_budget_->setSuffix(" ms");
  live_budget_->setSpecialValueText("none (exact)");
  live_budget_->setValue(int(std::lround(kLiveTimeBudget * 1e3)));
  live_budget_->setToolTip(
      "Wall-clock time each solve may take while the run plays live. A solve that needs more "
      "(a pile's stalling Lemke) stops, the step goes on with the best answer found and the "
      "status bar says APPROXIMATE. Recordings, batches and scenes with their own "
      "\"time_budget\" are not affected.");
  history_ = new QSpinBox;
  history_->setRange(10, 10000000);
  history_->setSingleStep(1000);
  history_->setSuffix(" frames");
  problem_ = new QLabel;
  problem_->setObjectName("problem");
  problem_->setWordWrap(true);
  problem_->setStyleSheet("color: #b00020");
  note_ = new QLabel;
  note_->setWordWrap(true);
  note_->hide();

  form->addRow(note_);
  form->addRow("Preset", preset_);
  form->addRow("Step size h", h_);
  form->addRow("Solver", solver_);
  form->addRow("Fallbacks", fallbacks_);
  form->addRow("Iterations", max_iterations_);
  form->addRow("", iteration_budget_);
  form->addRow("Formulation", formulation_);
  form->addRow("Contact model", contact_model_);
  form->addRow("I-constraint primaries", primaries_);
  form->addRow("SM enforces", sm_enforce_);
  form->addRow("Contacts per pair", contacts_per_pair_);
  form->addRow("Gyroscopic term", gyroscopic_);
  form->addRow("Friction directions", directions_);
  form->addRow("Friction cone", cone_orientation_);
  form->addRow("ε (contact distance)", epsilon_);
  form->addRow("ε_θ (applicability)", eps_theta_);
  form->addRow("Tolerance", tolerance_);
  form->addRow("Live step budget", live_budget_);
  form->addRow("Timeline keeps", history_);
  form->addRow(problem_);

  // A preset chosen sets its solver fields on the panel, then goes out as any edit.
  connect(preset_, &QComboBox::activated, this,
          [this] { choosePreset(preset_->currentText()); });  // "custom" changes nothing
  connect(max_iterations_, &QSpinBox::valueChanged, this, &SettingsPanel::edited);
  connect(iteration_budget_, &QCheckBox::toggled, this, &SettingsPanel::edited);
  connect(h_, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::edited);
  connect(solver_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(fallbacks_, &QLineEdit::editingFinished, this, &SettingsPanel::edited);
  connect(formulation_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(contact_model_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(gyroscopic_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(cone_orientation_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(primaries_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(sm_enforce_, &QComboBox::currentIndexChanged, this, &SettingsPanel::edited);
  connect(directions_, &QSpinBox::valueChanged, this, &SettingsPanel::edited);
  connect(contacts_per_pair_, &QSpinBox::valueChanged, this, &SettingsPanel::edited);
  connect(epsilon_, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::edited);
  connect(eps_theta_, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::edited);
  connect(tolerance_, &QLineEdit::editingFinished, this, &SettingsPanel::edited);
  connect(live_budget_, &QSpinBox::valueChanged, this,
          [this](int ms) { emit liveBudgetChanged(ms * 1e-3); });
  connect(history_, &QSpinBox::valueChanged, this, [this](int n) {
    if (!updating_) emit historyCapacityChanged(n);
  });
}

void SettingsPanel::setSettings(const pegsim::Settings& s) {
  updating_ = true;
  base_ = s;
  h_->setValue(s.h);
  solver_->setCurrentText(QString::fromStdString(s.solver));
  QStringList fallbacks;
  for (const std::string& f : s.fallbacks) fallbacks << QString::fromStdString(f);
  fallbacks_->setText(fallbacks.join(", "));
  formulation_->setCurrentText(to_string(s.formulation));
  contact_model_->setCurrentText(to_string(s.contact_model));
  gyroscopic_->setCurrentText(to_string(s.gyroscopic));
  cone_orientation_->setCurrentText(to_string(s.cone_orientation));
  primaries_->setCurrentText(to_string(s.primaries));
  sm_enforce_->setCurrentText(to_string(s.sm_enforce));
  directions_->setValue(s.friction_directions);
  contacts_per_pair_->setValue(s.contacts_per_pair);
  epsilon_->setValue(s.epsilon);
  eps_theta_->setValue(s.eps_theta);
  tolerance_->setText(QString::number(s.tolerance, 'g', 6));
  max_iterations_->setValue(s.max_iterations);
  iteration_budget_->setChecked(s.iteration_budget);
  showPreset(s);
  updating_ = false;
}

bool SettingsPanel::choosePreset(const QString& name) {
  pegsim::Settings s = settings();
  if (!apply_preset(name.toStdString(), s)) return false;
  setSettings(s);
  edited();
  return true;
}

void SettingsPanel::showPreset(const pegsim::Settings& s) {
  const std::string name = preset_of(s);
  preset_->setCurrentText(name.empty() ? QString("custom") : QString::fromStdString(name));
}

double SettingsPanel::liveBudget() const {
  return live_budget_->value() * 1e-3;
}

void SettingsPanel::setHistoryCapacity(int frames) {
  updating_ = true;
  history_->setValue(frames);
  updating_ = false;
}

pegsim::Settings SettingsPanel::settings() const {
  pegsim::Settings s = base_;
  s.h = h_->value();
  s.solver = solver_->currentText().toStdString();
  s.fallbacks.clear();
  // Unknown names are kept: check_settings names them to the user.
  for (const QString& f : fallbacks_->text().split(',', Qt::SkipEmptyParts))
    if (const QString name = f.trimmed(); !name.isEmpty() && name != "none")
      s.fallbacks.push_back(name.toStdString());
  parse_formulation(formulation_->currentText().toStdString(),
                    s.formulation);  // listed names parse
  parse_contact_model(contact_model_->currentText().toStdString(), s.contact_model);
  parse_gyroscopic(gyroscopic_->currentText().toStdString(), s.gyroscopic);
  parse_cone_orientation(cone_orientation_->currentText().toStdString(), s.cone_orientation);
  parse_primaries(primaries_->currentText().toStdString(), s.primaries);
  parse_sm_enforce(sm_enforce_->currentText().toStdString(), s.sm_enforce);
  s.friction_directions = directions_->value();
  s.contacts_per_pair = contacts_per_pair_->value();
  s.epsilon = epsilon_->value();
  s.eps_theta = eps_theta_->value();
  bool ok = false;
  const double tol = tolerance_->text().toDouble(&ok);
  if (ok && tol > 0.0) s.tolerance = tol;
  s.max_iterations = max_iterations_->value();
  s.iteration_budget = iteration_budget_->isChecked();
  return s;
}

void SettingsPanel::showProblem(const QString& why) {
  problem_->setText(why);
}

void SettingsPanel::showNote(const QString& note) {
  note_->setText(note);
  note_->setVisible(!note.isEmpty());
}

QString SettingsPanel::note() const {
  return note_->text();
}

void SettingsPanel::edited() {
  if (updating_) return;
  const pegsim::Settings s = settings();
  if (std::string why = check_settings(s); !why.empty()) {
    showProblem(QString::fromStdString(why));
    return;
  }
  showProblem({});
  base_ = s;
  updating_ = true;
  showPreset(s);
  updating_ = false;
  emit settingsEdited(s);
}

}  // namespace pegsim::gui
