// The main window: the 3D view in the centre, settings and inspector docks, the timeline at
// the bottom, menus and toolbar. It connects the simulation thread, the frame sources and
// the view; it holds no engine state, only immutable frames.
#pragma once

#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <map>
#include <memory>

#include "gui/sim/frame_source.hpp"
#include "gui/sim/sim_thread.hpp"

class QAction;
class QComboBox;
class QDockWidget;
class QToolBar;

namespace pegsim::gui {

class InspectorPanel;
class PlotsPanel;
class RunPlotLoader;
class RecentFiles;
class SceneView;
class SettingsPanel;
class StatusPanel;
class TimelineBar;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // interactive: errors in a message box; otherwise on stderr only (batch use, tests).
  explicit MainWindow(bool interactive = true, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a scene (.json) or a run file (.h5/.hdf5) by its extension. A scene loads on the
  // worker: fileOpened or openFailed follows. A run file opens at once.
  void openFile(const QString& file);
  void openScene(const QString& file);
  void openRun(const QString& file);

  // Runs `count` steps on the worker; stepsDone follows when their frames are on screen.
  void runSteps(int count);
  void showFrameIndex(qint64 k);                     // a frame of the timeline
  void setOverlay(const std::string& key, bool on);  // via its action (menu/toolbar stay in sync)
  // Text of the window, overlay markers and the legend enlarged (1, 1.5 or 2: a projector).
  void setPresentationScale(double scale);
  void selectBody(int body);
  void togglePlay();                          // the live run, or a run file's timeline playback
  bool selectBodyNamed(const QString& name);  // false: no such body
  void selectJoint(int joint);  // -1: none; the view, inspector and joint plots follow
  bool selectJointNamed(const QString& name);  // false: no such joint
  int selectedJoint() const { return selected_joint_; }
  // The same scene run under another contact model ("sm", "lnc", "peg", "corrective", "volumetric";
  // "" stops) on its own worker, drawn translucent over this run. A live scene: both restart from
  // the scene's initial state and the comparison follows every command (play, pause, step,
  // reset, speed, settings except the model). A run file: its embedded scene re-simulated from
  // its first frame with its settings (and their changes, at the same frames) under the other
  // model, in the background; comparisonFinished() when it has every frame or a step failed.
  // A new file ends it. False (reported) when the model is unknown or the run file's scene
  // cannot be re-simulated.
  bool compareWith(const QString& contact_model);
  QString comparedModel() const { return compare_model_; }
  // Whether the comparison run has the frame on screen, or stopped on a failed step (or there
  // is none): it steps on its own thread.
  bool comparisonCaughtUp() const;
  // The comparison run's last failed step ("step K failed: why"); a re-simulation stops there.
  QString comparisonFailure() const { return compare_failure_; }
  // A second run file of the same scene drawn translucent over the open run file, frame by
  // frame at the same step (false, reported, when no run file is open or the bodies differ).
  bool compareWithRun(const QString& file);
  QString comparedRun() const { return compare_run_ ? compare_run_file_ : QString(); }
  // The comparison run in a second view beside the first (cameras moving together), instead
  // of translucent over it.
  void setSideBySide(bool on);
  bool sideBySide() const { return side_by_side_; }
  SceneView* sideView() const { return side_; }
  const FrameSource* comparisonSource() const {
    return compare_run_ ? static_cast<const FrameSource*>(compare_run_.get()) : &compare_live_;
  }
  // The comparison's frame of a step (the latest it has if it is behind); null when none.
  FramePtr comparisonFrame(std::int64_t step) const;
  // PNG of the whole window, the 3D view included (grabbed from the renderer), then done(ok).
  void saveWindowImage(const QString& file, std::function<void(bool)> done);

  SceneView* sceneView() const { return view_; }
  SimThread* simulation() { return &sim_; }
  TimelineBar* timeline() const { return timeline_; }
  InspectorPanel* inspector() const { return inspector_; }
  SettingsPanel* settingsPanel() const { return settings_; }
  StatusPanel* statusPanel() const { return status_; }
  PlotsPanel* plotsPanel() const { return plots_; }
  QDockWidget* plotsDock() const { return plots_dock_; }
  // Whether the plots show everything there is: the live history as of the last refresh, or
  // every sample of the run file read.
  bool plotsComplete() const;
  QComboBox* speedBox() const { return speed_; }
  QAction* overlayAction(const std::string& key) const;
  // Help ▸ Overlay Legend: each colour of the overlays that are on and what it marks (HTML).
  QString legendHtml() const;
  // Help ▸ Keyboard Shortcuts: every menu action with a shortcut, by menu (HTML).
  QString shortcutsHtml() const;
  const FrameSource* source() const;
  bool replaying() const { return run_ != nullptr; }
  QString lastError() const { return last_error_; }
  QStringList lastWarnings() const { return last_warnings_; }  // of the scene last loaded
  QString currentFile() const { return file_; }

 signals:
  void fileOpened(const QString& file);
  void openFailed(const QString& file, const QString& message);
  void stepsDone();
  void comparisonFinished();

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // The comparison's frame for the frame on screen (or `own`, about to be shown, the overlays
  // then left to its showFrame): translucent in the view, or beside it.
  void showComparison();
  void showComparison(const FramePtr& own, bool redraw);
  // The run file, or nullptr when it cannot be read (reported).
  std::unique_ptr<RunFileSource> loadRun(const QString& file);
  void buildActions();
  void buildFileMenu(QToolBar* tools);
  void buildSimulationMenu(QToolBar* tools);
  void buildTimelineMenu();
  void buildViewMenu(QToolBar* tools);
  void buildHelpMenu();
  void buildDocks();
  void reportError(const QString& file, const QString& message);
  void onSceneLoaded(ModelPtr model, pegsim::Settings settings, QString name, QString file,
                     FramePtr initial);
  void onFrames(const QList<FramePtr>& frames);
  void display(const FramePtr& frame);
  void showRecordedSettings(qint64 k);  // a replay: the settings frame k was stepped with
  void syncTimeline();
  void exportView();
  void stepForward();  // the next timeline frame; at the live end, one new step
  double impulseScale(const Model& model, const pegsim::Settings& settings) const;
  void refreshPlots();  // when the Plots dock is visible: the live history or the run file
  void stopComparing();
  bool resimulateWith(ContactModel model);
  void addComparisonFrames(const QList<FramePtr>& frames);
  void showTitle(const QString& name);

  SimThread sim_;
  SceneView* view_;
  SceneView* side_;  // the comparison run, side by side (hidden otherwise)
  bool side_by_side_ = false;
  QAction* side_action_ = nullptr;
  QStringList compare_names_;  // this run, the comparison run: for the legends
  SettingsPanel* settings_;
  InspectorPanel* inspector_;
  TimelineBar* timeline_;
  StatusPanel* status_;
  PlotsPanel* plots_;
  QDockWidget* plots_dock_ = nullptr;
  std::unique_ptr<RunPlotLoader> run_plots_;
  QTimer* plot_timer_ = nullptr;  // refreshes the live plots a few times a second
  bool live_plots_stale_ = false;
  Vec3 gravity_ = Vec3::Zero();  // of the scene or run shown: the potential energy
  RecentFiles* recent_ = nullptr;
  QComboBox* speed_ = nullptr;
  QAction* play_action_ = nullptr;
  QAction* record_action_ = nullptr;
  std::unique_ptr<SimThread> compare_;  // the comparison run's worker
  LiveHistory compare_live_{20000};
  QString compare_model_;
  std::int64_t compare_total_ = 0;  // frames the re-simulation of a run file makes (0: live)
  QString compare_failure_;         // the re-simulation's failed step, if one failed
  std::unique_ptr<RunFileSource> compare_run_;  // a second run file, or none
  QString compare_run_file_;
  QString title_;  // the scene's or run file's name
  std::map<std::string, QAction*> overlay_actions_;
  std::vector<QAction*> scale_actions_;  // View ▸ Presentation Scale
  double base_font_size_ = 0.0;          // points, at scale 1

  bool interactive_;
  bool running_ = false;
  bool awaiting_steps_ = false;
  LiveHistory live_{20000};
  std::unique_ptr<RunFileSource> run_;
  const pegsim::Settings* shown_settings_ = nullptr;  // of the replay, in the Settings dock
  ModelPtr model_;
  int selected_ = -1;
  int selected_joint_ = -1;
  QString file_;
  QString last_error_;
  QStringList last_warnings_;
  void reportWarnings(const QString& file, const QStringList& warnings);
};

}  // namespace pegsim::gui
