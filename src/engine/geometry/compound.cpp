// Compound shapes: parts, union mass properties by inclusion-exclusion, buried points.
#include "engine/geometry/compound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "engine/geometry/compound_2d.hpp"
#include "engine/geometry/polytope.hpp"
#include "engine/geometry/polytope_overlap.hpp"

namespace pegsim {
namespace {

// Coordinates this much smaller than the parts' size (relative) are rounding noise.
constexpr double kRelativeTolerance = 1e-12;

BodyState part_pose(const CompoundPart& part) {
  BodyState s;
  s.position = part.position;
  s.orientation = part.orientation;
  return s;
}

double scale_of(const std::vector<ConvexSolid>& solids) {
  double r = 1.0;
  for (const ConvexSolid& s : solids)
    for (const Vec3& v : s.points) r = std::max(r, v.cwiseAbs().maxCoeff());
  return r;
}

// current ∩ other: current clipped by every face plane of other.
ConvexSolid intersect(ConvexSolid current, const ConvexSolid& other, double tolerance) {
  ConvexSolid next;
  std::vector<Vec3> cap;
  for (int g = 0; g < other.face_count() && !current.empty(); ++g) {
    const Vec3& n = other.normals[g];
    clip_solid(current, n, n.dot(other.face(g).front()), tolerance, next, cap);
    std::swap(current, next);
  }
  return current;
}

// Inclusion-exclusion: adds sign * moments(current ∩ solids[k]) for every k >= start and
// recurses with the opposite sign. An empty intersection ends its branch, since every
// intersection with more solids is empty too.
void add_intersections(const std::vector<ConvexSolid>& solids, std::size_t start,
                       const ConvexSolid& current, double sign, double tolerance,
                       SolidMoments& sum) {
  for (std::size_t k = start; k < solids.size(); ++k) {
    const ConvexSolid common = intersect(current, solids[k], tolerance);
    const SolidMoments m = solid_moments(common);
    if (!(m.volume > tolerance * tolerance * tolerance)) continue;
    sum.add(m, sign);
    add_intersections(solids, k + 1, common, -sign, tolerance, sum);
  }
}

// Distance from x to a convex solid (0 inside): the nearest point of the faces x is outside of.
double distance_to_solid(const ConvexSolid& s, const Vec3& x) {
  double best = std::numeric_limits<double>::infinity();
  bool inside = true;
  for (int k = 0; k < s.face_count(); ++k) {
    const std::span<const Vec3> f = s.face(k);
    const Vec3& n = s.normals[k];
    const double d = n.dot(x - f.front());
    if (d <= 0.0) continue;
    inside = false;
    const Vec3 p = x - d * n;  // projection on the face plane
    bool in_polygon = true;
    double edge_best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < f.size(); ++i) {
      const Vec3& a = f[i];
      const Vec3& b = f[(i + 1) % f.size()];
      if ((b - a).cross(p - a).dot(n) < 0.0) in_polygon = false;
      const double t = std::clamp((x - a).dot(b - a) / (b - a).squaredNorm(), 0.0, 1.0);
      edge_best = std::min(edge_best, (x - (a + t * (b - a))).norm());
    }
    best = std::min(best, in_polygon ? d : edge_best);
  }
  return inside ? 0.0 : best;
}

[[noreturn]] void fail(std::size_t part, const std::string& why) {
  throw GeometryError("part " + std::to_string(part) + ": " + why);
}

void check_parts(const std::vector<CompoundPart>& parts) {
  if (parts.empty()) throw GeometryError("a compound needs at least one part");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Shape& s = parts[i].shape;
    if (s.kind == ShapeKind::Polytope ? !s.polytope : s.kind != ShapeKind::Sphere)
      fail(i, "expected a sphere or a convex polytope");
    if (s.kind == ShapeKind::Sphere && !(s.radius > 0.0)) fail(i, "expected a positive radius");
  }
  // A ball cut by planes or by another ball has no volume formula here (see
  // sphere_overlap.hpp), so spheres may touch other parts but not overlap them.
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].shape.kind != ShapeKind::Sphere) continue;
    const double r = parts[i].shape.radius;
    const Vec3 c = parts[i].position;
    for (std::size_t j = 0; j < parts.size(); ++j) {
      if (j == i) continue;
      const CompoundPart& o = parts[j];
      const double gap =
          o.shape.kind == ShapeKind::Sphere
              ? (o.position - c).norm() - o.shape.radius - r
              : distance_to_solid(posed_solid(*o.shape.polytope, part_pose(o)), c) - r;
      if (gap < -kRelativeTolerance * std::max(1.0, c.norm() + r))
        fail(i, "a sphere part overlaps part " + std::to_string(j) +
                    " (spheres may only touch other parts)");
    }
  }
}

}  // namespace

