// Mass properties of uniform-density shapes.
#include "engine/geometry/mass_properties.hpp"

#include <numbers>

namespace pegsim {

// For a tetrahedron with edge matrix A = [a-r b-r c-r]: volume det(A) / 6, first moment
// det(A) / 24 (sum of the edges), second moment about r det(A) A C A^T with the canonical
// C = (1/120)[[2,1,1],[1,2,1],[1,1,2]]; inertia = tr(S) I - S for the second moment S about the
// centroid.
void TetrahedralMoments::add(const Vec3& a, const Vec3& b, const Vec3& c) {
  static const Mat3 canonical = (Mat3() << 2, 1, 1, 1, 2, 1, 1, 1, 2).finished() / 120.0;
  Mat3 A;
  A.col(0) = a - r;
  A.col(1) = b - r;
  A.col(2) = c - r;
  const double det = A.determinant();
  volume += det / 6.0;
  first += det / 24.0 * (A.col(0) + A.col(1) + A.col(2));
  second += det * A * canonical * A.transpose();
}

MassProperties TetrahedralMoments::properties() const {
  MassProperties m;
  m.volume = volume;
  const Vec3 c = first / volume;  // centroid relative to r
  m.centroid = r + c;
  const Mat3 about_centroid = second - volume * c * c.transpose();  // parallel-axis shift
  m.inertia = about_centroid.trace() * Mat3::Identity() - about_centroid;
  m.inertia = 0.5 * (m.inertia + m.inertia.transpose());
  return m;
}

// A tetrahedral fan of each face from a vertex of the body.
MassProperties polytope_mass_properties(const Polytope& p) {
  TetrahedralMoments m(p.vertices.front());
  for (const Polytope::Face& face : p.faces)
    for (std::size_t i = 1; i + 1 < face.vertices.size(); ++i)
      m.add(p.vertices[face.vertices[0]], p.vertices[face.vertices[i]],
            p.vertices[face.vertices[i + 1]]);
  return m.properties();
}

MassProperties sphere_mass_properties(double radius) {
  MassProperties m;
  m.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  m.inertia = 0.4 * m.volume * radius * radius * Mat3::Identity();
  return m;
}

// Green's theorem over the triangles (r, v_i, v_i+1), r = vertex 0 to limit cancellation.
MassProperties polygon_mass_properties(const Polygon& p) {
  return outline_mass_properties(p.vertices);
}

MassProperties outline_mass_properties(const std::vector<Vec2>& outline) {
  const Vec2 r = outline.front();
  const std::size_t n = outline.size();
  double area = 0.0, sx = 0.0, sy = 0.0, xx = 0.0, yy = 0.0, xy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = outline[i] - r, b = outline[(i + 1) % n] - r;
    const double c = a.x() * b.y() - a.y() * b.x();
    area += c / 2.0;
    sx += c * (a.x() + b.x()) / 6.0;
    sy += c * (a.y() + b.y()) / 6.0;
    xx += c * (a.x() * a.x() + a.x() * b.x() + b.x() * b.x()) / 12.0;
    yy += c * (a.y() * a.y() + a.y() * b.y() + b.y() * b.y()) / 12.0;
    xy += c * (2.0 * a.x() * a.y() + a.x() * b.y() + b.x() * a.y() + 2.0 * b.x() * b.y()) / 24.0;
  }
  const Vec2 c = Vec2(sx, sy) / area;  // centroid relative to r
  xx -= area * c.x() * c.x();
  yy -= area * c.y() * c.y();
  xy -= area * c.x() * c.y();
  MassProperties m;
  m.volume = area;
  m.centroid = Vec3(r.x() + c.x(), r.y() + c.y(), 0.0);
  m.inertia << yy, -xy, 0.0, -xy, xx, 0.0, 0.0, 0.0, xx + yy;
  return m;
}

MassProperties circle_mass_properties(double radius) {
  MassProperties m;
  m.volume = std::numbers::pi * radius * radius;
  const double quarter = m.volume * radius * radius / 4.0;  // int x^2 = int y^2
  m.inertia = Vec3(quarter, quarter, 2.0 * quarter).asDiagonal();
  return m;
}

}  // namespace pegsim
