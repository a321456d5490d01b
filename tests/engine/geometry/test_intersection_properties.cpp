// The common volume of two bodies (volumetric contact, seed 002 ch. 4): volume, centroid and
// inertia against closed forms and against an independent count of random points, the normal
// and area against finite differences of the volume.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <cmath>
#include <functional>
#include <numbers>
#include <tuple>

#include "counted_points.hpp"
#include "engine/geometry/builders.hpp"
#include "engine/geometry/intersection_properties.hpp"
#include "engine/geometry/random_points.hpp"
#include "engine/geometry/sphere_overlap.hpp"
#include "posed.hpp"

namespace pegsim {
namespace {

// Inside a posed polytope: on the inner side of every face plane.
std::function<bool(const Vec3&)> inside(const Polytope& p, const BodyState& at) {
  return [&p, at](const Vec3& x) {
    const Vec3 local = at.orientation.conjugate() * (x - at.position);
    for (const Polytope::Face& f : p.faces)
      if (f.normal.dot(local) > f.offset) return false;
    return true;
  };
}

// Within `relative` of the counted volume and centroid, twice that of the inertia (a second
// moment, counted with a larger spread).
void expect_close(const IntersectionProperties& got, const IntersectionProperties& want,
                  double relative) {
  EXPECT_NEAR(got.volume, want.volume, relative * want.volume);
  const double size = std::cbrt(want.volume);
  EXPECT_LE((got.centroid - want.centroid).norm(), relative * size)
      << got.centroid.transpose() << " vs " << want.centroid.transpose();
  EXPECT_LE((got.inertia - want.inertia).norm(), 2.0 * relative * want.inertia.norm())
      << got.inertia << "\nvs\n"
      << want.inertia;
}

// The mass-property identities of any solid: the inertia is symmetric, its principal moments
// are positive and each is at most the sum of the other two.
void expect_physical_inertia(const Mat3& J) {
  EXPECT_LE((J - J.transpose()).norm(), 1e-12 * J.norm());
  const Vec3 m = Eigen::SelfAdjointEigenSolver<Mat3>(J).eigenvalues();
  EXPECT_GT(m.minCoeff(), 0.0);
  for (int i = 0; i < 3; ++i) EXPECT_LE(m(i), m((i + 1) % 3) + m((i + 2) % 3) + 1e-12 * m.sum());
}

// -dV/dd by central differences of B moved along the reported normal.
double area_by_difference(const std::function<double(double)>& volume_at_shift, double step) {
  return (volume_at_shift(-step) - volume_at_shift(step)) / (2.0 * step);
}

// -dV/dx of B by central differences along the three axes: the gradient the normal and area
// report as -area * normal.
Vec3 gradient_by_differences(const Polytope& a, const BodyState& pa, const Polytope& b,
                             const BodyState& pb, double step) {
  IntersectionWorkspace w;
  Vec3 g;
  for (int i = 0; i < 3; ++i) {
    auto shifted = [&](double s) {
      BodyState moved = pb;
      moved.position(i) += s;
      return polytope_intersection_properties(a, pa, b, moved, w).volume;
    };
    g(i) = -area_by_difference(shifted, step);
  }
  return g;
}

TEST(IntersectionProperties, OffsetBoxesMeetInABox) {
  // A 2 x 2 x 1 slab, B a unit cube sunk 0.1 into its top and hanging 0.3 over its +x side.
  const Polytope a = make_box(2, 2, 1), b = make_cube(1.0);
  IntersectionWorkspace w;
  const BodyState pa = pose(Vec3::Zero()), pb = pose(Vec3(0.8, 0, 0.5 + 0.5 - 0.1));
  const IntersectionProperties p = polytope_intersection_properties(a, pa, b, pb, w);
  // The common box: x in [0.3, 1], y in [-0.5, 0.5], z in [0.4, 0.5].
  const Vec3 size(0.7, 1.0, 0.1);
  EXPECT_NEAR(p.volume, size.prod(), 1e-14);
  EXPECT_LE((p.centroid - Vec3(0.65, 0, 0.45)).norm(), 1e-14);
  const double v = size.prod();
  const Mat3 box =
      (v / 12.0 *
       Vec3(size.y() * size.y() + size.z() * size.z(), size.x() * size.x() + size.z() * size.z(),
            size.x() * size.x() + size.y() * size.y()))
          .asDiagonal();
  EXPECT_LE((p.inertia - box).norm(), 1e-14);
  // Raising B empties the box at the footprint's rate (0.7 m^2); moving it further over the
  // edge at the rate of its 1 x 0.1 side: the normal leans off the edge by atan(0.1 / 0.7),
  // a lean of the order of the depth over the overhang, that vanishes as the depth does.
  EXPECT_LE((p.area * p.normal - Vec3(0.1, 0, 0.7)).norm(), 1e-14);
  EXPECT_LE((gradient_by_differences(a, pa, b, pb, 1e-6) + p.area * p.normal).norm(), 1e-9);
}

// int |r| dA over the rectangle [-a, a] x [-b, b] in Cartesian form: four times
// (2 a b rho + a^3 asinh(b / a) + b^3 asinh(a / b)) / 6, rho = sqrt(a^2 + b^2).
double rectangle_polar_moment(double a, double b) {
  const double rho = std::hypot(a, b);
  return 4.0 * (2.0 * a * b * rho + a * a * a * std::asinh(b / a) + b * b * b * std::asinh(a / b)) /
         6.0;
}

TEST(IntersectionProperties, TheSpinRadiusIsThePatchsMeanDistanceFromTheAxis) {
  IntersectionWorkspace w;
  // A 0.6 x 0.4 box sunk flat into the ground, away from the origin and turned about the
  // normal: the patch is its footprint.
  const Polytope box = make_box(0.6, 0.4, 0.2);
  const BodyState flat = pose(Vec3(1.3, -0.7, 0.08), Quat(Eigen::AngleAxisd(0.4, Vec3::UnitZ())));
  const IntersectionProperties p =
      halfspace_polytope_intersection_properties(Vec3::Zero(), Vec3::UnitZ(), box, flat, w);
  EXPECT_NEAR(p.spin_radius, rectangle_polar_moment(0.3, 0.2) / (0.6 * 0.4), 1e-14);
  // A unit cube on a larger block: the same footprint from two polytopes.
  const IntersectionProperties on_block = polytope_intersection_properties(
      make_box(3, 3, 1), pose(Vec3::Zero()), make_cube(1.0), pose(Vec3(0.2, 0.1, 0.95)), w);
  EXPECT_NEAR(on_block.spin_radius, rectangle_polar_moment(0.5, 0.5), 1e-14);
  // A disc (a 256-gon prism) has 2 R / 3, to the polygon's O(1/n^2).
  const IntersectionProperties disc = halfspace_polytope_intersection_properties(
      Vec3::Zero(), Vec3::UnitZ(), make_cylinder(256, 0.25, 0.05), pose(Vec3(0, 0, 0.02)), w);
  EXPECT_NEAR(disc.spin_radius, 2.0 / 3.0 * 0.25, 1e-4 * 0.25);
  // A ball's cap: its rim disc's 2 a / 3.
  const double h = 0.1, a = std::sqrt(h * (2.0 - h));
  const IntersectionProperties cap = halfspace_sphere_intersection_properties(
      Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 1.0 - h), 1.0);
  EXPECT_NEAR(cap.spin_radius, 2.0 * a / 3.0, 1e-14);
}

TEST(IntersectionProperties, TurnedPolytopesAgreeWithCountedPoints) {
  const Polytope a = make_box(1.0, 0.6, 0.8), b = make_cube(0.7);
  const BodyState pa =
      pose(Vec3(0.1, -0.2, 0.0), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())));
  const BodyState pb =
      pose(Vec3(0.55, 0.1, 0.35), Quat(Eigen::AngleAxisd(1.1, Vec3(-2, 1, 1).normalized())));
  IntersectionWorkspace w;
  const IntersectionProperties p = polytope_intersection_properties(a, pa, b, pb, w);
  ASSERT_FALSE(p.empty());
  auto in_a = inside(a, pa), in_b = inside(b, pb);
  const IntersectionProperties counted = count([&](const Vec3& x) { return in_a(x) && in_b(x); },
                                               p.centroid, Vec3::Constant(0.6), 2'000'000);
  expect_close(p, counted, 0.01);
  expect_physical_inertia(p.inertia);
  // The same volume, centroid and inertia with the roles swapped; the normal turns round.
  const IntersectionProperties q = polytope_intersection_properties(b, pb, a, pa, w);
  EXPECT_NEAR(q.volume, p.volume, 1e-13);
  EXPECT_LE((q.centroid - p.centroid).norm(), 1e-13);
  EXPECT_LE((q.inertia - p.inertia).norm(), 1e-13);
  EXPECT_LE((q.normal + p.normal).norm(), 1e-12);
  EXPECT_NEAR(q.area, p.area, 1e-12);
  // The area is the rate at which moving B along the normal empties the volume.
  auto shifted = [&](double s) {
    BodyState moved = pb;
    moved.position += s * p.normal;
    return polytope_intersection_properties(a, pa, b, moved, w).volume;
  };
  EXPECT_NEAR(area_by_difference(shifted, 1e-6), p.area, 1e-6 * p.area);
  // Moving B across the normal changes the volume no faster than along it (the normal is the
  // gradient's direction).
  const Vec3 across = any_perpendicular(p.normal);
  auto sideways = [&](double s) {
    BodyState moved = pb;
    moved.position += s * across;
    return polytope_intersection_properties(a, pa, b, moved, w).volume;
  };
  EXPECT_NEAR(area_by_difference(sideways, 1e-6), 0.0, 1e-6 * p.area);
}

