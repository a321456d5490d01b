#include "engine/geometry/polytope_overlap.hpp"

#include <algorithm>
#include <cmath>

namespace pegsim {
namespace {

// Coordinates this much smaller than the solid's size (relative) are rounding noise.
constexpr double kRelativeTolerance = 1e-12;

double scale_of(const ConvexSolid& s) {
  double r = 1.0;
  for (const auto& f : s.faces)
    for (const Vec3& v : f) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// The cap: the points of the cut, in counter-clockwise order seen from +normal (outside the
// clipped solid), duplicates merged.
void order_cap(std::vector<Vec3>& points, const Vec3& normal, double tolerance) {
  if (points.size() < 3) return;
  Vec3 centre = Vec3::Zero();
  for (const Vec3& p : points) centre += p;
  centre /= static_cast<double>(points.size());
  const Vec3 t1 = any_perpendicular(normal), t2 = normal.cross(t1);
  std::sort(points.begin(), points.end(), [&](const Vec3& a, const Vec3& b) {
    const Vec3 da = a - centre, db = b - centre;
    return std::atan2(da.dot(t2), da.dot(t1)) < std::atan2(db.dot(t2), db.dot(t1));
  });
  std::vector<Vec3> unique;
  for (const Vec3& p : points)
    if (unique.empty() || (p - unique.back()).norm() > tolerance) unique.push_back(p);
  while (unique.size() > 1 && (unique.front() - unique.back()).norm() <= tolerance)
    unique.pop_back();
  points.swap(unique);
}

}  // namespace

ConvexSolid posed_solid(const Polytope& polytope, const BodyState& pose) {
  const Mat3 r = pose.orientation.toRotationMatrix();
  ConvexSolid s;
  s.faces.reserve(polytope.faces.size());
  for (const Polytope::Face& f : polytope.faces) {
    std::vector<Vec3> polygon;
    polygon.reserve(f.vertices.size());
    for (int v : f.vertices) polygon.push_back(pose.position + r * polytope.vertices[v]);
    s.faces.push_back(std::move(polygon));
    s.normals.push_back(r * f.normal);
  }
  return s;
}

void clip_solid(const ConvexSolid& solid, const Vec3& normal, double offset, double tolerance,
                ConvexSolid& out) {
  out.faces.clear();
  out.normals.clear();
  bool outside = false, inside = false;
  for (const auto& f : solid.faces)
    for (const Vec3& v : f) {
      const double d = normal.dot(v) - offset;
      outside |= d > tolerance;
      inside |= d < -tolerance;
    }
  if (!outside) {  // nothing to cut
    out = solid;
    return;
  }
  if (!inside) return;  // nothing left but (at most) a flat piece of the plane

  std::vector<Vec3> cap;
  for (std::size_t k = 0; k < solid.faces.size(); ++k) {
    const std::vector<Vec3>& f = solid.faces[k];
    std::vector<Vec3> kept;
    const std::size_t n = f.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3& p = f[i];
      const Vec3& q = f[(i + 1) % n];
      double dp = normal.dot(p) - offset, dq = normal.dot(q) - offset;
      if (std::abs(dp) <= tolerance) dp = 0.0;
      if (std::abs(dq) <= tolerance) dq = 0.0;
      if (dp <= 0.0) kept.push_back(p);
      if (dp == 0.0) cap.push_back(p);
      if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) {
        const Vec3 x = p + (dp / (dp - dq)) * (q - p);
        kept.push_back(x);
        cap.push_back(x);
      }
    }
    if (kept.size() >= 3) {
      out.faces.push_back(std::move(kept));
      out.normals.push_back(solid.normals[k]);
    }
  }
  order_cap(cap, normal, tolerance);
  if (cap.size() >= 3) {
    out.faces.push_back(std::move(cap));
    out.normals.push_back(normal);
  }
}

double solid_volume(const ConvexSolid& solid) {
  if (solid.faces.empty()) return 0.0;
  const Vec3 o = solid.faces.front().front();  // near the solid: no digits lost to the origin
  double six = 0.0;
  for (const auto& f : solid.faces)
    for (std::size_t i = 1; i + 1 < f.size(); ++i)
      six += (f[0] - o).dot((f[i] - o).cross(f[i + 1] - o));
  return six / 6.0;
}

Vec3 solid_centroid(const ConvexSolid& solid) {
  const Vec3 o = solid.faces.front().front();
  double six = 0.0;
  Vec3 moment = Vec3::Zero();
  for (const auto& f : solid.faces)
    for (std::size_t i = 1; i + 1 < f.size(); ++i) {
      const Vec3 a = f[0] - o, b = f[i] - o, c = f[i + 1] - o;
      const double t = a.dot(b.cross(c));
      six += t;
      moment += t * (a + b + c) / 4.0;  // the tetrahedron (o, a, b, c)'s centroid
    }
  return o + moment / six;
}

ConvexSolid polytope_intersection(const Polytope& p, const BodyState& p_pose, const Polytope& q,
                                  const BodyState& q_pose) {
  ConvexSolid current = posed_solid(p, p_pose), next;
  const double tolerance = kRelativeTolerance * scale_of(current);
  const ConvexSolid other = posed_solid(q, q_pose);
  for (std::size_t g = 0; g < other.faces.size() && !current.faces.empty(); ++g) {
    const Vec3& n = other.normals[g];
    clip_solid(current, n, n.dot(other.faces[g].front()), tolerance, next);
    current.faces.swap(next.faces);
    current.normals.swap(next.normals);
  }
  return current;
}

double polytope_overlap_volume(const Polytope& p, const BodyState& p_pose, const Polytope& q,
                               const BodyState& q_pose) {
  return std::max(0.0, solid_volume(polytope_intersection(p, p_pose, q, q_pose)));
}

double polytope_halfspace_overlap_volume(const Polytope& p, const BodyState& p_pose,
                                         const Vec3& point, const Vec3& normal) {
  const ConvexSolid solid = posed_solid(p, p_pose);
  ConvexSolid clipped;
  clip_solid(solid, normal, normal.dot(point), kRelativeTolerance * scale_of(solid), clipped);
  return std::max(0.0, solid_volume(clipped));
}

}  // namespace pegsim
