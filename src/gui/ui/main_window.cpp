#include "gui/ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <cstdio>
#include <functional>

#include "gui/plots/history_plot.hpp"
#include "gui/plots/plots_panel.hpp"
#include "gui/plots/run_plot_loader.hpp"
#include "gui/render/scene_view.hpp"
#include "gui/ui/inspector_panel.hpp"
#include "gui/ui/recent_files.hpp"
#include "gui/ui/settings_panel.hpp"
#include "gui/ui/status_panel.hpp"
#include "gui/ui/timeline_bar.hpp"

namespace pegsim::gui {

namespace {
// Samples per plotted series: enough for a plot a few hundred pixels wide, few enough that a
// 100 000-frame run file is read in a couple of seconds.
constexpr int kPlotSamples = 1000;

bool is_run_file(const QString& file) {
  const QString suffix = QFileInfo(file).suffix().toLower();
  return suffix == "h5" || suffix == "hdf5";
}
}  // namespace

MainWindow::MainWindow(bool interactive, QWidget* parent)
    : QMainWindow(parent),
      view_(new SceneView),
      side_(new SceneView),
      settings_(new SettingsPanel),
      inspector_(new InspectorPanel),
      timeline_(new TimelineBar),
      status_(new StatusPanel(statusBar())),
      plots_(new PlotsPanel),
      interactive_(interactive) {
  setWindowTitle("pegsim");
  auto* views = new QSplitter;
  views->addWidget(view_);
  views->addWidget(side_);
  side_->hide();
  setCentralWidget(views);
  // Side by side, the two cameras move together.
  connect(view_, &SceneView::cameraMoved, side_, [this] { side_->setCamera(view_->camera()); });
  connect(side_, &SceneView::cameraMoved, view_, [this] { view_->setCamera(side_->camera()); });
  setAcceptDrops(true);
  buildDocks();
  buildActions();
  settings_->setHistoryCapacity(int(live_.capacity()));

  SimWorker* w = sim_.worker();
  connect(w, &SimWorker::sceneLoaded, this, &MainWindow::onSceneLoaded);
  connect(w, &SimWorker::loadFailed, this, &MainWindow::reportError);
  connect(w, &SimWorker::sceneWarnings, this, &MainWindow::reportWarnings);
  connect(w, &SimWorker::framesReady, this, &MainWindow::onFrames);
  connect(w, &SimWorker::runningChanged, this, [this](bool on) {
    running_ = on;
    play_action_->setText(on ? "Pause" : "Play");
    play_action_->setIcon(style()->standardIcon(on ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    if (!on) status_->showRealTimeFactor(-1.0);
  });
  connect(w, &SimWorker::realTimeFactor, this,
          [this](double f) { status_->showRealTimeFactor(f); });
  connect(w, &SimWorker::settingsApplied, settings_, &SettingsPanel::setSettings);
  connect(w, &SimWorker::recordingChanged, this, [this](bool on, QString file) {
    const QSignalBlocker block(record_action_);
    record_action_->setChecked(on);
    status_->showRecording(on, file);
  });
  connect(w, &SimWorker::recordingFailed, this, &MainWindow::reportError);
  connect(w, &SimWorker::settingsRejected, settings_, &SettingsPanel::showProblem);
  connect(w, &SimWorker::stepsDone, this, [this] {
    if (!awaiting_steps_) return;
    awaiting_steps_ = false;
    emit stepsDone();
  });
  connect(settings_, &SettingsPanel::settingsEdited, &sim_, &SimThread::setSettings);
  connect(settings_, &SettingsPanel::liveBudgetChanged, &sim_, &SimThread::setLiveTimeBudget);
  connect(settings_, &SettingsPanel::historyCapacityChanged, this, [this](int n) {
    live_.set_capacity(n);
    if (!run_) syncTimeline();
  });
  connect(timeline_, &TimelineBar::frameChosen, this, [this](qint64 k) { showFrameIndex(k); });
  connect(view_, &SceneView::bodyClicked, this, &MainWindow::selectBody);
  connect(view_, &SceneView::jointClicked, this, &MainWindow::selectJoint);
  connect(inspector_, &InspectorPanel::jointChosen, this, &MainWindow::selectJoint);
  plot_timer_ = new QTimer(this);
  connect(plot_timer_, &QTimer::timeout, this, [this] {
    if (live_plots_stale_) refreshPlots();
  });
  plot_timer_->start(250);
  connect(plots_dock_, &QDockWidget::visibilityChanged, this, [this](bool on) {
    if (!on) return;
    // A useful height the first time it opens; later the user's.
    if (!plots_dock_->property("sized").toBool()) {
      plots_dock_->setProperty("sized", true);
      QTimer::singleShot(0, this, [this] { resizeDocks({plots_dock_}, {330}, Qt::Vertical); });
    }
    refreshPlots();
  });
  // 1280 x 800, or the screen's free area when that is smaller (docks stay on screen).
  const QRect free = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 800);
  resize(std::min(1280, free.width()), std::min(800, free.height()));
}

MainWindow::~MainWindow() = default;

void MainWindow::setPresentationScale(double scale) {
  if (base_font_size_ <= 0.0) base_font_size_ = font().pointSizeF();
  QFont f = font();
  f.setPointSizeF(base_font_size_ * scale);
  setFont(f);  // every dock and menu of the window
  view_->setPresentationScale(scale);
  side_->setPresentationScale(scale);
  for (QAction* a : scale_actions_) a->setChecked(std::abs(a->data().toDouble() - scale) < 1e-9);
}

void MainWindow::buildDocks() {
  auto dock = [this](const QString& title, QWidget* w, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(title);
    d->setWidget(w);
    addDockWidget(area, d);
    return d;
  };
  // Scrollable, so its rows never force the window taller than the screen (with Plots shown).
  auto* settings_scroll = new QScrollArea;
  settings_scroll->setWidget(settings_);
  settings_scroll->setWidgetResizable(true);
  settings_scroll->setFrameShape(QFrame::NoFrame);
  dock("Settings", settings_scroll, Qt::RightDockWidgetArea);
  dock("Inspector", inspector_, Qt::RightDockWidgetArea);
  // Below the view, wide for time axes; hidden until asked for (View ▸ Plots). The right docks
  // keep the window's full height: opening Plots takes room from the view, not from them.
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  plots_dock_ = dock("Plots", plots_, Qt::BottomDockWidgetArea);
  plots_dock_->hide();
  auto* bar = new QToolBar("Timeline", this);
  bar->setObjectName("Timeline");
  bar->setMovable(false);
  bar->addWidget(timeline_);
  addToolBar(Qt::BottomToolBarArea, bar);
}

namespace {

// A menu entry with its shortcut, triggering `slot` on `receiver`.
template <typename Receiver, typename Slot>
QAction* add_action(Receiver* receiver, QMenu* menu, const QString& text, const QKeySequence& key,
                    Slot slot) {
  auto* a = new QAction(text, receiver);
  a->setShortcut(key);
  QObject::connect(a, &QAction::triggered, receiver, slot);
  menu->addAction(a);
  return a;
}

// A toolbar button that drops down `menu`: the toolbar fits the default window with the
// overlays and the camera as one such button each (the same actions as the View menu).
void add_drop_down(QToolBar* tools, const QString& text, const QString& tip, QMenu* menu) {
  auto* button = new QToolButton;
  button->setText(text);
  button->setToolTip(tip);
  button->setMenu(menu);
  button->setPopupMode(QToolButton::InstantPopup);
  button->setToolButtonStyle(Qt::ToolButtonTextOnly);
  button->setObjectName(text);
  tools->addWidget(button);
}

}  // namespace

// The menus, each with its toolbar share, in the order of the menu bar.
void MainWindow::buildActions() {
  QToolBar* tools = addToolBar("Main");
  tools->setObjectName("Main");
  buildFileMenu(tools);
  buildSimulationMenu(tools);
  buildTimelineMenu();
  buildViewMenu(tools);
  buildHelpMenu();
}

void MainWindow::buildFileMenu(QToolBar* tools) {
  QMenu* file = menuBar()->addMenu("&File");
  QAction* open_scene = add_action(this, file, "Open &Scene…", QKeySequence::Open, [this] {
    const QString f = QFileDialog::getOpenFileName(
        this, "Open scene", {}, "Scenes and robots (*.json *.urdf);;All files (*)");
    if (!f.isEmpty()) openScene(f);
  });
  QAction* open_run = add_action(this, file, "Open &Run…", QKeySequence("Ctrl+Shift+O"), [this] {
    const QString f = QFileDialog::getOpenFileName(this, "Open run", {},
                                                   "Run files (*.h5 *.hdf5);;All files (*)");
    if (!f.isEmpty()) openRun(f);
  });
  recent_ = new RecentFiles(file->addMenu("Recent &Files"));
  connect(recent_, &RecentFiles::chosen, this, &MainWindow::openFile);
  file->addSeparator();
  add_action(this, file, "&Export View as PNG…", QKeySequence("Ctrl+E"), &MainWindow::exportView);
  add_action(this, file, "Save &Window as PNG…", QKeySequence("Ctrl+Shift+E"), [this] {
    const QString f =
        QFileDialog::getSaveFileName(this, "Save window", "pegsim-window.png", "PNG (*.png)");
    if (!f.isEmpty()) saveWindowImage(f, [](bool) {});
  });
  file->addSeparator();
  add_action(this, file, "&Quit", QKeySequence::Quit, &QWidget::close);
  open_scene->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
  open_run->setIcon(style()->standardIcon(QStyle::SP_DirOpenIcon));
  tools->addAction(open_scene);
  tools->addAction(open_run);
  tools->addSeparator();
}

void MainWindow::buildSimulationMenu(QToolBar* tools) {
  QMenu* sim = menuBar()->addMenu("&Simulation");
  play_action_ =
      add_action(this, sim, "Play", QKeySequence(Qt::Key_Space), &MainWindow::togglePlay);
  play_action_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  QAction* step = add_action(this, sim, "Single Step", QKeySequence("S"), [this] {
    if (!run_) emit sim_.stepOnce();
  });
  step->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
  QAction* reset = add_action(this, sim, "Reset", QKeySequence("Ctrl+R"), [this] {
    if (run_) return;
    live_.clear();
    compare_live_.clear();  // the comparison resets with it
    live_plots_stale_ = true;
    emit sim_.reset();
  });
  reset->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  sim->addSeparator();
  record_action_ =
      add_action(this, sim, "Record Run…", QKeySequence("Ctrl+Shift+R"), [this](bool on) {
        if (!on) {
          emit sim_.stopRecording();
          return;
        }
        record_action_->setChecked(false);  // checked again once the worker has opened the file
        if (run_) return;
        const QString f =
            QFileDialog::getSaveFileName(this, "Record run", "pegsim-run.h5", "Run files (*.h5)");
        // The dialog has asked before replacing an existing file.
        if (!f.isEmpty()) emit sim_.startRecording(f, QFileInfo::exists(f));
      });
  add_action(this, sim, "&Compare with Model…", QKeySequence("Ctrl+M"),
             [this] {
               if (!model_) return;
               QStringList models{"none (stop comparing)"};
               const std::string current =
                   to_string(run_ ? run_->reader().header().settings.contact_model
                                  : settings_->settings().contact_model);
               for (const std::string& m : contact_model_names())
                 if (m != current) models << QString::fromStdString(m);
               bool ok = false;
               const QString m = QInputDialog::getItem(
                   this, "Compare with model",
                   run_ ? "Re-simulate the recorded run under this contact model, drawn "
                          "translucent over it:"
                        : "Run the scene again under this contact model, drawn translucent "
                          "over it:",
                   models, compare_model_.isEmpty() ? 1 : 0, false, &ok);
               if (ok) compareWith(m == models.front() ? QString() : m);
             })
      ->setToolTip(
          "Run the same scene (or re-simulate the recorded run) under a second contact model, "
          "drawn translucent over this one");
  add_action(this, sim, "Compare with &Run File…", QKeySequence("Ctrl+Shift+M"), [this] {
    if (!run_) {
      reportError(file_, "open a run file first: a second run file is compared with it");
      return;
    }
    const QString f = QFileDialog::getOpenFileName(this, "Compare with run file", QString(),
                                                   "pegsim run files (*.h5)");
    if (!f.isEmpty()) compareWithRun(f);
  })->setToolTip("Draw a second run file of the same scene translucent over this one");
  side_action_ = add_action(this, sim, "Compare Side by &Side", QKeySequence("Ctrl+Shift+B"),
                            [this](bool on) { setSideBySide(on); });
  side_action_->setCheckable(true);
  side_action_->setToolTip(
      "Show the comparison run in a second view beside this one, the cameras moving together");
  record_action_->setCheckable(true);
  record_action_->setIcon(style()->standardIcon(QStyle::SP_DialogSaveButton));
  record_action_->setToolTip("Record the live run from the current frame to a run file (.h5)");
  tools->addAction(play_action_);
  tools->addAction(step);
  tools->addAction(reset);
  tools->addAction(record_action_);
  speed_ = new QComboBox;
  speed_->setToolTip("Run speed");
  for (int pct : {10, 25, 50, 100, 200, 400})
    speed_->addItem(QString("%1 % real time").arg(pct), pct / 100.0);
  speed_->addItem("As fast as possible", 0.0);
  speed_->setCurrentIndex(3);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int) { emit sim_.setSpeed(speed_->currentData().toDouble()); });
  tools->addWidget(speed_);
  tools->addSeparator();
}

