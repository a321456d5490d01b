#include "cli/svg_heat_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace pegsim::cli {
namespace {

constexpr double kLeft = 70, kTop = 40, kBottom = 55, kRight = 90, kCell = 28;

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

std::string label(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

// A cell's text: a fraction to two decimals, another range's value to three digits.
std::string cell_label(double v, bool fraction) {
  if (fraction) return label(std::round(v * 100) / 100);
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

// White at 0 to #1b5e20 at 1.
std::string colour(double v) {
  if (!std::isfinite(v)) return "#bdbdbd";
  v = std::clamp(v, 0.0, 1.0);
  const int r = int(std::lround(255 + v * (0x1b - 255)));
  const int g = int(std::lround(255 + v * (0x5e - 255)));
  const int b = int(std::lround(255 + v * (0x20 - 255)));
  char s[8];
  std::snprintf(s, sizeof s, "#%02x%02x%02x", r, g, b);
  return s;
}

}  // namespace

std::string heat_map_svg(const HeatMap& map) {
  const std::size_t nx = map.x.size(), ny = map.y.size();
  double lo = map.lo, hi = map.hi;
  if (lo == hi) {
    lo = INFINITY;
    hi = -INFINITY;
    for (const auto& row : map.value)
      for (double v : row)
        if (std::isfinite(v)) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
    if (!(lo < hi)) {
      lo = std::isfinite(lo) ? lo - 0.5 : 0.0;
      hi = lo + 1.0;
    }
  }
  const bool fraction = lo == 0.0 && hi == 1.0;
  auto level = [&](double v) { return (v - lo) / (hi - lo); };
  // Cells as wide as their widest text (an axis value or a cell's value), at least square; the
  // picture as wide as its title.
  // (about 6.2 px a character of an 11 px axis label, 5.2 px of a 9 px cell label).
  std::size_t axis_chars = 0, cell_chars = 0;
  for (double x : map.x) axis_chars = std::max(axis_chars, label(x).size());
  for (const auto& row : map.value)
    for (double v : row)
      if (std::isfinite(v)) cell_chars = std::max(cell_chars, cell_label(v, fraction).size());
  const double cw =
      std::max({kCell, 6.2 * double(axis_chars) + 4.0, 5.2 * double(cell_chars) + 6.0});
  const double width =
      std::max(kLeft + cw * double(nx) + kRight, 7.5 * double(map.title.size()) + 40.0);
  const double height = kTop + kCell * double(ny) + kBottom;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
    << num(height) << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << num(width / 2) << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
    << map.title << "</text>\n";
  for (std::size_t j = 0; j < ny; ++j) {
    const double top = kTop + kCell * double(ny - 1 - j);  // y increases upwards
    for (std::size_t i = 0; i < nx; ++i) {
      const double left = kLeft + cw * double(i);
      const double v = j < map.value.size() && i < map.value[j].size() ? map.value[j][i] : NAN;
      s << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(cw)
        << "\" height=\"" << num(kCell) << "\" fill=\"" << colour(level(v))
        << "\" stroke=\"#e0e0e0\"/>\n";
      if (std::isfinite(v))
        s << "<text x=\"" << num(left + cw / 2) << "\" y=\"" << num(top + kCell / 2 + 4)
          << "\" text-anchor=\"middle\" font-size=\"9\" fill=\""
          << (level(v) > 0.5 ? "white" : "#424242") << "\">" << cell_label(v, fraction)
          << "</text>\n";
    }
    s << "<text x=\"" << num(kLeft - 6) << "\" y=\"" << num(top + kCell / 2 + 4)
      << "\" text-anchor=\"end\">" << label(map.y[j]) << "</text>\n";
  }
  const double bottom = kTop + kCell * double(ny);
  for (std::size_t i = 0; i < nx; ++i)
    s << "<text x=\"" << num(kLeft + cw * (double(i) + 0.5)) << "\" y=\"" << num(bottom + 16)
      << "\" text-anchor=\"middle\">" << label(map.x[i]) << "</text>\n";
  s << "<text x=\"" << num(kLeft + cw * double(nx) / 2) << "\" y=\"" << num(bottom + 40)
    << "\" text-anchor=\"middle\">" << map.x_label << "</text>\n";
  s << "<text transform=\"translate(18," << num(kTop + kCell * double(ny) / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << map.y_label << "</text>\n";
  // The colour scale: lo at the bottom, hi at the top.
  const double bar = kLeft + cw * double(nx) + 30;
  for (int k = 0; k < 10; ++k)
    s << "<rect x=\"" << num(bar) << "\" y=\"" << num(kTop + kCell * double(ny) * (9 - k) / 10.0)
      << "\" width=\"14\" height=\"" << num(kCell * double(ny) / 10.0) << "\" fill=\""
      << colour((k + 0.5) / 10.0) << "\"/>\n";
  s << "<text x=\"" << num(bar + 20) << "\" y=\"" << num(kTop + 8) << "\">" << label(hi)
    << "</text>\n";
  s << "<text x=\"" << num(bar + 20) << "\" y=\"" << num(bottom) << "\">" << label(lo)
    << "</text>\n";
  s << "</svg>\n";
  return s.str();
}

}  // namespace pegsim::cli
