// The Plots dock: the selected body's position, velocity and acceleration, the system's
// kinetic and potential energy, and per step the contacts and SM traps (thesis Fig. 5.13),
// solver iterations, residual (log
// scale) and solve time, and the selected joint's error and angle or displacement, against
// simulated time; a dashed cursor marks the timeline's frame.
// It draws PlotData; where the data comes from (live history, run file) is the window's job.
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "gui/plots/plot_data.hpp"

class QChart;
class QLabel;
class QLineSeries;
class QAbstractAxis;
class QValueAxis;
class QXYSeries;

namespace pegsim::gui {

class PlotsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotsPanel(QWidget* parent = nullptr);

  void setData(PlotData data);
  const PlotData& data() const { return data_; }
  void setBody(int body, const QString& name);    // -1: none selected
  void setJoint(int joint, const QString& name);  // -1: none selected
  void setCursorTime(double t);
  void setStatus(const QString& text);  // e.g. how far a run file has been read

  // A drawn series by name: "position x|y|z", "velocity x|y|z", "acceleration x|y|z",
  // "kinetic", "potential", "total", "contacts", "sm traps", "iterations", "residual", "solve
  // time", "joint position error", "joint rotation error", "joint angle", "joint displacement"; and
  // "cursor <chart>" for the cursor line of a chart ("position", "energy", "residual", ...).
  QXYSeries* series(const QString& name) const;
  double cursorTime() const { return cursor_time_; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  static constexpr double kTextScale = 0.85;  // plot text against the window's
  struct Plot {
    QChart* chart = nullptr;
    QValueAxis* x = nullptr;
    QAbstractAxis* y = nullptr;
    bool log = false;
    std::vector<QLineSeries*> lines;
    QLineSeries* cursor = nullptr;
    double y_lo = 0.0, y_hi = 1.0;
  };
  QWidget* addPlot(const QString& key, const QString& title, const QStringList& lines,
                   bool log = false);
  void redraw();
  // Each line's Extremes per sample (plot_data.hpp).
  void fill(Plot& plot, const std::vector<std::vector<Extremes>>& lines);
  void placeCursor(Plot& plot);
  void applyFonts(Plot& plot) const;

  std::vector<Plot>
      plots_;  // position, velocity, acceleration, energy, contacts, iterations, residual,
               // solve time, joint position error, joint rotation error, joint coordinate
  PlotData data_;
  int body_ = -1;
  QString body_name_;
  int joint_ = -1;
  double cursor_time_ = 0.0;
  QLabel* status_;
};

}  // namespace pegsim::gui