void MainWindow::buildTimelineMenu() {
  QMenu* timeline = menuBar()->addMenu("&Timeline");
  add_action(this, timeline, "Play/Pause Timeline", QKeySequence("Ctrl+Space"),
             [this] { timeline_->togglePlayback(); });
  // Window-wide shortcuts: a focused text field (the Settings dock's spin boxes) claims
  // arrows, Home/End and Space first through ShortcutOverride, so typing there still works.
  add_action(this, timeline, "Previous Frame", QKeySequence(Qt::Key_Left),
             [this] { timeline_->stepBack(); });
  add_action(this, timeline, "Next Frame", QKeySequence(Qt::Key_Right), &MainWindow::stepForward);
  add_action(this, timeline, "First Frame", QKeySequence(Qt::Key_Home),
             [this] { timeline_->toStart(); });
  add_action(this, timeline, "Last Frame", QKeySequence(Qt::Key_End),
             [this] { timeline_->toEnd(); });
}

void MainWindow::buildViewMenu(QToolBar* tools) {
  QMenu* view = menuBar()->addMenu("&View");
  QMenu* overlays = view->addMenu("&Overlays");
  for (const auto& o : view_->overlays()) {
    auto* a = new QAction(QString::fromStdString(o->label()), this);
    a->setCheckable(true);
    a->setChecked(o->on_by_default());
    a->setShortcut(QKeySequence(QString::fromStdString(o->shortcut())));
    a->setToolTip(QString("%1 (%2)").arg(a->text(), a->shortcut().toString()));
    const std::string key = o->key();
    connect(a, &QAction::toggled, this, [this, key](bool on) {
      view_->setOverlayEnabled(key, on);
      side_->setOverlayEnabled(key, on);
    });
    overlays->addAction(a);
    overlay_actions_[key] = a;
  }
  QAction* legend = add_action(this, view, "&Legend in View", QKeySequence("L"),
                               [this](bool on) { view_->setLegendVisible(on); });
  legend->setCheckable(true);
  legend->setChecked(view_->legendVisible());
  view->addSeparator();
  QAction* fit = add_action(this, view, "&Fit All", QKeySequence("F"), [this] { view_->fitAll(); });
  QMenu* presets = view->addMenu("&Camera");
  add_action(this, presets, "&Front View", QKeySequence("Alt+1"),
             [this] { view_->setViewPreset(ViewPreset::Front); });
  add_action(this, presets, "&Top View", QKeySequence("Alt+2"),
             [this] { view_->setViewPreset(ViewPreset::Top); });
  add_action(this, presets, "&Side View", QKeySequence("Alt+3"),
             [this] { view_->setViewPreset(ViewPreset::Side); });
  add_action(this, presets, "&Iso View", QKeySequence("Alt+4"),
             [this] { view_->setViewPreset(ViewPreset::Iso); });
  QAction* ortho = add_action(this, presets, "&Orthographic", QKeySequence("O"),
                              [this](bool on) { view_->setOrthographic(on); });
  ortho->setCheckable(true);
  QAction* follow = add_action(this, presets, "Follow &Moving Bodies", QKeySequence("T"),
                               [this](bool on) { view_->setFollow(on); });
  follow->setCheckable(true);
  add_drop_down(tools, "Overlays", "What is drawn over the bodies (View ▸ Overlays)", overlays);
  tools->addAction(fit);
  add_drop_down(tools, "Camera", "Preset views and the orthographic lens (View ▸ Camera)", presets);
  view->addSeparator();
  // For a projector: full screen, larger text, markers and legend.
  QAction* full = add_action(this, view, "F&ull Screen", QKeySequence::FullScreen,
                             [this](bool on) { on ? showFullScreen() : showNormal(); });
  full->setCheckable(true);
  QMenu* scale = view->addMenu("&Presentation Scale");
  for (const int percent : {100, 150, 200}) {
    QAction* a = add_action(this, scale, QString("%1 %").arg(percent), QKeySequence(),
                            [this, percent] { setPresentationScale(percent / 100.0); });
    a->setCheckable(true);
    a->setChecked(percent == 100);
    a->setData(percent / 100.0);
    scale_actions_.push_back(a);
  }
  view->addSeparator();
  for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());
}

