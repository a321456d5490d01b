// Plot axes on round numbers (gui/plots/axis_range.hpp): ticks every 1, 2 or 5 times a power of
// ten, the data inside, counts never below 0.
#include <gtest/gtest.h>

#include <cmath>

#include "gui/plots/axis_range.hpp"

namespace pegsim::gui {
namespace {

// The ticks are lo + k step, each a whole multiple of a round step, and cover [lo, hi].
void expect_round(const AxisRange& a, double lo, double hi, int max_ticks = 6) {
  EXPECT_LE(a.lo, lo);
  EXPECT_GE(a.hi, hi);
  EXPECT_GE(a.ticks, 2);
  EXPECT_LE(a.ticks, max_ticks);
  EXPECT_NEAR(a.lo + (a.ticks - 1) * a.step, a.hi, 1e-9 * std::max(1.0, std::abs(a.hi)));
  const double mantissa = a.step / std::pow(10.0, std::floor(std::log10(a.step)));
  EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
              std::abs(mantissa - 5) < 1e-9)
      << "step " << a.step;
  EXPECT_NEAR(a.lo / a.step, std::round(a.lo / a.step), 1e-9) << "lo on a tick";
}

TEST(AxisRange, ACountStaysAtOrAboveZero) {
  const AxisRange a = nice_axis(0.0, 12.0);  // contacts per step
  expect_round(a, 0.0, 12.0);
  EXPECT_EQ(a.lo, 0.0);
  EXPECT_EQ(a.hi, 15.0);  // 0, 5, 10, 15
  EXPECT_EQ(a.ticks, 4);
  const AxisRange constant = nice_axis(3.0, 3.0);  // a constant count
  expect_round(constant, 3.0, 3.0);
  EXPECT_GE(constant.lo, 0.0);
  EXPECT_EQ(nice_axis(0.0, 0.0).lo, 0.0);  // no contacts at all
  EXPECT_GE(nice_axis(0.0, 0.0).hi, 1.0);
}

TEST(AxisRange, OddDataGetRoundTicks) {
  const AxisRange a = nice_axis(5.97, 8.09);
  expect_round(a, 5.97, 8.09);
  EXPECT_DOUBLE_EQ(a.lo, 5.0);  // not 5.97 and 8.09: 5, 6, 7, 8, 9
  EXPECT_DOUBLE_EQ(a.hi, 9.0);
  EXPECT_DOUBLE_EQ(a.step, 1.0);
}

TEST(AxisRange, NegativeTinyAndHugeRanges) {
  expect_round(nice_axis(-3.2, 0.4), -3.2, 0.4);
  expect_round(nice_axis(-1e-9, 2.5e-9), -1e-9, 2.5e-9);
  expect_round(nice_axis(1e5, 9.9e7), 1e5, 9.9e7);
  expect_round(nice_axis(-245.0, -46.9), -245.0, -46.9);
  const AxisRange one = nice_axis(-2.0, -2.0);
  expect_round(one, -2.0, -2.0);
  EXPECT_LT(one.lo, -2.0);
  EXPECT_GT(one.hi, -2.0);
}

TEST(AxisRange, NoDataGiveTheUnitRange) {
  const AxisRange a = nice_axis(HUGE_VAL, -HUGE_VAL);
  EXPECT_EQ(a.lo, 0.0);
  EXPECT_EQ(a.hi, 1.0);
}

}  // namespace
}  // namespace pegsim::gui