// A cube pressed into a square hole 2 mm too narrow, the hole built of convex parts (four walls
// and a floor): each part's normal pushes the cube out of that part, the walls' sideways and the
// floor's up, which one plane through the whole contour (the thesis' fit) cannot.
TEST(IntersectionProperties, ACubeInATightHoleIsPushedAwayFromEachPart) {
  const Polytope cube = make_cube(1.0);
  const Polytope wall_x = make_box(0.5, 2.0, 1.0), wall_y = make_box(2.0, 0.5, 1.0);
  const Polytope floor = make_box(3, 3, 0.5);
  const double inner = 0.499;  // the walls' inner faces at +-inner, the cube's at +-0.5
  struct Part {
    const Polytope* shape;
    Vec3 at, push;
  };
  const Part parts[] = {{&wall_x, Vec3(inner + 0.25, 0, 0.5), -Vec3::UnitX()},
                        {&wall_x, Vec3(-inner - 0.25, 0, 0.5), Vec3::UnitX()},
                        {&wall_y, Vec3(0, inner + 0.25, 0.5), -Vec3::UnitY()},
                        {&wall_y, Vec3(0, -inner - 0.25, 0.5), Vec3::UnitY()},
                        {&floor, Vec3(0, 0, -0.249), Vec3::UnitZ()}};
  const BodyState at = pose(Vec3(0, 0, 0.5));
  IntersectionWorkspace w;
  for (const Part& part : parts) {
    const IntersectionProperties p =
        polytope_intersection_properties(*part.shape, pose(part.at), cube, at, w);
    ASSERT_FALSE(p.empty());
    EXPECT_LE((p.normal - part.push).norm(), 1e-12) << p.normal.transpose();
  }
  // The floor's slab: 1 x 1 x 0.001, its area the cube's base.
  const IntersectionProperties f =
      polytope_intersection_properties(floor, pose(parts[4].at), cube, at, w);
  EXPECT_NEAR(f.volume, 1e-3, 1e-15);
  EXPECT_NEAR(f.area, 1.0, 1e-12);
  // Across the normal the layer under the cube's base resists its tilting with tr P - P =
  // diag(1, 1) / 12 (the unit square's), the floor's the same; the slab's thin sides add terms
  // of the order of its depth (1e-3) cubed there.
  const Eigen::Matrix2d flat = Eigen::Matrix2d::Identity() / 12.0;
  EXPECT_LE((f.tilt_b.topLeftCorner<2, 2>() - flat).norm(), 1e-8);
  EXPECT_LE((f.tilt_a.topLeftCorner<2, 2>() - flat).norm(), 1e-8);
}