void MainWindow::buildHelpMenu() {
  QMenu* help = menuBar()->addMenu("&Help");
  auto show_text = [this](const QString& title, const QString& html) {
    auto* box = new QMessageBox(QMessageBox::NoIcon, title, html, QMessageBox::Close, this);
    box->setObjectName(title);
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
  };
  add_action(this, help, "Overlay &Legend", QKeySequence::HelpContents,
             [this, show_text] { show_text("Overlay legend", legendHtml()); });
  add_action(this, help, "&Keyboard Shortcuts", QKeySequence("Ctrl+/"),
             [this, show_text] { show_text("Keyboard shortcuts", shortcutsHtml()); });
  add_action(this, help, "&About pegsim", QKeySequence(), [this] {
    QMessageBox::about(
        this, "About pegsim",
        QString("<b>pegsim %1</b><p>Rigid multibody dynamics with intermittent frictional "
                "contact: Stewart–Trinkle time stepping with the standard, LNC, PEG and "
                "corrective contact models, a choice of complementarity solvers, and "
                "recorded runs to scrub through.</p><p>docs/desktop-app.md describes this "
                "window; pegsim-cli runs, records and compares headless.</p>")
            .arg(PEGSIM_VERSION));
  });
}

QString MainWindow::legendHtml() const {
  auto swatch = [](const Rgb& c) {
    return QString("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>")
        .arg(QColor::fromRgbF(c[0], c[1], c[2]).name());
  };
  QString html = "<table cellspacing=\"4\">";
  int shown = 0;
  for (const auto& o : view_->overlays()) {
    if (!view_->overlayEnabled(o->key())) continue;
    ++shown;
    html += QString("<tr><td colspan=\"2\"><b>%1</b></td></tr>")
                .arg(QString::fromStdString(o->label()));
    for (const LegendEntry& e : o->legend())
      html += QString("<tr><td>%1</td><td>%2</td></tr>")
                  .arg(swatch(e.color), QString::fromStdString(e.meaning).toHtmlEscaped());
  }
  html += "</table>";
  if (shown == 0) return "No overlay is on (View ▸ Overlays).";
  return html;
}

