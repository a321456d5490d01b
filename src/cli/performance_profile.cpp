#include "cli/performance_profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace pegsim::cli {

PerformanceProfile performance_profile(const std::vector<std::string>& solvers,
                                       const std::vector<std::vector<double>>& times) {
  PerformanceProfile out;
  out.solvers = solvers;
  const std::size_t ns = solvers.size();
  std::vector<std::vector<double>> ratio(ns);
  for (const std::vector<double>& t : times) {
    double best = std::numeric_limits<double>::infinity();
    for (double v : t) best = std::min(best, v);
    for (std::size_t s = 0; s < ns; ++s) {
      // A problem nobody solved counts against everyone; a zero best time (below the clock's
      // resolution) compares as equal times.
      double r = std::numeric_limits<double>::infinity();
      if (std::isfinite(t[s])) r = best > 0.0 ? t[s] / best : 1.0;
      ratio[s].push_back(r);
      if (std::isfinite(r)) out.max_ratio = std::max(out.max_ratio, r);
    }
  }
  out.taus.push_back(1.0);
  for (const auto& rs : ratio)
    for (double r : rs)
      if (std::isfinite(r)) out.taus.push_back(r);
  std::sort(out.taus.begin(), out.taus.end());
  out.taus.erase(std::unique(out.taus.begin(), out.taus.end()), out.taus.end());
  const double n = std::max<double>(1.0, static_cast<double>(times.size()));
  for (std::size_t s = 0; s < ns; ++s) {
    std::vector<double> sorted = ratio[s];
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> rho;
    for (double tau : out.taus)
      rho.push_back(static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), tau) -
                                        sorted.begin()) / n);
    out.rho.push_back(std::move(rho));
  }
  return out;
}

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string num(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", x);
  return b;
}

}  // namespace

std::string profile_svg(const PerformanceProfile& p, const std::string& title) {
  const double W = 640, H = 420, left = 70, right = 170, top = 40, bottom = 60;
  const double pw = W - left - right, ph = H - top - bottom;
  // x axis: log2(tau) from 0 to at least 1, rounded up to a whole power of two.
  const double xmax = std::max(1.0, std::ceil(std::log2(p.max_ratio) + 1e-12));
  auto X = [&](double tau) { return left + pw * std::min(std::log2(tau), xmax) / xmax; };
  auto Y = [&](double rho) { return top + ph * (1.0 - rho); };
  static const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                  "#8c564b", "#e377c2", "#17becf"};
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
    << "\" viewBox=\"0 0 " << W << ' ' << H << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << left + pw / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">"
    << escape(title) << "</text>\n";
  // Grid and ticks: y every 0.2, x every power of two (labelled as tau).
  const int xstep = static_cast<int>(std::max(1.0, std::ceil(xmax / 10)));
  for (int i = 0; i <= 5; ++i) {
    const double y = Y(i / 5.0);
    s << "<line x1=\"" << left << "\" y1=\"" << num(y) << "\" x2=\"" << left + pw << "\" y2=\""
      << num(y) << "\" stroke=\"#ddd\"/>\n<text x=\"" << left - 8 << "\" y=\"" << num(y + 4)
      << "\" text-anchor=\"end\">" << num(i / 5.0).substr(0, 3) << "</text>\n";
  }
  for (int e = 0; e <= static_cast<int>(xmax); e += xstep) {
    const double x = left + pw * e / xmax;
    s << "<line x1=\"" << num(x) << "\" y1=\"" << top << "\" x2=\"" << num(x) << "\" y2=\""
      << top + ph << "\" stroke=\"#ddd\"/>\n<text x=\"" << num(x) << "\" y=\"" << top + ph + 18
      << "\" text-anchor=\"middle\">" << (1LL << e) << "</text>\n";
  }
  s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << pw << "\" height=\"" << ph
    << "\" fill=\"none\" stroke=\"black\"/>\n"
    << "<text x=\"" << left + pw / 2 << "\" y=\"" << H - 15
    << "\" text-anchor=\"middle\">&#964; (time within a factor &#964; of the best; log scale)</text>\n"
    << "<text transform=\"translate(20 " << top + ph / 2
    << ") rotate(-90)\" text-anchor=\"middle\">fraction of problems solved</text>\n";
  // One right-continuous step function per solver, up to the right edge.
  for (std::size_t k = 0; k < p.solvers.size(); ++k) {
    const char* colour = colours[k % 8];
    std::ostringstream pts;
    double prev = 0.0;
    pts << num(X(1.0)) << ',' << num(Y(0.0));
    for (std::size_t i = 0; i < p.taus.size(); ++i) {
      const double x = X(p.taus[i]);
      pts << ' ' << num(x) << ',' << num(Y(prev)) << ' ' << num(x) << ',' << num(Y(p.rho[k][i]));
      prev = p.rho[k][i];
    }
    pts << ' ' << num(left + pw) << ',' << num(Y(prev));
    s << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\" points=\""
      << pts.str() << "\"/>\n";
    const double ly = top + 20 + 22 * static_cast<double>(k);
    s << "<line x1=\"" << left + pw + 15 << "\" y1=\"" << ly << "\" x2=\"" << left + pw + 45
      << "\" y2=\"" << ly << "\" stroke=\"" << colour << "\" stroke-width=\"2\"/>\n<text x=\""
      << left + pw + 52 << "\" y=\"" << ly + 4 << "\">" << escape(p.solvers[k]) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace pegsim::cli
