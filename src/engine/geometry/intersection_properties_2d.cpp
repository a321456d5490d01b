#include "engine/geometry/intersection_properties_2d.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numbers>

#include "engine/geometry/axial_pieces.hpp"
#include "engine/geometry/gauss_legendre.hpp"
#include "engine/geometry/mass_properties.hpp"
#include "engine/geometry/polygon_overlap.hpp"

namespace pegsim {
namespace {

constexpr double kRelativeTolerance = 1e-12;
constexpr double kNormalTolerance = 1e-9;

Vec3 lift(const Vec2& v) {
  return Vec3(v.x(), v.y(), 0.0);
}

// The outward edge lines of a counter-clockwise outline: edge i's direction turned by -pi/2.
void edge_lines(const std::vector<Vec2>& outline, std::vector<EdgeLine>& out) {
  out.clear();
  for (std::size_t i = 0; i < outline.size(); ++i) {
    const Vec2 e = outline[(i + 1) % outline.size()] - outline[i];
    const double length = e.norm();
    if (!(length > 0.0)) continue;
    const Vec2 n = Vec2(e.y(), -e.x()) / length;
    out.push_back({n, n.dot(outline[i])});
  }
}

bool on_some_line(const std::vector<EdgeLine>& lines, const Vec2& normal, const Vec2& x,
                  double tolerance) {
  for (const EdgeLine& l : lines)
    if ((l.normal - normal).squaredNorm() <= kNormalTolerance * kNormalTolerance &&
        std::abs(l.normal.dot(x) - l.offset) <= tolerance)
      return true;
  return false;
}

double scale_of(const std::vector<Vec2>& outline) {
  double r = 1.0;
  for (const Vec2& v : outline) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// Area, centroid and inertia of the common outline; the normal, length and tilts from its edges
// on A's lines and on B's, as the faces in 3D (intersection_properties.hpp): an edge of length
// l tilts with int s^2 ds = l^3 / 12 about its midpoint.
IntersectionProperties outline_properties(const std::vector<Vec2>& common,
                                          const std::vector<EdgeLine>& a,
                                          const std::vector<EdgeLine>& b, double tolerance,
                                          const Vec2& away, std::vector<signed char>& side) {
  IntersectionProperties out;
  if (common.size() < 3 || !(polygon_area(common) > 0.0)) return out;
  const MassProperties m = outline_mass_properties(common);
  out.volume = m.volume;
  out.centroid = m.centroid;
  out.inertia = m.inertia;
  side.assign(common.size(), 0);  // +1 on A only, -1 on B only
  Vec2 on_a = Vec2::Zero(), on_b = Vec2::Zero();
  for (std::size_t i = 0; i < common.size(); ++i) {
    const Vec2 e = common[(i + 1) % common.size()] - common[i];
    const double length = e.norm();
    if (!(length > 0.0)) continue;
    const Vec2 n = Vec2(e.y(), -e.x()) / length;
    const bool in_a = on_some_line(a, n, common[i], tolerance);
    const bool in_b = on_some_line(b, n, common[i], tolerance);
    if (in_a == in_b) continue;
    side[i] = in_a ? 1 : -1;
    (in_a ? on_a : on_b) += length * n;
    (in_a ? out.tilt_a : out.tilt_b)(2, 2) += length * length * length / 12.0;
  }
  const Vec2 gradient = 0.5 * (on_a - on_b);
  out.area = gradient.norm();
  const Vec2 n = out.area > 0.0 ? Vec2(gradient / out.area) : away;
  out.normal = lift(n);
  return out;
}

Vec2 unit_or_x(const Vec2& v) {
  const double n = v.norm();
  return n > 0.0 ? Vec2(v / n) : Vec2::UnitX();
}

// A circular segment of height h on a disc of radius r, measured along its axis from its
// chord. The half-width w(u) = sqrt((h - u)(2r - h + u)) has a square-root end at u = h; with
// u = h (1 - s^2) every integrand is smooth in s and Gauss-Legendre is exact to rounding for
// h <= r, without the difference of near-equal sector and triangle areas that the closed forms
// take on thin segments. A segment over half the disc is the disc minus the other one.
AxialPiece circular_segment(double h, double r) {
  h = std::clamp(h, 0.0, 2.0 * r);
  if (!(h > 0.0)) return {};
  if (h > r) {
    const AxialPiece rest = circular_segment(2.0 * r - h, r);
    const double disc = std::numbers::pi * r * r, centre = h - r;  // the disc's centroid height
    AxialPiece s;
    s.size = disc - rest.size;
    const double moment = disc * centre + rest.size * rest.height;  // the rest lies at -height
    s.height = moment / s.size;
    const double second = disc * (r * r / 4.0 + centre * centre) -
                          rest.size * (rest.variance + rest.height * rest.height);
    s.variance = second / s.size - s.height * s.height;
    s.lateral = disc * r * r / 4.0 - rest.lateral;
    return s;
  }
  static const GaussLegendre<16> q;
  double area = 0.0, first = 0.0, second = 0.0, lateral = 0.0;
  for (int i = 0; i < q.n; ++i) {
    const double s = q.nodes[std::size_t(i)], u = h * (1.0 - s * s);
    const double w = s * std::sqrt(h * (2.0 * r - h * s * s));
    const double du = q.weights[std::size_t(i)] * 2.0 * h * s;
    area += du * 2.0 * w;
    first += du * 2.0 * w * u;
    second += du * 2.0 * w * u * u;
    lateral += du * 2.0 * w * w * w / 3.0;
  }
  AxialPiece out;
  out.size = area;
  out.height = first / area;
  out.variance = std::max(0.0, second / area - out.height * out.height);
  out.lateral = lateral;
  return out;
}

// Pieces on one axis e through `base`, summed into `out`.
void add_segments(std::initializer_list<PlacedPiece> pieces, const Vec2& base, const Vec2& e,
                  IntersectionProperties& out) {
  const AxialSum sum = add_pieces(pieces);
  out.volume = sum.size;
  out.centroid = lift(base + sum.at * e);
  // int (x - c)(x - c)^T = axial e e^T + lateral e' e'^T; the lamina's I_xx = int y^2 etc.
  const Vec2 across(-e.y(), e.x());
  const Eigen::Matrix2d spread =
      sum.axial * e * e.transpose() + sum.lateral * across * across.transpose();
  out.inertia << spread(1, 1), -spread(0, 1), 0.0, -spread(0, 1), spread(0, 0), 0.0, 0.0, 0.0,
      spread.trace();
}

}  // namespace

IntersectionProperties polygon_intersection_properties(const std::vector<Vec2>& a,
                                                       const std::vector<Vec2>& b,
                                                       IntersectionWorkspace& w) {
  polygon_intersection(b, a, w.common, w.scratch);
  Vec2 ca = Vec2::Zero(), cb = Vec2::Zero();
  for (const Vec2& v : a) ca += v / double(a.size());
  for (const Vec2& v : b) cb += v / double(b.size());
  edge_lines(a, w.lines_a);
  edge_lines(b, w.lines_b);
  return outline_properties(w.common, w.lines_a, w.lines_b,
                            kRelativeTolerance * std::max(scale_of(a), scale_of(b)),
                            unit_or_x(cb - ca), w.side);
}

IntersectionProperties halfplane_polygon_intersection_properties(const Vec2& point,
                                                                 const Vec2& normal,
                                                                 const std::vector<Vec2>& b,
                                                                 IntersectionWorkspace& w) {
  // The half-plane is the left of the line through `point` along (-n_y, n_x).
  clip_polygon_left(b, point, point + Vec2(-normal.y(), normal.x()), w.common);
  w.lines_a.assign(1, {normal, normal.dot(point)});
  edge_lines(b, w.lines_b);
  return outline_properties(w.common, w.lines_a, w.lines_b, kRelativeTolerance * scale_of(b),
                            normal, w.side);
}

IntersectionProperties disc_intersection_properties(const Vec2& a_centre, double a_radius,
                                                    const Vec2& b_centre, double b_radius) {
  IntersectionProperties out;
  const Vec2 between = b_centre - a_centre;
  const double d = between.norm();
  const double depth = a_radius + b_radius - d;
  if (!(depth > 0.0)) return out;
  const Vec2 e = unit_or_x(between);
  out.normal = lift(e);
  if (d <= std::abs(a_radius - b_radius)) {  // the smaller disc inside the other
    const double r = std::min(a_radius, b_radius);
    const MassProperties disc = circle_mass_properties(r);
    out.volume = disc.volume;
    out.centroid = lift(a_radius < b_radius ? a_centre : b_centre);
    out.inertia = disc.inertia;
    return out;
  }
  // The radical line cuts the lens into a segment of A (on B's side) and one of B, heights as
  // for the balls' caps.
  const double h_a = depth * (b_radius - a_radius + d) / (2.0 * d);
  const double h_b = depth * (a_radius - b_radius + d) / (2.0 * d);
  const AxialPiece sa = circular_segment(h_a, a_radius), sb = circular_segment(h_b, b_radius);
  add_segments({{sa, sa.height}, {sb, -sb.height}}, a_centre + (a_radius - h_a) * e, e, out);
  out.area = 2.0 * std::sqrt(h_a * (2.0 * a_radius - h_a));  // the common chord
  return out;
}

IntersectionProperties polygon_disc_intersection_properties(const std::vector<Vec2>& a,
                                                            const Vec2& centre, double radius,
                                                            IntersectionWorkspace& w) {
  IntersectionProperties out;
  w.common.clear();
  Vec2 mean = Vec2::Zero();
  for (const Vec2& v : a) {
    w.common.push_back(v - centre);
    mean += v / double(a.size());
  }
  const DiscRegion d = disc_polygon_region(w.common, radius, w.pieces);
  if (!(d.area > 0.0)) return out;
  const Vec2 c = d.first / d.area;
  const Mat2 s = d.second - d.area * c * c.transpose();
  out.volume = d.area;
  out.centroid = lift(centre + c);
  out.inertia << s(1, 1), -s(0, 1), 0.0, -s(0, 1), s(0, 0), 0.0, 0.0, 0.0, s.trace();
  // A's edges inside the disc; the disc's arcs add no tilt (outline_properties).
  Vec2 gradient = Vec2::Zero();
  for (const EdgePiece& e : w.pieces) {
    const Vec2 along = w.common[std::size_t(e.edge + 1) % a.size()] - w.common[std::size_t(e.edge)];
    const double length = (e.to - e.from).norm();
    gradient += length * Vec2(along.y(), -along.x()).normalized();
    out.tilt_a(2, 2) += length * length * length / 12.0;
  }
  out.area = gradient.norm();
  out.normal = lift(out.area > 0.0 ? Vec2(gradient / out.area) : unit_or_x(centre - mean));
  return out;
}

IntersectionProperties halfplane_disc_intersection_properties(const Vec2& point, const Vec2& normal,
                                                              const Vec2& centre, double radius) {
  IntersectionProperties out;
  const double height = normal.dot(centre - point);
  const double h = std::min(radius - height, 2.0 * radius);
  if (!(h > 0.0)) return out;
  out.normal = lift(normal);
  const AxialPiece s = circular_segment(h, radius);
  add_segments({{s, s.height}}, centre - height * normal, -normal, out);
  out.area = 2.0 * std::sqrt(h * (2.0 * radius - h));
  return out;
}

}  // namespace pegsim