QString MainWindow::shortcutsHtml() const {
  QString html = "<table cellspacing=\"4\">";
  for (QAction* menu_action : menuBar()->actions()) {
    QMenu* menu = menu_action->menu();
    if (!menu) continue;
    QString rows;
    std::function<void(QMenu*)> collect = [&](QMenu* m) {
      for (QAction* a : m->actions()) {
        if (a->menu()) collect(a->menu());
        if (a->shortcut().isEmpty()) continue;
        rows += QString("<tr><td><tt>%1</tt></td><td>%2</td></tr>")
                    .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                         a->text().remove('&').toHtmlEscaped());
      }
    };
    collect(menu);
    if (!rows.isEmpty())
      html += QString("<tr><td colspan=\"2\"><b>%1</b></td></tr>").arg(menu->title().remove('&')) +
              rows;
  }
  return html + "</table>";
}

QAction* MainWindow::overlayAction(const std::string& key) const {
  auto it = overlay_actions_.find(key);
  return it == overlay_actions_.end() ? nullptr : it->second;
}

void MainWindow::setOverlay(const std::string& key, bool on) {
  if (QAction* a = overlayAction(key)) a->setChecked(on);
}

const FrameSource* MainWindow::source() const {
  if (run_) return run_.get();
  return &live_;
}

void MainWindow::openFile(const QString& file) {
  if (is_run_file(file))
    openRun(file);
  else
    openScene(file);
}

void MainWindow::openScene(const QString& file) {
  timeline_->setFrameCount(timeline_->frameCount(), nullptr);  // stop using the old source's times
  emit sim_.loadScene(file);
}

std::unique_ptr<RunFileSource> MainWindow::loadRun(const QString& file) {
  try {
    auto source = std::make_unique<RunFileSource>(file.toStdString());
    if (source->count() == 0) throw RunFileError(file.toStdString() + ": the run holds no frame");
    return source;
  } catch (const std::exception& e) {
    reportError(file, QString::fromStdString(e.what()));
    return nullptr;
  }
}

void MainWindow::openRun(const QString& file) {
  std::unique_ptr<RunFileSource> source = loadRun(file);
  if (!source) return;
  emit sim_.pause();
  stopComparing();
  run_plots_.reset();  // reads the old file
  run_ = std::move(source);
  model_ = run_->model();
  selected_ = -1;
  selected_joint_ = -1;
  inspector_->setJoints(model_);
  file_ = file;
  const Settings& s = run_->reader().header().settings;
  shown_settings_ = nullptr;
  settings_->setEnabled(false);  // a recorded run's settings are history
  gravity_ = s.gravity;
  plots_->setBody(-1, {});
  plots_->setData({});
  refreshPlots();
  view_->setModel(model_, impulseScale(*model_, s));
  showTitle(QString("%1 (run file)").arg(QFileInfo(file).fileName()));
  recent_->add(file);
  syncTimeline();
  showFrameIndex(0);
  emit fileOpened(file);
}

