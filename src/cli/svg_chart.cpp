#include "cli/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace pegsim::cli {
namespace {

constexpr double kWidth = 640, kHeight = 420, kLeft = 78, kRight = 170, kTop = 40, kBottom = 60;
const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", x);
  return b;
}

std::string tick_label(double v, int log_base) {
  char b[32];
  if (log_base == 2 && v >= 1.0 && v < 1e6)
    std::snprintf(b, sizeof b, "%.0f", v);
  else if (v != 0.0 && (std::fabs(v) < 1e-3 || std::fabs(v) >= 1e5))
    std::snprintf(b, sizeof b, "%.0e", v);
  else
    std::snprintf(b, sizeof b, "%g", v);
  return b;
}

bool usable(double v, int log_base) {
  return std::isfinite(v) && (log_base == 0 || v > 0.0);
}

double to_axis(double v, int log_base) {
  return log_base == 0 ? v : std::log(v) / std::log(static_cast<double>(log_base));
}

// The axis range in axis units (log_base powers for a logarithmic axis).
std::pair<double, double> fitted_range(const ChartAxis& axis, const std::vector<double>& values) {
  if (axis.min != axis.max)
    return {to_axis(axis.min, axis.log_base), to_axis(axis.max, axis.log_base)};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values)
    if (usable(v, axis.log_base)) {
      lo = std::min(lo, to_axis(v, axis.log_base));
      hi = std::max(hi, to_axis(v, axis.log_base));
    }
  if (!std::isfinite(lo)) return {0.0, 1.0};
  if (axis.log_base != 0) {
    lo = std::floor(lo + 1e-12);
    hi = std::max(std::ceil(hi - 1e-12), lo + 1.0);
    return {lo, hi};
  }
  if (hi - lo <= 1e-300) {
    const double pad = std::max(std::fabs(lo) * 0.1, 1e-12);
    return {lo - pad, hi + pad};
  }
  const double pad = 0.05 * (hi - lo);
  return {lo - pad, hi + pad};
}

}  // namespace

std::vector<double> axis_ticks(double lo, double hi, int log_base) {
  std::vector<double> ticks;
  if (!(hi > lo)) return ticks;
  if (log_base != 0) {
    // lo, hi in axis units: at most about 10 labelled powers.
    const int first = static_cast<int>(std::ceil(lo - 1e-9));
    const int last = static_cast<int>(std::floor(hi + 1e-9));
    const int stride = std::max(1, (last - first + 9) / 10);
    for (int e = first; e <= last; e += stride) ticks.push_back(std::pow(log_base, e));
    return ticks;
  }
  const double raw = (hi - lo) / 6.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) {
      step = m * magnitude;
      break;
    }
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step)
    ticks.push_back(std::fabs(t) < 1e-12 * step ? 0.0 : t);
  return ticks;
}

