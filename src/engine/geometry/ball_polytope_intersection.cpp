// The common volume of a ball and a convex polytope (intersection_properties.hpp).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/geometry/gauss_legendre.hpp"
#include "engine/geometry/intersection_properties.hpp"

namespace pegsim {
namespace {

// Sutherland-Hodgman: the part of the convex polygon `in` where alpha . x <= rhs.
void clip(const std::vector<Vec2>& in, const Vec2& alpha, double rhs, std::vector<Vec2>& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    const Vec2 &p = in[i], &q = in[(i + 1) % in.size()];
    const double fp = alpha.dot(p) - rhs, fq = alpha.dot(q) - rhs;
    if (fp <= 0.0) out.push_back(p);
    if ((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0))
      out.push_back(p + fp / (fp - fq) * (q - p));
  }
}

// The ball's slice at height t along e (a disc of radius rho about its axis, in the frame
// (t1, t2)) cut by the polytope's face planes: the polygon starts as the square round the disc.
// False when a face parallel to the slice leaves nothing.
bool slice_polygon(const std::vector<FacePlane>& planes, const Vec3& centre, const Vec3& e,
                   const Vec3& t1, const Vec3& t2, double t, double rho, IntersectionWorkspace& w) {
  w.slice.assign({{-rho, -rho}, {rho, -rho}, {rho, rho}, {-rho, rho}});
  for (const FacePlane& p : planes) {
    const Vec2 alpha(p.normal.dot(t1), p.normal.dot(t2));
    const double rhs = p.offset - p.normal.dot(centre) - t * p.normal.dot(e);
    if (alpha.squaredNorm() <= 1e-24) {
      if (rhs < 0.0) return false;
      continue;
    }
    clip(w.slice, alpha, rhs, w.clipped);
    std::swap(w.slice, w.clipped);
    if (w.slice.size() < 3) return false;
  }
  return true;
}

}  // namespace