double MainWindow::impulseScale(const Model& model, const Settings& settings) const {
  // An impulse the size of the heaviest body's weight over one step draws 0.3 m long.
  double heaviest = 0.0;
  for (const Body& b : model.bodies)
    if (!b.is_static) heaviest = std::max(heaviest, b.mass);
  const double typical = heaviest * std::max(settings.gravity.norm(), 1.0) * settings.h;
  return typical > 0.0 ? 0.3 / typical : 1.0;
}

void MainWindow::onSceneLoaded(ModelPtr model, pegsim::Settings settings, QString name,
                               QString file, FramePtr initial) {
  last_warnings_.clear();  // reportWarnings follows if this scene has any
  stopComparing();
  run_plots_.reset();
  run_.reset();
  gravity_ = settings.gravity;
  plots_->setBody(-1, {});
  model_ = std::move(model);
  selected_ = -1;
  selected_joint_ = -1;
  inspector_->setJoints(model_);
  file_ = file;
  settings_->setEnabled(true);
  settings_->showNote({});
  settings_->setSettings(settings);
  settings_->showProblem({});
  view_->setModel(model_, impulseScale(*model_, settings));
  live_.clear();
  live_.append(initial);
  showTitle(name);
  recent_->add(file);
  syncTimeline();
  timeline_->toEnd();
  display(initial);
  refreshPlots();
  emit fileOpened(file);
}

void MainWindow::onFrames(const QList<FramePtr>& frames) {
  if (run_ || frames.isEmpty()) return;  // a replay ignores a stale live batch
  const bool follow = timeline_->atEnd();
  for (const FramePtr& f : frames) live_.append(f);
  live_plots_stale_ = true;
  syncTimeline();
  // Follow the live run unless the user is looking at an earlier frame.
  if (follow) {
    const QSignalBlocker block(timeline_);
    timeline_->toEnd();
    display(frames.back());
  }
}

void MainWindow::syncTimeline() {
  const FrameSource* src = source();
  std::function<double(qint64)> time_of;
  if (run_) {
    const std::vector<double>* times = &run_->reader().times();
    time_of = [times](qint64 k) { return (*times)[std::size_t(k)]; };
  } else {
    time_of = [this](qint64 k) { return k < live_.count() ? live_.frame(k)->time : 0.0; };
  }
  timeline_->setFrameCount(src->count(), time_of);
}

void MainWindow::showFrameIndex(qint64 k) {
  const FrameSource* src = source();
  if (k < 0 || k >= src->count()) return;
  try {
    FramePtr f = src->frame(k);
    {
      const QSignalBlocker block(timeline_);
      timeline_->setCurrent(k);
    }
    if (run_) showRecordedSettings(k);
    display(f);
  } catch (const std::exception& e) {
    reportError(file_, QString::fromStdString(e.what()));
  }
}

void MainWindow::showRecordedSettings(qint64 k) {
  const Settings& s = run_->reader().settings(k);
  // The reader keeps one Settings per change: the same object means nothing changed.
  if (&s == shown_settings_) return;
  shown_settings_ = &s;
  settings_->setSettings(s);
  const auto& changes = run_->reader().settings_changes();
  qint64 since = 0;
  for (const SettingsChange& c : changes)
    if (c.frame <= k) since = c.frame;
  settings_->showNote(
      changes.empty() ? QString("Recorded settings (unchanged during the run).")
                      : QString("Recorded settings in force from frame %1 (%2 changes in the run).")
                            .arg(since)
                            .arg(changes.size()));
}

void MainWindow::display(const FramePtr& frame) {
  // The comparison first, so that showFrame draws both runs' overlays once.
  if (compare_ || compare_run_) showComparison(frame, /*redraw=*/false);
  view_->showFrame(frame);
  status_->showFrame(*frame, model_.get());
  inspector_->show(model_, frame, selected_);
  if (selected_joint_ >= 0) inspector_->showJoint(model_, frame, selected_joint_);
  plots_->setCursorTime(frame->time);
}

void MainWindow::selectBody(int body) {
  selected_ = body;
  view_->setSelectedBody(body);
  inspector_->show(model_, view_->frame(), body);
  const bool known = model_ && body >= 0 && std::size_t(body) < model_->bodies.size();
  plots_->setBody(
      known ? body : -1,
      known ? QString::fromStdString(model_->bodies[std::size_t(body)].name) : QString());
}

bool MainWindow::selectBodyNamed(const QString& name) {
  if (!model_) return false;
  for (std::size_t i = 0; i < model_->bodies.size(); ++i)
    if (QString::fromStdString(model_->bodies[i].name) == name) {
      selectBody(int(i));
      return true;
    }
  return false;
}

void MainWindow::selectJoint(int joint) {
  const bool known = model_ && joint >= 0 && std::size_t(joint) < model_->joints.size();
  selected_joint_ = known ? joint : -1;
  view_->setSelectedJoint(selected_joint_);
  inspector_->showJoint(model_, view_->frame(), selected_joint_);
  plots_->setJoint(
      selected_joint_,
      known ? QString::fromStdString(model_->joints[std::size_t(joint)].name) : QString());
}

