// The shipped primitive polytopes (RPIsim's meshes/: cube, rectangularBlock, cylinder, the five
// Platonic solids), with faces counter-clockwise seen from outside.
#include "engine/geometry/builders.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "engine/geometry/polytope.hpp"

namespace pegsim {
namespace {

void require_positive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw GeometryError(std::string(what) + " must be a positive number");
}

// Platonic solids are the hulls of their classical vertex sets, scaled to circumradius r.
Polytope scaled_hull(std::vector<Vec3> points, double radius) {
  require_positive(radius, "radius");
  const double scale = radius / points.front().norm();
  for (Vec3& p : points) p *= scale;
  return make_convex_hull(points);
}

}  // namespace

Polytope make_box(double lx, double ly, double lz) {
  require_positive(lx, "box length x");
  require_positive(ly, "box length y");
  require_positive(lz, "box length z");
  const Vec3 h(lx / 2, ly / 2, lz / 2);
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i)  // bit 0: x, bit 1: y, bit 2: z
    v.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
  return make_polytope(std::move(v), {{0, 2, 3, 1},    // -z
                                      {4, 5, 7, 6},    // +z
                                      {0, 1, 5, 4},    // -y
                                      {2, 6, 7, 3},    // +y
                                      {0, 4, 6, 2},    // -x
                                      {1, 3, 7, 5}});  // +x
}

Polytope make_cube(double edge) {
  return make_box(edge, edge, edge);
}

Polytope make_cylinder(int n, double radius, double height) {
  if (n < 3) throw GeometryError("a cylinder needs at least 3 sides");
  require_positive(radius, "cylinder radius");
  require_positive(height, "cylinder height");
  std::vector<Vec3> v;
  for (int k = 0; k < n; ++k) {
    const double t = 2.0 * std::numbers::pi * k / n;
    v.emplace_back(radius * std::cos(t), radius * std::sin(t), -height / 2);
  }
  for (int k = 0; k < n; ++k) v.emplace_back(v[k].x(), v[k].y(), height / 2);
  std::vector<std::vector<int>> faces;
  std::vector<int> bottom, top;
  for (int k = 0; k < n; ++k) {
    bottom.push_back(n - 1 - k);  // clockwise from above = CCW from below
    top.push_back(n + k);
    faces.push_back({k, (k + 1) % n, n + (k + 1) % n, n + k});
  }
  faces.push_back(bottom);
  faces.push_back(top);
  return make_polytope(std::move(v), std::move(faces));
}

Polytope make_sphere_polytope(int rings, double radius) {
  if (rings < 2) throw GeometryError("a sphere polytope needs at least 2 rings");
  require_positive(radius, "sphere radius");
  std::vector<Vec3> v{Vec3(0, 0, radius), Vec3(0, 0, -radius)};
  for (int i = 1; i < rings; ++i) {
    const double polar = std::numbers::pi * i / rings;
    for (int k = 0; k < 2 * rings; ++k) {
      const double azimuth = std::numbers::pi * k / rings;
      v.push_back(radius * Vec3(std::sin(polar) * std::cos(azimuth),
                                std::sin(polar) * std::sin(azimuth), std::cos(polar)));
    }
  }
  return make_convex_hull(v);
}

Polytope make_tetrahedron(double radius) {
  return scaled_hull({{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}}, radius);
}

Polytope make_octahedron(double radius) {
  return scaled_hull({{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}, radius);
}

Polytope make_hexahedron(double radius) {
  require_positive(radius, "radius");
  return make_cube(2.0 * radius / std::sqrt(3.0));
}

Polytope make_dodecahedron(double radius) {
  const double phi = std::numbers::phi, iphi = 1.0 / phi;
  std::vector<Vec3> p;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0}) {
      for (double sz : {-1.0, 1.0}) p.emplace_back(sx, sy, sz);
      p.emplace_back(0.0, sx * iphi, sy * phi);
      p.emplace_back(sx * iphi, sy * phi, 0.0);
      p.emplace_back(sx * phi, 0.0, sy * iphi);
    }
  return scaled_hull(std::move(p), radius);
}

Polytope make_icosahedron(double radius) {
  const double phi = std::numbers::phi;
  std::vector<Vec3> p;
  for (double s1 : {-1.0, 1.0})
    for (double s2 : {-1.0, 1.0}) {
      p.emplace_back(0.0, s1, s2 * phi);
      p.emplace_back(s1, s2 * phi, 0.0);
      p.emplace_back(s2 * phi, 0.0, s1);
    }
  return scaled_hull(std::move(p), radius);
}

}  // namespace pegsim
