// The SVG line charts behind the experiments' figures and the performance profiles, and the
// heat maps of the sweeps.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>

#include "cli/svg_chart.hpp"
#include "cli/svg_heat_map.hpp"

namespace pegsim::cli {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// One square per cell, white at 0 and dark green at 1, each with its value; y grows upwards
// (the first row of values is drawn lowest); a cell without data is grey and unlabelled.
TEST(SvgHeatMap, EachCellIsASquareOfItsValuesColourWithYUpwards) {
  HeatMap m{"t", "x", "y", {0.0, 1.0, 2.0}, {-1.0, 0.0}, {{0.0, 1.0, 0.25}, {0.5, NAN, 1.0}}};
  const std::string svg = heat_map_svg(m);
  EXPECT_EQ(count(svg, "width=\"28.0\" height=\"28.0\""), 6);
  EXPECT_EQ(count(svg, "fill=\"#ffffff\" stroke"), 1);  // 0
  EXPECT_EQ(count(svg, "fill=\"#1b5e20\" stroke"), 2);  // 1
  EXPECT_EQ(count(svg, "fill=\"#bdbdbd\" stroke"), 1);  // no data
  EXPECT_NE(svg.find(">0.25<"), std::string::npos);
  // Row y = -1 (values[0]) below row y = 0: its squares' top edge is lower on the page.
  const std::size_t first = svg.find("fill=\"#ffffff\" stroke");
  const std::size_t nodata = svg.find("fill=\"#bdbdbd\" stroke");
  auto top = [&](std::size_t at) {
    const std::size_t y = svg.rfind(" y=\"", at);
    return std::stod(svg.substr(y + 4));
  };
  EXPECT_GT(top(first), top(nodata));
}

TEST(SvgChart, LinearTicksAreNiceNumbersCoveringTheRange) {
  const std::vector<double> t = axis_ticks(-0.3, 2.7, 0);
  ASSERT_EQ(t, (std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0, 2.5}));
  const std::vector<double> big = axis_ticks(0.0, 1000.0, 0);
  EXPECT_EQ(big.front(), 0.0);
  EXPECT_EQ(big.back(), 1000.0);
  EXPECT_EQ(big[1], 200.0);
}

TEST(SvgChart, LogTicksArePowersOfTheBase) {
  EXPECT_EQ(axis_ticks(-3.0, 0.0, 10), (std::vector<double>{1e-3, 1e-2, 1e-1, 1.0}));
  EXPECT_EQ(axis_ticks(0.0, 3.0, 2), (std::vector<double>{1.0, 2.0, 4.0, 8.0}));
  // At most about ten labels however wide the range.
  EXPECT_LE(axis_ticks(-30.0, 0.0, 10).size(), 11u);
}

TEST(SvgChart, PointsLandWhereTheAxesPutThem) {
  Chart c;
  c.x = {"x", 0, 0.0, 10.0};
  c.y = {"y", 0, 0.0, 1.0};
  ChartSeries s;
  s.label = "line";
  s.x = {0.0, 10.0};
  s.y = {0.0, 1.0};
  c.series.push_back(s);
  const std::string svg = chart_svg(c);
  // Plot area: x from 78 to 640 - 170 = 470, y from 40 to 420 - 60 = 360.
  EXPECT_NE(svg.find("points=\"78.00,360.00 470.00,40.00 \""), std::string::npos) << svg;
  EXPECT_EQ(count(svg, "<polyline"), 1);
  EXPECT_NE(svg.find(">line</text>"), std::string::npos);
}

TEST(SvgChart, NonFiniteAndNonPositiveLogPointsBreakTheLine) {
  Chart c;
  c.y.log_base = 10;
  ChartSeries s;
  s.x = {1, 2, 3, 4, 5, 6};
  s.y = {1e-3, 1e-2, std::numeric_limits<double>::quiet_NaN(), 1e-1, 0.0, 1.0};
  c.series.push_back(s);
  const std::string svg = chart_svg(c);
  // Three runs: {1,2}, {4}, {6}.
  EXPECT_EQ(count(svg, "<polyline"), 3);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

TEST(SvgChart, BandsAndStepsAndEscapedLabels) {
  Chart c;
  c.title = "a < b & c";
  ChartSeries s;
  s.x = {1, 2, 3};
  s.y = {1, 2, 3};
  s.low = {0.5, 1.5, 2.5};
  s.high = {1.5, 2.5, 3.5};
  s.step = true;
  c.series.push_back(s);
  const std::string svg = chart_svg(c);
  EXPECT_EQ(count(svg, "<polygon"), 1);
  EXPECT_NE(svg.find("a &lt; b &amp; c"), std::string::npos);
  // A step line has two vertices per point after the first, plus the run to the right edge.
  const std::smatch m = [&] {
    std::smatch r;
    std::regex_search(svg, r, std::regex("<polyline[^>]*points=\"([^\"]*)\""));
    return r;
  }();
  ASSERT_TRUE(m.ready() && m.size() == 2);
  EXPECT_EQ(count(m[1].str(), ","), 1 + 2 * 2 + 1);
}

}  // namespace
}  // namespace pegsim::cli