bool MainWindow::selectJointNamed(const QString& name) {
  if (!model_) return false;
  for (std::size_t k = 0; k < model_->joints.size(); ++k)
    if (QString::fromStdString(model_->joints[k].name) == name) {
      selectJoint(int(k));
      return true;
    }
  return false;
}

bool MainWindow::plotsComplete() const {
  if (run_) return run_plots_ && run_plots_->done();
  return !live_plots_stale_;
}

void MainWindow::refreshPlots() {
  if (!plots_dock_->isVisible() || !model_) return;
  if (!run_) {
    live_plots_stale_ = false;
    plots_->setData(plot_history(*model_, gravity_, live_, kPlotSamples));
    plots_->setStatus(QString("%1 frames of the live run").arg(live_.count()));
    return;
  }
  if (run_plots_) return;  // already reading
  // 12 ms of reading per event-loop turn: the window keeps redrawing and answering.
  run_plots_ = std::make_unique<RunPlotLoader>(*run_, gravity_, kPlotSamples, 12);
  // Redraw a few times a second while reading, and once at the end.
  auto last_draw = std::make_shared<QElapsedTimer>();
  last_draw->start();
  connect(run_plots_.get(), &RunPlotLoader::progressed, this, [this, last_draw] {
    const bool done = run_plots_->done();
    if (!done && last_draw->elapsed() < 300) return;
    last_draw->restart();
    plots_->setData(run_plots_->data());
    plots_->setStatus(
        done ? QString("%1 frames of the run file, %2 samples")
                   .arg(run_->count())
                   .arg(run_plots_->data().size())
             : QString("reading the run file… %1 samples").arg(run_plots_->data().size()));
  });
  connect(run_plots_.get(), &RunPlotLoader::failed, this,
          [this](const QString& why) { plots_->setStatus("cannot read the run file: " + why); });
}

void MainWindow::showTitle(const QString& name) {
  title_ = name;
  const QString other = compare_run_ ? QFileInfo(compare_run_file_).fileName() : compare_model_;
  setWindowTitle(other.isEmpty()
                     ? QString("pegsim — %1").arg(name)
                     : QString("pegsim — %1 — compared with %2 (translucent)").arg(name, other));
}

bool MainWindow::compareWith(const QString& contact_model) {
  stopComparing();
  if (contact_model.isEmpty() || !model_) return false;
  ContactModel model{};
  if (!parse_contact_model(contact_model.toStdString(), model)) {
    std::string names;
    for (const std::string& m : contact_model_names()) names += (names.empty() ? "" : ", ") + m;
    reportError(file_, QString("--compare: '%1' is neither a run file (.h5) nor a contact model "
                               "(%2)")
                           .arg(contact_model, QString::fromStdString(names)));
    return false;
  }
  if (run_) return resimulateWith(model);
  compare_model_ = contact_model;
  compare_names_ = {to_string(settings_->settings().contact_model), compare_model_};
  compare_ = std::make_unique<SimThread>();
  SimThread* c = compare_.get();
  SimWorker* w = c->worker();
  connect(w, &SimWorker::sceneLoaded, this,
          [this](ModelPtr, pegsim::Settings, QString, QString, FramePtr initial) {
            compare_live_.append(initial);
          });
  connect(w, &SimWorker::framesReady, this, &MainWindow::addComparisonFrames);
  connect(w, &SimWorker::loadFailed, this,
          [this](QString file, QString why) { reportError(file, why); });
  connect(w, &SimWorker::settingsRejected, settings_, [this](QString why) {
    settings_->showProblem("comparison (" + compare_model_ + "): " + why);
  });
  // Every command to the live run goes to the comparison too (connections end with it).
  connect(&sim_, &SimThread::play, c, &SimThread::play);
  connect(&sim_, &SimThread::pause, c, &SimThread::pause);
  connect(&sim_, &SimThread::stepOnce, c, &SimThread::stepOnce);
  connect(&sim_, &SimThread::runSteps, c, &SimThread::runSteps);
  connect(&sim_, &SimThread::reset, c, &SimThread::reset);
  connect(&sim_, &SimThread::setSpeed, c, &SimThread::setSpeed);
  connect(settings_, &SettingsPanel::liveBudgetChanged, c, &SimThread::setLiveTimeBudget);
  emit c->setLiveTimeBudget(settings_->liveBudget());
  connect(settings_, &SettingsPanel::settingsEdited, c, [c, model](pegsim::Settings s) {
    s.contact_model = model;
    emit c->setSettings(s);
  });
  // Both from the initial state: the live run restarts, the comparison loads the scene.
  emit sim_.pause();
  live_.clear();
  live_plots_stale_ = true;
  emit sim_.reset();
  Settings s = settings_->settings();
  s.contact_model = model;
  emit c->loadScene(file_);
  emit c->setSettings(s);
  emit c->setSpeed(speed_->currentData().toDouble());
  showTitle(title_);
  return true;
}

namespace {
// Why `theirs` is not a model of the scene of `ours` (the same bodies, by name and shape, in
// the same order), or "" when it is.
QString other_scene(const Model& ours, const Model& theirs, const QString& whose) {
  if (theirs.bodies.size() != ours.bodies.size())
    return QString("has %1 bodies, %2 %3: not a run of the same scene")
        .arg(theirs.bodies.size())
        .arg(whose)
        .arg(ours.bodies.size());
  for (std::size_t i = 0; i < ours.bodies.size(); ++i)
    if (theirs.bodies[i].name != ours.bodies[i].name ||
        theirs.bodies[i].shape.kind != ours.bodies[i].shape.kind)
      return QString("body %1 is '%2', %3's is '%4': not a run of the same scene")
          .arg(i)
          .arg(QString::fromStdString(theirs.bodies[i].name), whose,
               QString::fromStdString(ours.bodies[i].name));
  return {};
}
}  // namespace

