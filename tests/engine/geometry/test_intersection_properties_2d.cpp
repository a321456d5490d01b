// The common area of two planar bodies (volumetric contact, seed 002, planar mode): area,
// centroid and inertia against closed forms and counted points, the normal and length against
// finite differences of the area.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <tuple>

#include "engine/geometry/intersection_properties_2d.hpp"
#include "engine/geometry/polygon_overlap.hpp"
#include "engine/geometry/random_points.hpp"

namespace pegsim {
namespace {

std::vector<Vec2> moved(const std::vector<Vec2>& outline, const Vec2& by) {
  std::vector<Vec2> out;
  for (const Vec2& v : outline) out.push_back(v + by);
  return out;
}

std::vector<Vec2> rectangle(double wx, double wy, double angle, const Vec2& centre) {
  std::vector<Vec2> out;
  const Eigen::Rotation2Dd r(angle);
  for (const Vec2& c : {Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)})
    out.push_back(centre + r * Vec2(0.5 * wx * c.x(), 0.5 * wy * c.y()));
  return out;
}

bool inside_outline(const std::vector<Vec2>& p, const Vec2& x) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 e = p[(i + 1) % p.size()] - p[i], d = x - p[i];
    if (e.x() * d.y() - e.y() * d.x() < 0.0) return false;
  }
  return true;
}

// Area, centroid and lamina inertia of {x in square : in(x)} by counting random points.
IntersectionProperties count(const std::function<bool(const Vec2&)>& in, const Vec2& centre,
                             double half, int n) {
  const std::vector<Vec2> unit = random_points_2d(11, n, 1.0);
  const double cell = 4.0 * half * half / n;
  double area = 0.0;
  Vec2 first = Vec2::Zero();
  Eigen::Matrix2d second = Eigen::Matrix2d::Zero();
  for (const Vec2& u : unit) {
    const Vec2 x = centre + half * u;
    if (!in(x)) continue;
    area += cell;
    first += cell * (x - centre);
    second += cell * (x - centre) * (x - centre).transpose();
  }
  IntersectionProperties out;
  out.volume = area;
  const Vec2 c = first / area;
  out.centroid = Vec3(centre.x() + c.x(), centre.y() + c.y(), 0.0);
  const Eigen::Matrix2d s = second - area * c * c.transpose();
  out.inertia << s(1, 1), -s(0, 1), 0, -s(0, 1), s(0, 0), 0, 0, 0, s.trace();
  return out;
}

void expect_close(const IntersectionProperties& got, const IntersectionProperties& want,
                  double relative) {
  EXPECT_NEAR(got.volume, want.volume, relative * want.volume);
  EXPECT_LE((got.centroid - want.centroid).norm(), relative * std::sqrt(want.volume));
  EXPECT_LE((got.inertia - want.inertia).norm(), 2.0 * relative * want.inertia.norm())
      << got.inertia << "\nvs\n"
      << want.inertia;
}

double rate(const std::function<double(double)>& area_at_shift, double step) {
  return (area_at_shift(-step) - area_at_shift(step)) / (2.0 * step);
}

TEST(IntersectionProperties2d, TurnedRectanglesAgreeWithCountedPoints) {
  IntersectionWorkspace w;
  const std::vector<Vec2> a = rectangle(1.0, 0.6, 0.3, Vec2(0.1, 0.0));
  const std::vector<Vec2> b = rectangle(0.7, 0.5, -0.8, Vec2(0.6, 0.3));
  const IntersectionProperties p = polygon_intersection_properties(a, b, w);
  ASSERT_FALSE(p.empty());
  EXPECT_NEAR(p.volume, polygon_overlap_area(a, b), 1e-14);
  const IntersectionProperties counted =
      count([&](const Vec2& x) { return inside_outline(a, x) && inside_outline(b, x); },
            p.centroid.head<2>(), 0.5, 1'000'000);
  expect_close(p, counted, 0.01);
  // The length is the rate at which moving B along the normal empties the area, and moving it
  // across the normal leaves the area as it is.
  const Vec2 n = p.normal.head<2>(), t(-n.y(), n.x());
  EXPECT_NEAR(p.normal.z(), 0.0, 0.0);
  auto along = [&](const Vec2& dir) {
    return [&, dir](double s) {
      return polygon_intersection_properties(a, moved(b, s * dir), w).volume;
    };
  };
  EXPECT_NEAR(rate(along(n), 1e-6), p.area, 1e-7 * p.area);
  EXPECT_NEAR(rate(along(t), 1e-6), 0.0, 1e-7 * p.area);
  // Roles swapped: the same area, the normal turned round.
  const IntersectionProperties q = polygon_intersection_properties(b, a, w);
  EXPECT_NEAR(q.volume, p.volume, 1e-14);
  EXPECT_LE((q.normal + p.normal).norm(), 1e-12);
}

