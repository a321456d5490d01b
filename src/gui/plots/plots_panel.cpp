#include "gui/plots/plots_panel.hpp"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "gui/plots/axis_range.hpp"

namespace pegsim::gui {

namespace {

enum PlotIndex {
  kPosition,
  kVelocity,
  kAcceleration,
  kEnergy,
  kContacts,
  kIterations,
  kResidual,
  kSolveTime,
  kJointPositionError,
  kJointRotationError,
  kJointCoordinate
};

const QStringList kXyz{"x", "y", "z"};

}  // namespace

PlotsPanel::PlotsPanel(QWidget* parent) : QWidget(parent), status_(new QLabel) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* tabs = new QTabWidget;
  layout->addWidget(tabs, 1);
  layout->addWidget(status_);
  auto tab = [tabs](const QString& title, const std::vector<QWidget*>& views) {
    auto* page = new QWidget;
    auto* row = new QGridLayout(page);
    row->setContentsMargins(0, 0, 0, 0);
    for (std::size_t i = 0; i < views.size(); ++i) row->addWidget(views[i], 0, int(i));
    tabs->addTab(page, title);
  };
  tab("Selected body",
      {addPlot("position", "Position (m)", kXyz), addPlot("velocity", "Velocity (m/s)", kXyz),
       addPlot("acceleration", "Acceleration (m/s²)", kXyz)});
  tab("Energy", {addPlot("energy", "Energy (J)", {"kinetic", "potential", "total"})});
  // Contacts and SM traps per step: thesis Fig. 5.13.
  tab("Steps", {addPlot("contacts", "Contacts and SM traps", {"contacts", "sm traps"}),
                addPlot("iterations", "Solver iterations", {"iterations"}),
                addPlot("residual", "Residual", {"residual"}, /*log=*/true),
                addPlot("solve time", "Solve time (ms)", {"solve time"})});
  tab("Joints",
      {addPlot("joint position error", "Joint position error (m)", {"joint position error"}),
       addPlot("joint rotation error", "Joint rotation error (rad)", {"joint rotation error"}),
       addPlot("joint", "Joint angle (rad), displacement (m)", {"angle", "displacement"})});
  setBody(-1, {});
  setJoint(-1, {});
}

QWidget* PlotsPanel::addPlot(const QString& key, const QString& title, const QStringList& lines,
                             bool log) {
  Plot p;
  p.chart = new QChart;
  p.chart->setTitle(title);
  p.chart->setAnimationOptions(QChart::NoAnimation);
  p.chart->setMargins(QMargins(0, 0, 0, 0));
  p.chart->layout()->setContentsMargins(0, 0, 0, 0);
  p.chart->setBackgroundRoundness(0);
  p.chart->legend()->setVisible(lines.size() > 1);
  p.chart->legend()->setAlignment(Qt::AlignRight);  // the height is scarcer than the width
  p.x = new QValueAxis;
  p.x->setLabelFormat("%.3g");
  p.x->setTickCount(5);
  p.log = log;
  if (log) {
    auto* y = new QLogValueAxis;
    y->setBase(10.0);
    y->setLabelFormat("%.0e");
    p.y = y;
  } else {
    auto* y = new QValueAxis;
    y->setLabelFormat("%.3g");
    y->setTickCount(5);
    p.y = y;
  }
  p.chart->addAxis(p.x, Qt::AlignBottom);
  p.chart->addAxis(p.y, Qt::AlignLeft);
  for (const QString& name : lines) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->setObjectName(lines.size() > 1 && key != "energy" && key != "contacts" ? key + " " + name
                                                                              : name);
    p.chart->addSeries(s);
    s->attachAxis(p.x);
    s->attachAxis(p.y);
    p.lines.push_back(s);
  }
  // The timeline's frame: a dashed vertical line over the whole plot, not in the legend.
  p.cursor = new QLineSeries;
  p.cursor->setObjectName("cursor " + key);
  p.cursor->setPen(QPen(QColor(60, 60, 60), 1.0, Qt::DashLine));
  p.chart->addSeries(p.cursor);
  p.cursor->attachAxis(p.x);
  p.cursor->attachAxis(p.y);
  for (QLegendMarker* m : p.chart->legend()->markers(p.cursor)) m->setVisible(false);
  auto* view = new QChartView(p.chart);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(200, 160);
  applyFonts(p);
  plots_.push_back(p);
  return view;
}

QXYSeries* PlotsPanel::series(const QString& name) const {
  for (const Plot& p : plots_) {
    if (p.cursor->objectName() == name) return p.cursor;
    for (QLineSeries* s : p.lines)
      if (s->objectName() == name) return s;
  }
  return nullptr;
}

void PlotsPanel::applyFonts(Plot& p) const {
  // Compact: a dock is a few hundred pixels high, the time axis is named once below. Relative
  // to the window's text, so a presentation scale enlarges it too.
  QFont small = font();
  small.setPointSizeF(kTextScale * font().pointSizeF());
  QFont bold = small;
  bold.setBold(true);
  p.chart->setTitleFont(bold);
  p.chart->legend()->setFont(small);
  p.x->setLabelsFont(small);
  p.y->setLabelsFont(small);
}

void PlotsPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange)
    for (Plot& p : plots_) applyFonts(p);
  QWidget::changeEvent(event);
}

void PlotsPanel::setData(PlotData data) {
  data_ = std::move(data);
  redraw();
}