double union_volume(const std::vector<ConvexSolid>& solids) {
  const double tolerance = kRelativeTolerance * scale_of(solids);
  SolidMoments sum;
  for (std::size_t k = 0; k < solids.size(); ++k) {
    sum.add(solid_moments(solids[k]), 1.0);
    add_intersections(solids, k + 1, solids[k], -1.0, tolerance, sum);
  }
  return std::max(0.0, sum.volume);
}

ConvexSolid intersect_solids(const ConvexSolid& a, const ConvexSolid& b) {
  return intersect(a, b, kRelativeTolerance * scale_of({a, b}));
}

MassProperties compound_mass_properties(const Compound& compound) {
  if (compound.planar) return planar_compound_mass_properties(compound);
  SolidMoments sum;
  std::vector<ConvexSolid> solids;
  for (const CompoundPart& p : compound.parts) {
    if (p.shape.kind == ShapeKind::Sphere) {
      // A ball of radius r about c: int x x^T = V (r^2 / 5 I + c c^T).
      const MassProperties s = sphere_mass_properties(p.shape.radius);
      const SolidMoments m{s.volume, s.volume * p.position,
                           s.inertia / 2.0 + s.volume * p.position * p.position.transpose()};
      sum.add(m, 1.0);
    } else {
      solids.push_back(posed_solid(*p.shape.polytope, part_pose(p)));
    }
  }
  const double tolerance = kRelativeTolerance * scale_of(solids);
  for (std::size_t k = 0; k < solids.size(); ++k) {
    sum.add(solid_moments(solids[k]), 1.0);
    add_intersections(solids, k + 1, solids[k], -1.0, tolerance, sum);
  }
  MassProperties out;
  out.volume = sum.volume;
  out.centroid = sum.first / sum.volume;
  const Mat3 about_centroid = sum.second - sum.volume * out.centroid * out.centroid.transpose();
  out.inertia = about_centroid.trace() * Mat3::Identity() - about_centroid;
  out.inertia = 0.5 * (out.inertia + out.inertia.transpose());
  return out;
}

Compound make_compound(std::vector<CompoundPart> parts, bool recentre) {
  const bool planar = !parts.empty() && parts.front().shape.planar();
  if (planar)
    check_planar_parts(parts);
  else
    check_parts(parts);
  Compound c;
  c.planar = planar;
  c.parts = std::move(parts);
  for (CompoundPart& p : c.parts) p.orientation.normalize();
  if (recentre) {
    const Vec3 centroid = compound_mass_properties(c).centroid;
    for (CompoundPart& p : c.parts) p.position -= centroid;
  }
  for (const CompoundPart& p : c.parts) {
    if (p.shape.kind == ShapeKind::Sphere || p.shape.kind == ShapeKind::Circle) {
      c.bounding_radius = std::max(c.bounding_radius, p.position.norm() + p.shape.radius);
      continue;
    }
    if (p.shape.kind == ShapeKind::Polygon) {
      for (const Vec2& v : p.shape.polygon->vertices)
        c.bounding_radius = std::max(c.bounding_radius,
                                     (p.position + p.orientation * Vec3(v.x(), v.y(), 0.0)).norm());
      continue;
    }
    for (const Vec3& v : p.shape.polytope->vertices)
      c.bounding_radius = std::max(c.bounding_radius, (p.position + p.orientation * v).norm());
  }
  return c;
}

bool inside_part(const CompoundPart& part, const Vec3& x, double depth) {
  const Vec3 local = part.orientation.conjugate() * (x - part.position);
  if (part.shape.kind == ShapeKind::Sphere) return local.norm() < part.shape.radius - depth;
  if (part.shape.kind == ShapeKind::Circle)
    return local.head<2>().norm() < part.shape.radius - depth;
  if (part.shape.kind == ShapeKind::Polygon) {  // every edge line at least `depth` away
    const Polygon& p = *part.shape.polygon;
    for (int e = 0; e < p.size(); ++e)
      if (p.normals[e].dot(local.head<2>() - p.vertices[e]) >= -depth) return false;
    return true;
  }
  for (const Polytope::Face& f : part.shape.polytope->faces)
    if (f.normal.dot(local) - f.offset >= -depth) return false;
  return true;
}

bool buried_in_other_part(const Compound& compound, int except, const Vec3& x, double depth) {
  for (int k = 0; k < static_cast<int>(compound.parts.size()); ++k)
    if (k != except && inside_part(compound.parts[k], x, depth)) return true;
  return false;
}

}  // namespace pegsim