// The tilts: positive semi-definite always; a faceted cylinder on its side resists tilting
// about its axis with its facets' own tilts only (a smooth one, or a ball, not at all), and
// across its axis like the flat strip it stands on.
TEST(IntersectionProperties, RoundBodiesRollWithoutTiltingTheirLayer) {
  IntersectionWorkspace w;
  const Polytope a = make_box(1.0, 0.6, 0.8), b = make_cube(0.7);
  const IntersectionProperties turned = polytope_intersection_properties(
      a, pose(Vec3(0.1, -0.2, 0.0), Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()))), b,
      pose(Vec3(0.55, 0.1, 0.35), Quat(Eigen::AngleAxisd(1.1, Vec3(-2, 1, 1).normalized()))), w);
  for (const Mat3& T : {turned.tilt_a, turned.tilt_b}) {
    EXPECT_LE((T - T.transpose()).norm(), 1e-15);
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Mat3>(T).eigenvalues().minCoeff(), -1e-15);
  }
  // A 512-gon cylinder (R = 0.25, length 1) lying along y, sunk 1e-3: the chord is
  // 2 sqrt(2 R d) = 0.0447 wide and 1 long, about 2 (0.0447 / 2) / (2 pi R / 512) = 7 facets.
  const double R = 0.25, depth = 1e-3;
  const Polytope cylinder = make_cylinder(512, R, 1.0);
  const Quat lying(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitX()));
  const IntersectionProperties c = halfspace_polytope_intersection_properties(
      Vec3::Zero(), Vec3::UnitZ(), cylinder, pose(Vec3(0, 0, R - depth), lying), w);
  const double width = 2.0 * std::sqrt(2.0 * R * depth),
               facet = 2.0 * R * std::sin(std::numbers::pi / 512);
  // Across the axis (about x): the strip's 1^3 w / 12; about the axis (y): each facet's own
  // l^3 / 12, w / l of them, so w l^2 / 12, (l / w)^2 = 0.02 of the strip's w^3 / 12.
  EXPECT_NEAR(c.tilt_b(0, 0), width / 12.0, 0.05 * width / 12.0);
  EXPECT_NEAR(c.tilt_b(1, 1), width * facet * facet / 12.0, 0.3 * width * facet * facet / 12.0);
  EXPECT_LT(c.tilt_b(1, 1), 0.03 * width * width * width / 12.0);
  const IntersectionProperties ball =
      halfspace_sphere_intersection_properties(Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 0.9), 1.0);
  EXPECT_EQ(ball.tilt_b.norm(), 0.0);
}