void PlotsPanel::setBody(int body, const QString& name) {
  body_ = body;
  body_name_ = name;
  const QString suffix = body < 0 ? " — click a body to plot it" : " — " + name;
  plots_[kPosition].chart->setTitle("Position (m)" + suffix);
  plots_[kVelocity].chart->setTitle("Velocity (m/s)" + suffix);
  plots_[kAcceleration].chart->setTitle("Acceleration (m/s²)" + suffix);
  redraw();
}

void PlotsPanel::setJoint(int joint, const QString& name) {
  joint_ = joint;
  const QString suffix = joint < 0 ? " — click a joint to plot it" : " — " + name;
  plots_[kJointPositionError].chart->setTitle("Joint position error (m)" + suffix);
  plots_[kJointRotationError].chart->setTitle("Joint rotation error (rad)" + suffix);
  plots_[kJointCoordinate].chart->setTitle("Joint angle (rad), displacement (m)" + suffix);
  redraw();
}

void PlotsPanel::setStatus(const QString& text) {
  status_->setText("time axis: simulated time t (s) — " + text);
}

void PlotsPanel::setCursorTime(double t) {
  cursor_time_ = t;
  for (Plot& p : plots_) placeCursor(p);
}

void PlotsPanel::redraw() {
  const std::size_t n = data_.size();
  using Line = std::vector<Extremes>;
  auto exact = [](const std::vector<double>& values) {
    Line line(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) line[i].include(values[i]);
    return line;
  };
  const bool has_body = body_ >= 0 && n > 0 && std::size_t(body_) < data_.motion.front().size();
  const auto b = std::size_t(std::max(body_, 0));
  auto components = [&](int first) {  // x, y, z of the selected body's motion over each bucket
    std::vector<Line> v(3);
    if (!has_body) return v;
    for (int c = 0; c < 3; ++c) {
      v[std::size_t(c)].reserve(n);
      for (std::size_t i = 0; i < n; ++i)
        v[std::size_t(c)].push_back(data_.motion[i][b][std::size_t(first + c)]);
    }
    return v;
  };
  fill(plots_[kPosition], components(kPositionX));
  fill(plots_[kVelocity], components(kVelocityX));
  fill(plots_[kAcceleration], components(kAccelerationX));
  std::vector<Line> energy(3, Line(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t e = 0; e < 3; ++e) energy[e][i] = data_.energy[i][e];
  fill(plots_[kEnergy], energy);
  auto step = [&](double StepFigures::*field) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = data_.steps[i].*field;
    return exact(v);
  };
  fill(plots_[kContacts], {step(&StepFigures::contacts), step(&StepFigures::sm_traps)});
  fill(plots_[kIterations], {step(&StepFigures::iterations)});
  fill(plots_[kResidual], {step(&StepFigures::residual)});
  fill(plots_[kSolveTime], {step(&StepFigures::solve_ms)});
  const bool has_joint = joint_ >= 0 && n > 0 && std::size_t(joint_) < data_.joints.front().size();
  auto joint = [&](JointIndex quantity) {  // the selected joint's, over each bucket
    Line line;
    if (!has_joint) return line;
    line.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      line.push_back(data_.joints[i][std::size_t(joint_)][quantity]);
    return line;
  };
  fill(plots_[kJointPositionError], {joint(kPositionError)});
  fill(plots_[kJointRotationError], {joint(kRotationError)});
  fill(plots_[kJointCoordinate], {joint(kAngle), joint(kDisplacement)});
}

void PlotsPanel::fill(Plot& p, const std::vector<std::vector<Extremes>>& lines) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (std::size_t l = 0; l < p.lines.size(); ++l) {
    QList<QPointF> points;
    if (l < lines.size()) {
      points.reserve(2 * qsizetype(lines[l].size()));
      for (std::size_t i = 0; i < lines[l].size(); ++i) {
        const Extremes& e = lines[l][i];
        if (!(e.lo <= e.hi)) continue;
        // A bucket is a vertical stroke from its lowest to its highest value, begun at the end
        // nearer the line so far; one value is one point.
        double first = e.lo, second = e.hi;
        if (!points.isEmpty() &&
            std::abs(points.back().y() - e.hi) < std::abs(points.back().y() - e.lo))
          std::swap(first, second);
        auto add = [&](double y) {
          if (p.log && !(y > 0.0)) return;  // nothing solved: no point on a log scale
          points.append(QPointF(data_.time[i], y));
          lo = std::min(lo, y);
          hi = std::max(hi, y);
        };
        add(first);
        if (second != first) add(second);
      }
    }
    p.lines[l]->replace(points);
  }
  if (!(lo <= hi)) {
    lo = p.log ? 1e-16 : 0.0;
    hi = p.log ? 1.0 : 1.0;
  }
  if (p.log) {
    // Whole decades around the data.
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (hi <= lo) hi = lo * 10.0;
  } else {
    // Round ticks; counts and other quantities >= 0 keep the axis at or above 0.
    const AxisRange a = nice_axis(lo, hi);
    lo = a.lo;
    hi = a.hi;
    static_cast<QValueAxis*>(p.y)->setTickCount(a.ticks);
  }
  p.y_lo = lo;
  p.y_hi = hi;
  p.y->setRange(lo, hi);
  const double t0 = data_.size() ? data_.time.front() : 0.0;
  const double t1 = data_.size() ? data_.time.back() : 1.0;
  const AxisRange t = nice_axis(t0, t1 > t0 ? t1 : t0 + 1.0);
  p.x->setTickCount(t.ticks);
  p.x->setRange(t.lo, t.hi);
  placeCursor(p);
}

void PlotsPanel::placeCursor(Plot& p) {
  p.cursor->replace(QList<QPointF>{QPointF(cursor_time_, p.y_lo), QPointF(cursor_time_, p.y_hi)});
}

}  // namespace pegsim::gui