// The run file's embedded scene from its first frame, stepped with the run's settings (each
// change at the frame the run made it) under `model`, in batches so that the translucent run
// grows while the user watches. Forces a user applied during the recording are not replayed.
bool MainWindow::resimulateWith(ContactModel model) {
  const RunReader& reader = run_->reader();
  const RunHeader& header = reader.header();
  auto scene = std::make_shared<Scene>();
  try {
    *scene = parse_scene(header.scene_json, file_.toStdString() + " (its scene)",
                         header.scene_directory);
    scene->initial = reader.states(0, 1).front();
  } catch (const std::exception& e) {
    reportError(file_, QString("cannot re-simulate the run: %1").arg(e.what()));
    return false;
  }
  if (const QString why = other_scene(*model_, scene->model, "the run"); !why.isEmpty()) {
    reportError(file_, "its embedded scene " + why);
    return false;
  }
  compare_model_ = QString::fromStdString(to_string(model));
  compare_total_ = reader.frame_count();
  compare_failure_.clear();
  compare_live_.set_capacity(std::max<std::int64_t>(compare_total_, 1));
  compare_ = std::make_unique<SimThread>();
  SimThread* c = compare_.get();
  SimWorker* w = c->worker();
  connect(w, &SimWorker::sceneLoaded, this,
          [this](ModelPtr, pegsim::Settings, QString, QString, FramePtr initial) {
            addComparisonFrames({initial});
          });
  connect(w, &SimWorker::framesReady, this, &MainWindow::addComparisonFrames);
  connect(w, &SimWorker::loadFailed, this, [this](QString file, QString why) {
    compare_failure_ = why;
    reportError(file, why);
    emit comparisonFinished();
  });
  // Every frame k >= 1 was stepped with reader.settings(k): the batches end where they change.
  auto with_model = [model](Settings s) {
    s.contact_model = model;
    return s;
  };
  scene->settings = with_model(header.settings);
  emit c->adoptScene(scene, file_);
  constexpr std::int64_t kBatch = 25;
  const std::vector<SettingsChange>& changes = reader.settings_changes();
  std::size_t next = 0;
  for (std::int64_t k = 1; k < compare_total_;) {
    while (next < changes.size() && changes[next].frame <= k) {
      emit c->setSettings(with_model(changes[next].settings));
      ++next;
    }
    std::int64_t end = std::min(compare_total_, k + kBatch);
    if (next < changes.size()) end = std::min(end, changes[next].frame);
    emit c->runSteps(int(end - k));
    k = end;
  }
  const QString own = QString::fromStdString(to_string(header.settings.contact_model));
  compare_names_ = {QString("%1 (%2)").arg(QFileInfo(file_).fileName(), own),
                    QString("re-simulated under %1").arg(compare_model_)};
  showTitle(title_);
  if (compare_total_ == 1) emit comparisonFinished();
  return true;
}

void MainWindow::addComparisonFrames(const QList<FramePtr>& frames) {
  if (!compare_) return;  // a batch sent before the comparison stopped
  // A re-simulation ends at its first failed step (the batches queued after it would retry it).
  if (compare_total_ > 0 && !compare_failure_.isEmpty()) return;
  for (const FramePtr& f : frames) {
    compare_live_.append(f);
    compare_failure_ = f->solve.failed ? QString("step %1 failed: %2")
                                             .arg(f->step)
                                             .arg(QString::fromStdString(f->solve.failure))
                                       : QString();
    if (compare_total_ > 0 && f->solve.failed) break;
  }
  if (compare_total_ > 0) {
    QString note = QString("re-simulated under %1").arg(compare_model_);
    if (!compare_failure_.isEmpty())
      note += " (" + compare_failure_ + ")";
    else if (compare_live_.count() < compare_total_)
      note += QString(" (%1 of %2 frames)").arg(compare_live_.count()).arg(compare_total_);
    if (compare_names_.size() == 2) compare_names_[1] = note;
    if (compare_live_.count() >= compare_total_ || !compare_failure_.isEmpty())
      emit comparisonFinished();
  }
  showComparison();
}

bool MainWindow::comparisonCaughtUp() const {
  const FramePtr& own = view_->frame();
  if (!compare_ || !own || !compare_failure_.isEmpty()) return true;
  const FramePtr other = comparisonFrame(own->step);
  return other && other->step >= own->step;
}

FramePtr MainWindow::comparisonFrame(std::int64_t step) const {
  // Frames hold consecutive steps from their first: the frame of the same step, or the
  // nearest end.
  const FrameSource& other = *comparisonSource();
  if (other.count() == 0) return nullptr;
  try {
    const std::int64_t k =
        std::clamp<std::int64_t>(step - other.frame(0)->step, 0, other.count() - 1);
    return other.frame(k);
  } catch (const std::exception&) {  // a frame of the second file cannot be read: no ghost
    return nullptr;
  }
}

bool MainWindow::compareWithRun(const QString& file) {
  if (!run_) {
    reportError(file,
                "comparing with a run file needs a run file open (a live run compares with "
                "another contact model, Simulation ▸ Compare with Model)");
    return false;
  }
  std::unique_ptr<RunFileSource> other = loadRun(file);
  if (!other) return false;
  if (const QString why = other_scene(*model_, *other->model(), "the open run"); !why.isEmpty()) {
    reportError(file, why);
    return false;
  }
  stopComparing();
  compare_run_ = std::move(other);
  compare_run_file_ = file;
  auto named = [](const QString& f, const RunFileSource& r) {
    return QString("%1 (%2)").arg(QFileInfo(f).fileName(),
                                  to_string(r.reader().header().settings.contact_model));
  };
  compare_names_ = {named(file_, *run_), named(file, *compare_run_)};
  showTitle(title_);
  showComparison();
  return true;
}