// A face flush with both bodies (a block sunk into a slab whose +x and +y sides it is level
// with) counts for neither: moving B outwards empties the volume through it, inwards does not,
// and the normal takes the mean of the two rates, as central differences do.
TEST(IntersectionProperties, FacesFlushWithBothBodiesCountForNeither) {
  const Polytope a = make_box(2, 2, 1), b = make_cube(1.0);
  IntersectionWorkspace w;
  const BodyState pa = pose(Vec3::Zero()), pb = pose(Vec3(0.5, 0.5, 0.95));
  const IntersectionProperties p = polytope_intersection_properties(a, pa, b, pb, w);
  EXPECT_NEAR(p.volume, 0.05, 1e-14);
  EXPECT_LE((p.area * p.normal - Vec3(0.025, 0.025, 1.0)).norm(), 1e-14);
  EXPECT_LE((gradient_by_differences(a, pa, b, pb, 1e-6) + p.area * p.normal).norm(), 1e-9);
}

TEST(IntersectionProperties, ATiltedBoxInTheGround) {
  const Polytope b = make_box(0.8, 0.5, 0.3);
  const BodyState pb =
      pose(Vec3(0.2, 0.1, 0.12), Quat(Eigen::AngleAxisd(0.5, Vec3(1, -1, 0.3).normalized())));
  const Vec3 up = Vec3(0.1, 0.2, 1).normalized(), point(0, 0, 0.05);
  IntersectionWorkspace w;
  const IntersectionProperties p = halfspace_polytope_intersection_properties(point, up, b, pb, w);
  ASSERT_FALSE(p.empty());
  auto in_b = inside(b, pb);
  const IntersectionProperties counted =
      count([&](const Vec3& x) { return in_b(x) && up.dot(x - point) <= 0.0; }, p.centroid,
            Vec3::Constant(0.6), 2'000'000);
  expect_close(p, counted, 0.01);
  expect_physical_inertia(p.inertia);
  EXPECT_LE((p.normal - up).norm(), 1e-14);
  auto shifted = [&](double s) {
    BodyState moved = pb;
    moved.position += s * up;
    return halfspace_polytope_intersection_properties(point, up, b, moved, w).volume;
  };
  EXPECT_NEAR(area_by_difference(shifted, 1e-6), p.area, 1e-6 * p.area);
  // Wholly above the ground: nothing; wholly below: the box, and no face to leave by.
  EXPECT_TRUE(
      halfspace_polytope_intersection_properties(point, up, b, pose(Vec3(0, 0, 3)), w).empty());
  const IntersectionProperties buried =
      halfspace_polytope_intersection_properties(point, up, b, pose(Vec3(0, 0, -3)), w);
  EXPECT_NEAR(buried.volume, 0.8 * 0.5 * 0.3, 1e-14);
  EXPECT_EQ(buried.area, 0.0);
}