std::string chart_svg(const Chart& chart) {
  std::vector<double> xs, ys;
  for (const ChartSeries& s : chart.series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
    ys.insert(ys.end(), s.low.begin(), s.low.end());
    ys.insert(ys.end(), s.high.begin(), s.high.end());
  }
  // Plain doubles, not structured bindings: the lambdas below capture them (clang 14 cannot).
  const std::pair<double, double> x_range = fitted_range(chart.x, xs);
  const std::pair<double, double> y_range = fitted_range(chart.y, ys);
  const double x0 = x_range.first, x1 = x_range.second;
  const double y0 = y_range.first, y1 = y_range.second;
  const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
  auto X = [&](double v) { return kLeft + pw * (to_axis(v, chart.x.log_base) - x0) / (x1 - x0); };
  auto Y = [&](double v) {
    const double t = (to_axis(v, chart.y.log_base) - y0) / (y1 - y0);
    return kTop + ph * (1.0 - std::clamp(t, -0.02, 1.02));
  };

  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
    << "\" viewBox=\"0 0 " << kWidth << ' ' << kHeight
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << kLeft + pw / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
    << escape(chart.title) << "</text>\n";
  for (double t : axis_ticks(y0, y1, chart.y.log_base)) {
    const double y = Y(t);
    s << "<line x1=\"" << kLeft << "\" y1=\"" << num(y) << "\" x2=\"" << kLeft + pw << "\" y2=\""
      << num(y) << "\" stroke=\"#ddd\"/>\n<text x=\"" << kLeft - 8 << "\" y=\"" << num(y + 4)
      << "\" text-anchor=\"end\">" << tick_label(t, chart.y.log_base) << "</text>\n";
  }
  for (double t : axis_ticks(x0, x1, chart.x.log_base)) {
    const double x = X(t);
    s << "<line x1=\"" << num(x) << "\" y1=\"" << kTop << "\" x2=\"" << num(x) << "\" y2=\""
      << kTop + ph << "\" stroke=\"#ddd\"/>\n<text x=\"" << num(x) << "\" y=\"" << kTop + ph + 18
      << "\" text-anchor=\"middle\">" << tick_label(t, chart.x.log_base) << "</text>\n";
  }
  s << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << pw << "\" height=\"" << ph
    << "\" fill=\"none\" stroke=\"black\"/>\n<text x=\"" << kLeft + pw / 2 << "\" y=\""
    << kHeight - 15 << "\" text-anchor=\"middle\">" << escape(chart.x.label) << "</text>\n"
    << "<text transform=\"translate(18 " << kTop + ph / 2
    << ") rotate(-90)\" text-anchor=\"middle\">" << escape(chart.y.label) << "</text>\n";

  for (std::size_t k = 0; k < chart.series.size(); ++k) {
    const ChartSeries& series = chart.series[k];
    const char* colour = kColours[k % (sizeof kColours / sizeof *kColours)];
    const std::size_t n = std::min(series.x.size(), series.y.size());
    auto ok = [&](std::size_t i, double y) {
      return usable(series.x[i], chart.x.log_base) && usable(y, chart.y.log_base);
    };
    // Band: one closed polygon per run of usable points.
    if (series.low.size() == n && series.high.size() == n) {
      std::size_t i = 0;
      while (i < n) {
        std::size_t j = i;
        while (j < n && ok(j, series.low[j]) && ok(j, series.high[j])) ++j;
        if (j > i + 1) {
          std::ostringstream pts;
          for (std::size_t m = i; m < j; ++m)
            pts << num(X(series.x[m])) << ',' << num(Y(series.high[m])) << ' ';
          for (std::size_t m = j; m-- > i;)
            pts << num(X(series.x[m])) << ',' << num(Y(series.low[m])) << ' ';
          s << "<polygon fill=\"" << colour << "\" fill-opacity=\"0.18\" stroke=\"none\" points=\""
            << pts.str() << "\"/>\n";
        }
        i = std::max(j, i + 1);
      }
    }
    // The line: broken where a point is not usable.
    std::ostringstream pts;
    bool open = false;
    double previous_y = 0.0;
    auto close = [&] {
      if (open)
        s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\""
          << (series.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"" << pts.str()
          << "\"/>\n";
      pts.str("");
      open = false;
    };
    for (std::size_t i = 0; i < n; ++i) {
      if (!ok(i, series.y[i])) {
        close();
        continue;
      }
      const double x = X(series.x[i]), y = Y(series.y[i]);
      if (open && series.step) pts << num(x) << ',' << num(previous_y) << ' ';
      pts << num(x) << ',' << num(y) << ' ';
      previous_y = y;
      open = true;
    }
    if (open && series.step) pts << num(kLeft + pw) << ',' << num(previous_y);
    close();
    if (series.markers)
      for (std::size_t i = 0; i < n; ++i)
        if (ok(i, series.y[i]))
          s << "<circle cx=\"" << num(X(series.x[i])) << "\" cy=\"" << num(Y(series.y[i]))
            << "\" r=\"3\" fill=\"" << colour << "\"/>\n";
    const double ly = kTop + 20 + 22 * static_cast<double>(k);
    s << "<line x1=\"" << kLeft + pw + 15 << "\" y1=\"" << ly << "\" x2=\"" << kLeft + pw + 45
      << "\" y2=\"" << ly << "\" stroke=\"" << colour << "\" stroke-width=\"2\""
      << (series.dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>\n<text x=\"" << kLeft + pw + 52
      << "\" y=\"" << ly + 4 << "\">" << escape(series.label) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace pegsim::cli