// A square in a square slot 2 mm too narrow, the slot two walls and a floor: each part pushes
// the square out of itself.
TEST(IntersectionProperties2d, ASquareInATightSlotIsPushedAwayFromEachPart) {
  IntersectionWorkspace w;
  const std::vector<Vec2> square = rectangle(1, 1, 0, Vec2(0, 0.5));
  const double inner = 0.499;
  const std::tuple<std::vector<Vec2>, Vec2> parts[] = {
      {rectangle(0.5, 1, 0, Vec2(inner + 0.25, 0.5)), Vec2(-1, 0)},
      {rectangle(0.5, 1, 0, Vec2(-inner - 0.25, 0.5)), Vec2(1, 0)},
      {rectangle(3, 0.5, 0, Vec2(0, -0.249)), Vec2(0, 1)}};
  for (const auto& [part, push] : parts) {
    const IntersectionProperties p = polygon_intersection_properties(part, square, w);
    ASSERT_FALSE(p.empty());
    EXPECT_LE((p.normal.head<2>() - push).norm(), 1e-12);
    // The layer under the square's side of length 1 resists its tilting with
    // int s^2 ds = 1 / 12, its thin ends (1e-3) with 1e-9 / 12.
    EXPECT_NEAR(p.tilt_b(2, 2), 1.0 / 12.0, 1e-8);
  }
}

TEST(IntersectionProperties2d, ATurnedRectangleInTheGround) {
  IntersectionWorkspace w;
  const std::vector<Vec2> b = rectangle(0.8, 0.3, 0.5, Vec2(0.2, 0.1));
  const Vec2 up = Vec2(0.2, 1).normalized(), point(0, 0.05);
  const IntersectionProperties p = halfplane_polygon_intersection_properties(point, up, b, w);
  ASSERT_FALSE(p.empty());
  const IntersectionProperties counted =
      count([&](const Vec2& x) { return inside_outline(b, x) && up.dot(x - point) <= 0.0; },
            p.centroid.head<2>(), 0.5, 1'000'000);
  expect_close(p, counted, 0.01);
  EXPECT_LE((p.normal.head<2>() - up).norm(), 1e-15);
  auto shifted = [&](double s) {
    return halfplane_polygon_intersection_properties(point, up, moved(b, s * up), w).volume;
  };
  EXPECT_NEAR(rate(shifted, 1e-6), p.area, 1e-7 * p.area);
}

TEST(IntersectionProperties2d, DiscLensesAgreeWithCountedPoints) {
  const Vec2 ca(0.1, -0.3);
  const std::tuple<double, double, double> cases[] = {
      {1.0, 0.6, 1.3}, {0.6, 1.0, 1.3}, {0.7, 0.7, 0.9}, {1.0, 0.6, 0.6}};
  for (const auto& c : cases) {
    const double ra = std::get<0>(c), rb = std::get<1>(c), d = std::get<2>(c);
    const Vec2 e = Vec2(3, -4) / 5.0, cb = ca + d * e;
    const IntersectionProperties p = disc_intersection_properties(ca, ra, cb, rb);
    const IntersectionProperties counted =
        count([&](const Vec2& x) { return (x - ca).norm() <= ra && (x - cb).norm() <= rb; },
              p.centroid.head<2>(), 1.0, 1'000'000);
    expect_close(p, counted, 0.01);
    EXPECT_LE((p.normal.head<2>() - e).norm(), 1e-15);
    auto shifted = [&](double s) {
      return disc_intersection_properties(ca, ra, cb + s * e, rb).volume;
    };
    EXPECT_NEAR(rate(shifted, 1e-6), p.area, 1e-7 * p.area);
  }
}

