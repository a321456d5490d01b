#include "engine/geometry/polytope_overlap.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

// Coordinates this much smaller than the solid's size (relative) are rounding noise.
constexpr double kRelativeTolerance = 1e-12;

double scale_of(const ConvexSolid& s) {
  double r = 1.0;
  for (const Vec3& v : s.points) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// A number in [0, 4) that grows with the angle of (x, y) from +x, counter-clockwise: the
// position along the unit diamond |x| + |y| = 1, ordered as atan2 would, without its cost.
double pseudo_angle(double x, double y) {
  const double r = std::abs(x) + std::abs(y);
  if (!(r > 0.0)) return 0.0;
  const double p = y / r;  // in [-1, 1]
  return x >= 0.0 ? (y >= 0.0 ? p : 4.0 + p) : 2.0 - p;
}

// The cap: the points of the cut, in counter-clockwise order seen from +normal (outside the
// clipped solid), duplicates merged in place.
void order_cap(std::vector<Vec3>& points, const Vec3& normal, double tolerance) {
  if (points.size() < 3) return;
  Vec3 centre = Vec3::Zero();
  for (const Vec3& p : points) centre += p;
  centre /= static_cast<double>(points.size());
  const Vec3 t1 = any_perpendicular(normal), t2 = normal.cross(t1);
  std::sort(points.begin(), points.end(), [&](const Vec3& a, const Vec3& b) {
    const Vec3 da = a - centre, db = b - centre;
    return pseudo_angle(da.dot(t1), da.dot(t2)) < pseudo_angle(db.dot(t1), db.dot(t2));
  });
  std::size_t unique = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (unique == 0 || (points[i] - points[unique - 1]).norm() > tolerance)
      points[unique++] = points[i];
  while (unique > 1 && (points.front() - points[unique - 1]).norm() <= tolerance) --unique;
  points.resize(unique);
}

}  // namespace

void place_solid(const Polytope& polytope, const BodyState& pose, ConvexSolid& out) {
  const Mat3 r = pose.orientation.toRotationMatrix();
  out.clear();
  for (const Polytope::Face& f : polytope.faces) {
    for (int v : f.vertices) out.points.push_back(pose.position + r * polytope.vertices[v]);
    out.close_face(r * f.normal);
  }
}

ConvexSolid posed_solid(const Polytope& polytope, const BodyState& pose) {
  ConvexSolid s;
  place_solid(polytope, pose, s);
  return s;
}

void clip_solid(const ConvexSolid& solid, const Vec3& normal, double offset, double tolerance,
                ConvexSolid& out, std::vector<Vec3>& cap) {
  out.clear();
  bool outside = false, inside = false;
  for (const Vec3& v : solid.points) {
    const double d = normal.dot(v) - offset;
    outside |= d > tolerance;
    inside |= d < -tolerance;
  }
  if (!outside) {  // nothing to cut
    out = solid;
    return;
  }
  if (!inside) return;  // nothing left but (at most) a flat piece of the plane

  cap.clear();
  for (int k = 0; k < solid.face_count(); ++k) {
    const std::span<const Vec3> f = solid.face(k);
    const std::size_t first = out.points.size();
    const std::size_t n = f.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3& p = f[i];
      const Vec3& q = f[(i + 1) % n];
      double dp = normal.dot(p) - offset, dq = normal.dot(q) - offset;
      if (std::abs(dp) <= tolerance) dp = 0.0;
      if (std::abs(dq) <= tolerance) dq = 0.0;
      if (dp <= 0.0) out.points.push_back(p);
      if (dp == 0.0) cap.push_back(p);
      if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) {
        const Vec3 x = p + (dp / (dp - dq)) * (q - p);
        out.points.push_back(x);
        cap.push_back(x);
      }
    }
    if (out.points.size() - first >= 3)
      out.close_face(solid.normals[k]);
    else
      out.points.resize(first);
  }
  order_cap(cap, normal, tolerance);
  if (cap.size() >= 3) {
    out.points.insert(out.points.end(), cap.begin(), cap.end());
    out.close_face(normal);
  }
}

double solid_volume(const ConvexSolid& solid) {
  if (solid.empty()) return 0.0;
  const Vec3 o = solid.points.front();  // near the solid: no digits lost to the origin
  double six = 0.0;
  for (int k = 0; k < solid.face_count(); ++k) {
    const std::span<const Vec3> f = solid.face(k);
    for (std::size_t i = 1; i + 1 < f.size(); ++i)
      six += (f[0] - o).dot((f[i] - o).cross(f[i + 1] - o));
  }
  return six / 6.0;
}

Vec3 solid_centroid(const ConvexSolid& solid) {
  const Vec3 o = solid.points.front();
  double six = 0.0;
  Vec3 moment = Vec3::Zero();
  for (int k = 0; k < solid.face_count(); ++k) {
    const std::span<const Vec3> f = solid.face(k);
    for (std::size_t i = 1; i + 1 < f.size(); ++i) {
      const Vec3 a = f[0] - o, b = f[i] - o, c = f[i + 1] - o;
      const double t = a.dot(b.cross(c));
      six += t;
      moment += t * (a + b + c) / 4.0;  // the tetrahedron (o, a, b, c)'s centroid
    }
  }
  return o + moment / six;
}

SolidMoments solid_moments(const ConvexSolid& solid, const Vec3& origin) {
  SolidMoments m;
  if (solid.empty()) return m;
  Mat3 canonical;
  canonical << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  canonical /= 120.0;
  const Vec3 o = solid.points.front();
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
  for (int k = 0; k < solid.face_count(); ++k) {
    const std::span<const Vec3> f = solid.face(k);
    for (std::size_t i = 1; i + 1 < f.size(); ++i) {
      Mat3 A;
      A.col(0) = f[0] - o;
      A.col(1) = f[i] - o;
      A.col(2) = f[i + 1] - o;
      const double det = A.determinant();
      m.volume += det / 6.0;
      first += det / 24.0 * (A.col(0) + A.col(1) + A.col(2));
      second += det * A * canonical * A.transpose();
    }
  }
  const Vec3 d = o - origin;
  m.first = first + m.volume * d;
  m.second = second + first * d.transpose() + d * first.transpose() + m.volume * d * d.transpose();
  return m;
}

const ConvexSolid& polytope_intersection(const Polytope& p, const BodyState& p_pose,
                                         const Polytope& q, const BodyState& q_pose,
                                         SolidWorkspace& w) {
  place_solid(p, p_pose, w.common);
  const double tolerance = kRelativeTolerance * scale_of(w.common);
  place_solid(q, q_pose, w.other);
  for (int g = 0; g < w.other.face_count() && !w.common.empty(); ++g) {
    const Vec3& n = w.other.normals[g];
    clip_solid(w.common, n, n.dot(w.other.face(g).front()), tolerance, w.next, w.cap);
    std::swap(w.common, w.next);
  }
  return w.common;
}

double polytope_overlap_volume(const Polytope& p, const BodyState& p_pose, const Polytope& q,
                               const BodyState& q_pose) {
  SolidWorkspace w;
  return std::max(0.0, solid_volume(polytope_intersection(p, p_pose, q, q_pose, w)));
}

double polytope_halfspace_overlap_volume(const Polytope& p, const BodyState& p_pose,
                                         const Vec3& point, const Vec3& normal) {
  const ConvexSolid solid = posed_solid(p, p_pose);
  ConvexSolid clipped;
  std::vector<Vec3> cap;
  clip_solid(solid, normal, normal.dot(point), kRelativeTolerance * scale_of(solid), clipped, cap);
  return std::max(0.0, solid_volume(clipped));
}

}  // namespace pegsim
