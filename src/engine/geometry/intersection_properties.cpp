#include "engine/geometry/intersection_properties.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numbers>
#include <span>
#include <vector>

#include "engine/geometry/axial_pieces.hpp"

namespace pegsim {
namespace {

// Coordinates this much smaller than the solid's size (relative) are rounding noise.
constexpr double kRelativeTolerance = 1e-12;
// Unit normals closer than this are the same plane's.
constexpr double kNormalTolerance = 1e-9;

// The largest coordinate of a solid, at least 1: the scale of its rounding.
double scale_of(const ConvexSolid& s) {
  double r = 1.0;
  for (const Vec3& v : s.points) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// Whether a face of normal `normal` through x lies on one of `planes`, searched from `next` on
// (wrapping round); `next` becomes the plane after the one found. Clipping keeps a solid's
// surviving faces in their order, so the next face's plane is usually the next one searched.
bool on_some_plane(const std::vector<FacePlane>& planes, const Vec3& normal, const Vec3& x,
                   double tolerance, std::size_t& next) {
  const std::size_t n = planes.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = (next + i) % n;
    const FacePlane& p = planes[j];
    if ((p.normal - normal).squaredNorm() <= kNormalTolerance * kNormalTolerance &&
        std::abs(p.normal.dot(x) - p.offset) <= tolerance) {
      next = j + 1;
      return true;
    }
  }
  return false;
}

// Area vector of a planar polygon: half the sum of the fan's cross products.
Vec3 area_vector(std::span<const Vec3> f) {
  Vec3 s = Vec3::Zero();
  for (std::size_t i = 1; i + 1 < f.size(); ++i) s += (f[i] - f[0]).cross(f[i + 1] - f[0]);
  return 0.5 * s;
}

// int |r| dA over the triangle (0, p, q), signed by its turn (positive counter-clockwise). In
// polar coordinates about 0 it is (d / 3) int rho ds along the edge, d the edge line's signed
// distance from 0, s the position along it from the foot of the perpendicular and
// rho = sqrt(d^2 + s^2).
double triangle_polar_moment(const Vec2& p, const Vec2& q) {
  const double length = (q - p).norm();
  if (!(length > 0.0)) return 0.0;
  const Vec2 e = (q - p) / length;
  const double d = p.x() * e.y() - p.y() * e.x();
  if (d == 0.0) return 0.0;
  auto primitive = [&](const Vec2& x) {  // 2 int rho ds
    const double s = x.dot(e);
    return s * x.norm() + d * d * std::asinh(s / std::abs(d));
  };
  return d / 6.0 * (primitive(q) - primitive(p));
}

// int (y x nu)(y x nu)^T dA = [nu]x Y [nu]x^T over one planar face, y from its centroid
// (IntersectionProperties::tilt_a), Y = int y y^T dA by its fan's triangles from the first
// vertex: int x x^T = A/12 (sum x_i x_i^T + (sum x_i)(sum x_i)^T), int x = A/3 sum x_i.
Mat3 face_tilt(std::span<const Vec3> f, const Vec3& nu) {
  Mat3 second = Mat3::Zero();
  Vec3 first = Vec3::Zero();
  double area = 0.0;
  for (std::size_t i = 1; i + 1 < f.size(); ++i) {
    const Vec3 x1 = f[i] - f[0], x2 = f[i + 1] - f[0], sum = x1 + x2;
    const double a = 0.5 * nu.dot(x1.cross(x2));
    second += a / 12.0 * (x1 * x1.transpose() + x2 * x2.transpose() + sum * sum.transpose());
    first += a / 3.0 * sum;
    area += a;
  }
  if (!(area > 0.0)) return Mat3::Zero();
  const Mat3 Y = second - first * first.transpose() / area;  // about the face's centroid
  const Mat3 n = skew(nu);
  return n * Y * n.transpose();
}

// Volume, centroid and inertia of the solid `common`; the normal, area and tilts from its faces
// on A's planes and on B's (see the header). `away` is the normal when no face says (a solid
// inside the other body).
IntersectionProperties solid_properties(const ConvexSolid& common, const std::vector<FacePlane>& a,
                                        const std::vector<FacePlane>& b, double tolerance,
                                        const Vec3& away, std::vector<signed char>& side) {
  IntersectionProperties out;
  if (common.empty()) return out;
  const Vec3 o = common.points.front();
  const SolidMoments m = solid_moments(common, o);
  if (!(m.volume > 0.0)) return out;
  const Vec3 c = m.first / m.volume;
  const Mat3 spread = m.second - m.volume * c * c.transpose();  // int (x - c)(x - c)^T
  out.volume = m.volume;
  out.centroid = o + c;
  out.inertia = spread.trace() * Mat3::Identity() - spread;
  side.assign(std::size_t(common.face_count()), 0);  // +1 on A only, -1 on B only
  Vec3 on_a = Vec3::Zero(), on_b = Vec3::Zero();
  std::size_t next_a = 0, next_b = 0;
  for (int k = 0; k < common.face_count(); ++k) {
    const std::span<const Vec3> f = common.face(k);
    const Vec3& n = common.normals[k];
    const bool in_a = on_some_plane(a, n, f.front(), tolerance, next_a);
    const bool in_b = on_some_plane(b, n, f.front(), tolerance, next_b);
    if (in_a == in_b) continue;  // flush with both surfaces (or rounding): moves V on neither side
    side[std::size_t(k)] = in_a ? 1 : -1;
    (in_a ? on_a : on_b) += area_vector(f);
    (in_a ? out.tilt_a : out.tilt_b) += face_tilt(f, n);
  }
  // -dV/dd for B moved by d n / 2 and A by -d n / 2: n . (on_a - on_b) / 2.
  const Vec3 gradient = 0.5 * (on_a - on_b);
  out.area = gradient.norm();
  out.normal = out.area > 0.0 ? Vec3(gradient / out.area) : away;
  // The patch: each face seen along the normal, its signed fan of triangles about the
  // centroid's axis (A's faces inside B face +n, B's inside A face -n), the two sides averaged.
  const Vec3 t1 = any_perpendicular(out.normal), t2 = out.normal.cross(t1);
  double patch_area = 0.0, polar = 0.0;  // int dA, int |r| dA
  for (int k = 0; k < common.face_count(); ++k) {
    if (side[std::size_t(k)] == 0) continue;
    // A face along the normal (a side of a thin slab) projects to a line: nothing.
    if (std::abs(common.normals[k].dot(out.normal)) <= kNormalTolerance) continue;
    const std::span<const Vec3> f = common.face(k);
    const double mean = 0.5 * side[std::size_t(k)];  // half: the two sides averaged
    for (std::size_t i = 0; i < f.size(); ++i) {
      const Vec3 p = f[i] - out.centroid, q = f[(i + 1) % f.size()] - out.centroid;
      const Vec2 p2(p.dot(t1), p.dot(t2)), q2(q.dot(t1), q.dot(t2));
      patch_area += 0.5 * mean * (p2.x() * q2.y() - q2.x() * p2.y());
      polar += mean * triangle_polar_moment(p2, q2);
    }
  }
  out.spin_radius = patch_area > 0.0 ? std::max(polar / patch_area, 0.0) : 0.0;
  return out;
}

// A spherical cap of height h on a ball of radius r, measured along its axis from its base
// plane. Integrated in the height above the base, where every term is a product of h with
// positive factors: no digits are lost when h << r (the thesis' (4.19)-(4.23) measure from the
// ball's centre and subtract numbers of size r^2 to move to the cap).
AxialPiece spherical_cap(double h, double r) {
  h = std::clamp(h, 0.0, 2.0 * r);
  const double pi = std::numbers::pi, w = 3.0 * r - h;
  AxialPiece c;
  c.size = pi * h * h * w / 3.0;
  c.height = h * (4.0 * r - h) / (4.0 * w);
  c.variance = h * h * (40.0 * r * r - 24.0 * r * h + 3.0 * h * h) / (80.0 * w * w);
  c.lateral = pi * h * h * h * (20.0 * r * r - 15.0 * r * h + 3.0 * h * h) / 60.0;
  return c;
}

// Pieces on one axis e through `base`, summed into `out`.
void add_caps(std::initializer_list<PlacedPiece> caps, const Vec3& base, const Vec3& e,
              IntersectionProperties& out) {
  const AxialSum sum = add_pieces(caps);
  out.volume = sum.size;
  out.centroid = base + sum.at * e;
  const Mat3 along = e * e.transpose();
  out.inertia = 2.0 * sum.lateral * along + (sum.lateral + sum.axial) * (Mat3::Identity() - along);
}

// A disc patch of area A = pi a^2: int |r| dA / A = 2 a / 3.
double rim_spin_radius(double area) {
  return 2.0 / 3.0 * std::sqrt(area / std::numbers::pi);
}

}  // namespace

void posed_planes(const Polytope& p, const BodyState& pose, std::vector<FacePlane>& out) {
  out.clear();
  const Mat3 r = pose.orientation.toRotationMatrix();
  for (const Polytope::Face& f : p.faces) {
    const Vec3 n = r * f.normal;
    out.push_back({n, f.offset + n.dot(pose.position)});
  }
}

IntersectionProperties polytope_intersection_properties(const Polytope& a, const BodyState& a_pose,
                                                        const Polytope& b, const BodyState& b_pose,
                                                        IntersectionWorkspace& w) {
  // polytope_intersection clips its first solid by the second's planes.
  const ConvexSolid& common = polytope_intersection(b, b_pose, a, a_pose, w.solids);
  posed_planes(a, a_pose, w.planes_a);
  posed_planes(b, b_pose, w.planes_b);
  return solid_properties(common, w.planes_a, w.planes_b,
                          kRelativeTolerance * scale_of(w.solids.other),
                          unit_or_z(b_pose.position - a_pose.position), w.side);
}

IntersectionProperties halfspace_polytope_intersection_properties(const Vec3& point,
                                                                  const Vec3& normal,
                                                                  const Polytope& b,
                                                                  const BodyState& b_pose,
                                                                  IntersectionWorkspace& w) {
  SolidWorkspace& s = w.solids;
  place_solid(b, b_pose, s.other);
  const double tolerance = kRelativeTolerance * scale_of(s.other);
  clip_solid(s.other, normal, normal.dot(point), tolerance, s.common, s.cap);
  w.planes_a.assign(1, {normal, normal.dot(point)});
  posed_planes(b, b_pose, w.planes_b);
  return solid_properties(s.common, w.planes_a, w.planes_b, tolerance, normal, w.side);
}

IntersectionProperties sphere_intersection_properties(const Vec3& a_centre, double a_radius,
                                                      const Vec3& b_centre, double b_radius) {
  IntersectionProperties out;
  const Vec3 between = b_centre - a_centre;
  const double d = between.norm();
  const double depth = a_radius + b_radius - d;  // along the centres
  if (!(depth > 0.0)) return out;
  out.normal = unit_or_z(between);
  if (d <= std::abs(a_radius - b_radius)) {  // the smaller ball inside the other
    const double r = std::min(a_radius, b_radius);
    out.volume = 4.0 / 3.0 * std::numbers::pi * r * r * r;
    out.centroid = a_radius < b_radius ? a_centre : b_centre;
    out.inertia = 0.4 * out.volume * r * r * Mat3::Identity();
    return out;
  }
  // The radical plane cuts the lens into a cap of A (on B's side) and one of B; their heights,
  // from (4.12)-(4.13) as h_A = r_A - d_A, written without the difference of squares.
  const double h_a = depth * (b_radius - a_radius + d) / (2.0 * d);
  const double h_b = depth * (a_radius - b_radius + d) / (2.0 * d);
  const AxialPiece cap_a = spherical_cap(h_a, a_radius), cap_b = spherical_cap(h_b, b_radius);
  const Vec3 base = a_centre + (a_radius - h_a) * out.normal;
  add_caps({{cap_a, cap_a.height}, {cap_b, -cap_b.height}}, base, out.normal, out);
  out.area = std::numbers::pi * h_a * (2.0 * a_radius - h_a);  // the lens' rim circle
  out.spin_radius = rim_spin_radius(out.area);
  return out;
}

IntersectionProperties halfspace_sphere_intersection_properties(const Vec3& point,
                                                                const Vec3& normal,
                                                                const Vec3& centre, double radius) {
  IntersectionProperties out;
  const double height = normal.dot(centre - point);
  const double h = std::min(radius - height, 2.0 * radius);
  if (!(h > 0.0)) return out;
  out.normal = normal;
  const AxialPiece cap = spherical_cap(h, radius);
  add_caps({{cap, cap.height}}, centre - height * normal, -normal, out);
  out.area = std::numbers::pi * h * (2.0 * radius - h);
  out.spin_radius = rim_spin_radius(out.area);
  return out;
}

}  // namespace pegsim