// Circular segments against their closed forms: area r^2 (t - sin t cos t) with cos t = (r - h)
// / r, centroid 2 r sin^3 t / (3 (t - sin t cos t)) from the centre; thin ones keep their digits
// (area 4/3 h sqrt(2 r h) to first order).
TEST(IntersectionProperties2d, CircularSegmentsMatchTheirClosedForms) {
  const Vec2 point(0.2, -0.1), up = Vec2(1, 2).normalized();
  for (double h : {0.05, 0.6, 1.0, 1.5, 1.95}) {
    const double r = 1.0, t = std::acos((r - h) / r);
    const double area = r * r * (t - std::sin(t) * std::cos(t));
    const Vec2 centre = point + (r - h) * up;
    const IntersectionProperties p = halfplane_disc_intersection_properties(point, up, centre, r);
    EXPECT_NEAR(p.volume, area, 1e-14) << h;
    const double from_centre =
        2.0 * std::pow(std::sin(t), 3) / (3.0 * (t - std::sin(t) * std::cos(t)));
    EXPECT_NEAR(up.dot(centre - p.centroid.head<2>()), from_centre, 1e-14) << h;
    EXPECT_NEAR(p.area, 2.0 * r * std::sin(t), 1e-14) << h;
    EXPECT_EQ(p.tilt_b.norm(), 0.0) << h;  // a disc's round side
  }
  // Half the disc: int x^2 dA across the axis is pi r^4 / 8.
  const IntersectionProperties half = halfplane_disc_intersection_properties(point, up, point, 1.0);
  const Vec2 across(-up.y(), up.x());
  const Eigen::Matrix2d spread{{half.inertia(1, 1), -half.inertia(0, 1)},
                               {-half.inertia(0, 1), half.inertia(0, 0)}};
  EXPECT_NEAR(across.dot(spread * across), std::numbers::pi / 8.0, 1e-14);
  const Vec2 centre = point + (1.0 - 1e-10) * up;
  const double h = 1.0 - up.dot(centre - point);  // the depth as rounded
  const IntersectionProperties thin =
      halfplane_disc_intersection_properties(point, up, centre, 1.0);
  EXPECT_NEAR(thin.volume, 4.0 / 3.0 * h * std::sqrt(2.0 * h), 1e-9 * thin.volume);
  EXPECT_NEAR(up.dot(point - thin.centroid.head<2>()), 0.4 * h, 1e-15);  // world rounding
  EXPECT_TRUE(halfplane_disc_intersection_properties(point, up, point + 1.5 * up, 1.0).empty());
  const IntersectionProperties buried =
      halfplane_disc_intersection_properties(point, up, point - 3.0 * up, 1.0);
  EXPECT_NEAR(buried.volume, std::numbers::pi, 1e-14);
  EXPECT_NEAR(buried.inertia(2, 2), std::numbers::pi / 2.0, 1e-14);
  EXPECT_EQ(buried.area, 0.0);
}