void MainWindow::stopComparing() {
  if (compare_run_) {
    compare_run_.reset();
    compare_run_file_.clear();
    compare_names_.clear();
    showComparison();
    showTitle(title_);
  }
  if (!compare_) return;
  compare_.reset();  // stops and joins its thread
  compare_live_.clear();
  compare_live_.set_capacity(20000);
  compare_total_ = 0;
  compare_failure_.clear();
  compare_model_.clear();
  compare_names_.clear();
  showComparison();
  showTitle(title_);
}

void MainWindow::togglePlay() {
  if (run_) {
    timeline_->togglePlayback();
    return;
  }
  if (running_) {
    emit sim_.pause();
  } else {
    const QSignalBlocker block(timeline_);
    timeline_->toEnd();  // the live run continues from its latest frame
    emit sim_.play();
  }
}

void MainWindow::stepForward() {
  // At the live end there is no next frame yet: make one.
  if (!run_ && timeline_->atEnd())
    emit sim_.stepOnce();
  else
    timeline_->stepForward();
}

void MainWindow::runSteps(int count) {
  awaiting_steps_ = true;
  emit sim_.runSteps(count);
}

void MainWindow::reportError(const QString& file, const QString& message) {
  // The engine's messages already start with the file; add it only where they do not.
  last_error_ = message.contains(file) ? message : file + ": " + message;
  std::fprintf(stderr, "pegsim: %s\n", last_error_.toLocal8Bit().constData());
  if (interactive_)
    QMessageBox::critical(
        this, "pegsim",
        QString("Cannot open %1\n\n%2").arg(QFileInfo(file).fileName(), last_error_));
  emit openFailed(file, last_error_);
}

// Not modal: the scene is loaded and runs; the warnings say what may spoil it.
void MainWindow::reportWarnings(const QString& file, const QStringList& warnings) {
  last_warnings_ = warnings;
  for (const QString& w : warnings)
    std::fprintf(stderr, "pegsim: %s: warning: %s\n", file.toLocal8Bit().constData(),
                 w.toLocal8Bit().constData());
  if (!interactive_) return;
  auto* box =
      new QMessageBox(QMessageBox::Warning, "pegsim",
                      QString("%1 loaded with %2:\n\n%3")
                          .arg(QFileInfo(file).fileName(),
                               warnings.size() == 1 ? QString("a warning")
                                                    : QString("%1 warnings").arg(warnings.size()),
                               warnings.join("\n\n")),
                      QMessageBox::Close, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setModal(false);
  box->show();
}

void MainWindow::exportView() {
  const QString f =
      QFileDialog::getSaveFileName(this, "Export view", "pegsim-view.png", "PNG (*.png)");
  if (f.isEmpty()) return;
  view_->captureImage([this, f](const QImage& image) {
    if (!image.save(f, "PNG")) reportError(f, "cannot write the PNG file");
  });
}

void MainWindow::saveWindowImage(const QString& file, std::function<void(bool)> done) {
  // The 3D views are native OpenGL windows that QWidget::grab cannot see: paint each
  // renderer's own capture over its place in the widget grab.
  view_->captureImage([this, file, done](const QImage& scene) {
    auto save = [this, file, done, scene](const QImage& side) {
      QPixmap shot = grab();
      {
        QPainter p(&shot);
        p.drawImage(QRect(view_->mapTo(this, QPoint(0, 0)), view_->size()), scene);
        if (!side.isNull())
          p.drawImage(QRect(side_->mapTo(this, QPoint(0, 0)), side_->size()), side);
      }
      done(shot.save(file, "PNG"));
    };
    if (side_->isVisible())
      side_->captureImage(save);
    else
      save(QImage());
  });
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && !event->mimeData()->urls().first().toLocalFile().isEmpty())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString file = event->mimeData()->urls().first().toLocalFile();
  if (!file.isEmpty()) openFile(file);
  event->acceptProposedAction();
}

void MainWindow::setSideBySide(bool on) {
  side_by_side_ = on;
  if (QAction* a = side_action_) a->setChecked(on);
  showComparison();
}

void MainWindow::showComparison() {
  showComparison(view_->frame(), true);
}

void MainWindow::showComparison(const FramePtr& own, bool redraw) {
  const bool comparing = (compare_ || compare_run_) && own && compare_names_.size() == 2;
  const FramePtr other = comparing ? comparisonFrame(own->step) : nullptr;
  if (!comparing) {
    side_->hide();
    view_->showGhost(nullptr, redraw);
    view_->setLegendNotes({});
    return;
  }
  if (!side_by_side_) {
    side_->hide();
    view_->setLegendNotes({"bodies: " + compare_names_[0],
                           "translucent: " + compare_names_[1] + ", its overlays pale"});
    view_->showGhost(other, redraw);
    return;
  }
  view_->showGhost(nullptr, redraw);
  view_->setLegendNotes({"this view: " + compare_names_[0]});
  if (side_->model() != model_) {
    side_->setModel(model_, view_->impulseScale());
    side_->setCamera(view_->camera());
  }
  side_->setLegendNotes({"this view: " + compare_names_[1]});
  side_->show();
  if (!other) return;
  const OrbitCamera keep = view_->camera();  // the side view's first frame fits its own camera
  side_->showFrame(other);
  side_->setCamera(keep);
}

}  // namespace pegsim::gui