TEST(IntersectionProperties, SphereLensesAgreeWithTheClosedVolumeAndCountedPoints) {
  const Vec3 ca(0.1, -0.3, 0.2);
  // (r_A, r_B, d); the last with most of B inside A.
  const std::tuple<double, double, double> cases[] = {
      {1.0, 0.6, 1.3}, {0.6, 1.0, 1.3}, {0.7, 0.7, 0.9}, {1.0, 0.6, 0.6}};
  for (const auto& c : cases) {
    const double ra = std::get<0>(c), rb = std::get<1>(c), d = std::get<2>(c);
    const Vec3 e = Vec3(1, 2, -2) / 3.0, cb = ca + d * e;
    const IntersectionProperties p = sphere_intersection_properties(ca, ra, cb, rb);
    EXPECT_NEAR(p.volume, sphere_sphere_overlap_volume(ra, rb, d), 1e-14);
    const IntersectionProperties counted =
        count([&](const Vec3& x) { return (x - ca).norm() <= ra && (x - cb).norm() <= rb; },
              p.centroid, Vec3::Constant(1.0), 2'000'000);
    expect_close(p, counted, 0.01);
    expect_physical_inertia(p.inertia);
    EXPECT_LE((p.normal - e).norm(), 1e-15);
    auto shifted = [&](double s) {
      return sphere_intersection_properties(ca, ra, cb + s * e, rb).volume;
    };
    EXPECT_NEAR(area_by_difference(shifted, 1e-6), p.area, 1e-7 * p.area);
  }
}