// A disc about a square's corner keeps its quarter: area pi r^2 / 4, centroid 4 r / (3 pi) inside
// along both edges, int x^2 = pi r^4 / 16 and int x y = r^4 / 8 about the centre; each edge
// carries r of the length.
TEST(IntersectionProperties2d, ADiscAboutACornerIsItsQuarter) {
  IntersectionWorkspace w;
  const double angle = 0.35, r = 0.3;
  const Eigen::Rotation2Dd turn(angle);
  const Vec2 corner(0.4, -0.2);
  const std::vector<Vec2> square = rectangle(2.0, 2.0, angle, corner - turn * Vec2(1.0, 1.0));
  const IntersectionProperties p = polygon_disc_intersection_properties(square, corner, r, w);
  const double pi = std::numbers::pi, area = pi * r * r / 4.0;
  EXPECT_NEAR(p.volume, area, 1e-15);
  const Vec2 c = corner - turn * Vec2::Constant(4.0 * r / (3.0 * pi));
  EXPECT_LE((p.centroid.head<2>() - c).norm(), 1e-15);
  // The lamina's polar moment about its centroid: int |x|^2 about the centre less A |c|^2.
  const double polar = pi * std::pow(r, 4) / 8.0 - area * 2.0 * std::pow(4.0 * r / (3.0 * pi), 2);
  EXPECT_NEAR(p.inertia(2, 2), polar, 1e-15);
  // In the square's frame int x y = r^4 / 8, less A c_x c_y.
  const Eigen::Matrix2d turned = turn.toRotationMatrix();
  const Eigen::Matrix2d S =
      turned.transpose() *
      (Eigen::Matrix2d() << p.inertia(1, 1), -p.inertia(0, 1), -p.inertia(0, 1), p.inertia(0, 0))
          .finished() *
      turned;
  EXPECT_NEAR(S(0, 1), std::pow(r, 4) / 8.0 - area * std::pow(4.0 * r / (3.0 * pi), 2), 1e-15);
  EXPECT_LE((p.area * p.normal.head<2>() - r * turned * Vec2(1.0, 1.0)).norm(), 1e-15);
  EXPECT_NEAR(p.tilt_a(2, 2), 2.0 * r * r * r / 12.0, 1e-15);
}

// A disc cut by one edge of a large polygon is the circular segment; a triangle cutting it three
// times agrees with counted points; a polygon inside the disc is itself.
TEST(IntersectionProperties2d, DiscsAndPolygonsAgreeWithSegmentsAndCountedPoints) {
  IntersectionWorkspace w;
  const Vec2 normal = Vec2(0.3, 1.0).normalized();
  const std::vector<Vec2> slab = rectangle(20.0, 2.0, std::atan2(-normal.x(), normal.y()),
                                           Vec2(0.1, 0.2) - normal);  // top edge through (0.1, 0.2)
  for (double height : {0.45, 0.0, -0.3}) {
    const Vec2 centre = Vec2(0.1, 0.2) + height * normal;
    const IntersectionProperties p = polygon_disc_intersection_properties(slab, centre, 0.5, w);
    const IntersectionProperties q =
        halfplane_disc_intersection_properties(Vec2(0.1, 0.2), normal, centre, 0.5);
    EXPECT_NEAR(p.volume, q.volume, 1e-14);
    EXPECT_LE((p.centroid - q.centroid).norm(), 1e-14);
    EXPECT_LE((p.inertia - q.inertia).norm(), 1e-14);
    EXPECT_LE((p.normal - q.normal).norm(), 1e-14);
    EXPECT_NEAR(p.area, q.area, 1e-13);  // chords cut from a 20 m edge
  }
  const std::vector<Vec2> triangle = {Vec2(-0.5, -0.35), Vec2(0.55, -0.3), Vec2(0.0, 0.6)};
  const Vec2 centre(0.02, -0.01);
  const IntersectionProperties p = polygon_disc_intersection_properties(triangle, centre, 0.4, w);
  const IntersectionProperties counted = count(
      [&](const Vec2& x) { return (x - centre).norm() <= 0.4 && inside_outline(triangle, x); },
      centre, 0.4, 1'000'000);
  expect_close(p, counted, 0.005);
  // Three edges each with its chord inside: the gradient's differences.
  auto shifted = [&](const Vec2& d) {
    return polygon_disc_intersection_properties(triangle, centre + d, 0.4, w).volume;
  };
  for (const Vec2& e : {Vec2(1, 0), Vec2(0, 1)})
    EXPECT_NEAR(rate([&](double s) { return shifted(s * e); }, 1e-7),
                p.area * p.normal.head<2>().dot(e), 1e-7);
  const IntersectionProperties small =
      polygon_disc_intersection_properties(rectangle(0.2, 0.1, 0.3, centre), centre, 0.4, w);
  EXPECT_NEAR(small.volume, 0.02, 1e-16);
  EXPECT_EQ(small.area, 0.0);
  EXPECT_TRUE(polygon_disc_intersection_properties(triangle, Vec2(2, 2), 0.4, w).empty());
}

}  // namespace
}  // namespace pegsim