IntersectionProperties polytope_sphere_intersection_properties(const Polytope& a,
                                                               const BodyState& a_pose,
                                                               const Vec3& centre, double radius,
                                                               IntersectionWorkspace& w) {
  IntersectionProperties out;
  posed_planes(a, a_pose, w.planes_a);
  const Vec3 away = unit_or_z(centre - a_pose.position);
  bool ball_inside = true;
  for (const FacePlane& p : w.planes_a) {
    const double h = p.normal.dot(centre) - p.offset;  // the centre's height over the face
    if (h >= radius) return out;                       // wholly beyond this face
    ball_inside &= h <= -radius;
  }
  if (ball_inside) {
    out.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
    out.centroid = centre;
    out.inertia = 0.4 * out.volume * radius * radius * Mat3::Identity();
    out.normal = away;
    return out;
  }
  const Mat3 rotation = a_pose.orientation.toRotationMatrix();
  w.points.clear();
  bool polytope_inside = true;
  for (const Vec3& v : a.vertices) {
    w.points.push_back(a_pose.position + rotation * v);
    polytope_inside &= (w.points.back() - centre).squaredNorm() <= radius * radius;
  }
  if (polytope_inside) {
    place_solid(a, a_pose, w.solids.other);
    const SolidMoments m = solid_moments(w.solids.other, centre);
    const Vec3 c = m.first / m.volume;
    const Mat3 spread = m.second - m.volume * c * c.transpose();
    out.volume = m.volume;
    out.centroid = centre + c;
    out.inertia = spread.trace() * Mat3::Identity() - spread;
    out.normal = away;
    return out;
  }

  // A's faces inside the ball: face k's polygon cut by the disc of radius rho_k about the foot
  // of the centre on its plane, in a frame (u1, u2) with u1 x u2 = n (the face's vertices run
  // counter-clockwise there).
  Vec3 gradient = Vec3::Zero();
  w.breakpoints.clear();
  for (std::size_t k = 0; k < a.faces.size(); ++k) {
    const FacePlane& p = w.planes_a[k];
    const double h = p.normal.dot(centre) - p.offset;
    if (h <= -radius) continue;
    const double rho = std::sqrt((radius - h) * (radius + h));
    const Vec3 foot = centre - h * p.normal;
    const Vec3 u1 = any_perpendicular(p.normal), u2 = p.normal.cross(u1);
    w.slice.clear();
    for (int v : a.faces[k].vertices) {
      const Vec3 x = w.points[std::size_t(v)] - foot;
      w.slice.emplace_back(x.dot(u1), x.dot(u2));
    }
    const DiscRegion d = disc_polygon_region(w.slice, rho, w.pieces);
    if (!(d.area > 0.0)) continue;
    gradient += d.area * p.normal;
    // int (y x n)(y x n)^T dA about the piece's centroid (IntersectionProperties::tilt_a).
    Eigen::Matrix<double, 3, 2> frame;
    frame << u1, u2;
    const Mat2 spread = d.second - d.first * d.first.transpose() / d.area;
    const Mat3 n = skew(p.normal);
    out.tilt_a += n * (frame * spread * frame.transpose()) * n.transpose();
    for (const EdgePiece& e : w.pieces)  // the edges' ends on the sphere, and vertices inside
      for (const Vec2& x : {e.from, e.to}) w.breakpoints.push_back(foot + x.x() * u1 + x.y() * u2);
  }
  out.area = gradient.norm();
  const Vec3 e = out.area > 0.0 ? Vec3(gradient / out.area) : away;
  out.normal = e;
  out.spin_radius = 2.0 / 3.0 * std::sqrt(out.area / std::numbers::pi);

  // Heights along e (from the centre) where a slice's shape changes: A's vertices, the edges'
  // crossings of the sphere, and each cut face's circle at its highest and lowest.
  double low = radius, high = -radius;
  for (const Vec3& v : w.points) {
    low = std::min(low, e.dot(v - centre));
    high = std::max(high, e.dot(v - centre));
  }
  low = std::max(low, -radius);
  high = std::min(high, radius);
  if (!(high > low)) return IntersectionProperties{};
  w.heights.assign({low, high});
  auto keep = [&](double t) {
    if (t > low && t < high) w.heights.push_back(t);
  };
  for (const Vec3& v : w.points) keep(e.dot(v - centre));
  for (const Vec3& x : w.breakpoints) keep(e.dot(x - centre));
  for (const FacePlane& p : w.planes_a) {
    const double h = p.normal.dot(centre) - p.offset;
    if (h <= -radius) continue;
    const double rho = std::sqrt((radius - h) * (radius + h)), c = p.normal.dot(e);
    const double across = rho * std::sqrt(std::max(0.0, 1.0 - c * c));
    keep(-h * c - across);
    keep(-h * c + across);
  }
  std::sort(w.heights.begin(), w.heights.end());

  // Between two heights, t = t0 + (t1 - t0)(1 - cos s) / 2 maps the square-root ends (a slice's
  // circle touching an edge, the ball's poles) away, and the slices' moments are smooth in s.
  static const GaussLegendre<16> q;
  const Vec3 t1 = any_perpendicular(e), t2 = e.cross(t1);
  Eigen::Matrix<double, 3, 2> frame;
  frame << t1, t2;
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // about the centre
  for (std::size_t i = 0; i + 1 < w.heights.size(); ++i) {
    const double t0 = w.heights[i], span = w.heights[i + 1] - t0;
    if (!(span > 0.0)) continue;
    for (int j = 0; j < q.n; ++j) {
      const double s = std::numbers::pi * q.nodes[std::size_t(j)];
      const double t = t0 + 0.5 * span * (1.0 - std::cos(s));
      const double dt = 0.5 * span * std::sin(s) * std::numbers::pi * q.weights[std::size_t(j)];
      const double rho2 = (radius - t) * (radius + t);
      if (!(rho2 > 0.0)) continue;
      const double rho = std::sqrt(rho2);
      if (!slice_polygon(w.planes_a, centre, e, t1, t2, t, rho, w)) continue;
      const DiscRegion d = disc_polygon_region(w.slice, rho, w.pieces);
      if (!(d.area > 0.0)) continue;
      const Vec3 m = frame * d.first;
      volume += dt * d.area;
      first += dt * (d.area * t * e + m);
      second +=
          dt * (d.area * t * t * e * e.transpose() + t * (e * m.transpose() + m * e.transpose()) +
                frame * d.second * frame.transpose());
    }
  }
  if (!(volume > 0.0)) return IntersectionProperties{};
  const Vec3 c = first / volume;
  const Mat3 spread = second - volume * c * c.transpose();
  out.volume = volume;
  out.centroid = centre + c;
  out.inertia = spread.trace() * Mat3::Identity() - spread;
  return out;
}

}  // namespace pegsim