// A thin lens of depth s between unit balls: V = pi s^2 / 2 + O(s^3), its centroid midway, its
// moment about the axis V a^2 / 3 with a^2 = s (its rim radius squared, to first order), and
// all of them accurate to the last digits where the centre-based cap formulas lose them.
TEST(IntersectionProperties, ThinLensesKeepTheirDigits) {
  const double s = 1e-9;
  const IntersectionProperties p =
      sphere_intersection_properties(Vec3::Zero(), 1.0, Vec3(2.0 - s, 0, 0), 1.0);
  EXPECT_NEAR(p.volume, std::numbers::pi * s * s / 2.0, 1e-6 * p.volume);
  EXPECT_NEAR(p.centroid.x(), 1.0 - s / 2.0, 1e-15);
  // Two paraboloid caps of height s/2 and rim radius^2 a^2 = s: int r^2 dV = V a^2 / 3.
  EXPECT_NEAR(p.inertia(0, 0), p.volume * s / 3.0, 1e-5 * p.volume * s);
  EXPECT_NEAR(p.area, std::numbers::pi * s, 1e-6 * std::numbers::pi * s);
  EXPECT_GT(p.inertia(1, 1), 0.5 * p.inertia(0, 0));
}

TEST(IntersectionProperties, ASphereInTheGround) {
  const Vec3 up = Vec3(0.3, -0.2, 1).normalized(), point(0.1, 0.1, 0.0);
  for (double height : {0.7, 0.0, -0.6}) {
    const Vec3 centre = point + height * up + 0.3 * any_perpendicular(up);
    const IntersectionProperties p =
        halfspace_sphere_intersection_properties(point, up, centre, 1.0);
    EXPECT_NEAR(p.volume, sphere_halfspace_overlap_volume(1.0, height), 1e-14);
    const IntersectionProperties counted =
        count([&](const Vec3& x) { return (x - centre).norm() <= 1.0 && up.dot(x - point) <= 0.0; },
              p.centroid, Vec3::Constant(1.0), 2'000'000);
    expect_close(p, counted, 0.01);
    EXPECT_LE((p.normal - up).norm(), 1e-15);
    const double h = 1.0 - height;
    EXPECT_NEAR(p.area, std::numbers::pi * h * (2.0 - h), 1e-14);
  }
  // The cap's centroid depth below the plane, h (4r - h) / (4 (3r - h)): the half ball's 3r/8.
  const IntersectionProperties half =
      halfspace_sphere_intersection_properties(point, up, point, 1.0);
  EXPECT_NEAR(up.dot(point - half.centroid), 3.0 / 8.0, 1e-15);
  EXPECT_TRUE(halfspace_sphere_intersection_properties(point, up, point + 1.5 * up, 1.0).empty());
  const IntersectionProperties buried =
      halfspace_sphere_intersection_properties(point, up, point - 2.0 * up, 1.0);
  EXPECT_NEAR(buried.volume, 4.0 / 3.0 * std::numbers::pi, 1e-14);
  EXPECT_NEAR(buried.inertia(0, 0), 0.4 * buried.volume, 1e-14);
  EXPECT_EQ(buried.area, 0.0);
}

TEST(IntersectionProperties, ABallInsideAnotherIsTheSmallBall) {
  const IntersectionProperties p =
      sphere_intersection_properties(Vec3::Zero(), 1.0, Vec3(0.2, 0, 0), 0.5);
  EXPECT_NEAR(p.volume, 4.0 / 3.0 * std::numbers::pi * 0.125, 1e-15);
  EXPECT_EQ(p.centroid, Vec3(0.2, 0, 0));
  EXPECT_EQ(p.area, 0.0);
  EXPECT_TRUE(sphere_intersection_properties(Vec3::Zero(), 1.0, Vec3(2.5, 0, 0), 0.5).empty());
}

}  // namespace
}  // namespace pegsim
