// Mass properties of uniform-density shapes.
#include "engine/geometry/mass_properties.hpp"

#include <numbers>

namespace pegsim {

// Divergence theorem over tetrahedra (r, a, b, c), one per triangle of a fan of each face, with
// r a vertex of the body (reduces cancellation against the origin). For a tetrahedron with edge
// matrix A = [a-r b-r c-r] the second moment about r is det(A) A C A^T with the canonical
// C = (1/120)[[2,1,1],[1,2,1],[1,1,2]]; inertia = tr(S) I - S for the second moment S about the
// centroid.
MassProperties polytope_mass_properties(const Polytope& p) {
  Mat3 canonical;
  canonical << 2, 1, 1, 1, 2, 1, 1, 1, 2;
  canonical /= 120.0;
  const Vec3 r = p.vertices.front();
  double volume = 0.0;
  Vec3 first = Vec3::Zero();   // integral of (x - r) dV
  Mat3 second = Mat3::Zero();  // integral of (x - r)(x - r)^T dV
  for (const Polytope::Face& face : p.faces) {
    const Vec3 a = p.vertices[face.vertices[0]] - r;
    for (std::size_t i = 1; i + 1 < face.vertices.size(); ++i) {
      Mat3 A;
      A.col(0) = a;
      A.col(1) = p.vertices[face.vertices[i]] - r;
      A.col(2) = p.vertices[face.vertices[i + 1]] - r;
      const double det = A.determinant();
      volume += det / 6.0;
      first += det / 24.0 * (A.col(0) + A.col(1) + A.col(2));
      second += det * A * canonical * A.transpose();
    }
  }
  MassProperties m;
  m.volume = volume;
  const Vec3 c = first / volume;  // centroid relative to r
  m.centroid = r + c;
  const Mat3 about_centroid = second - volume * c * c.transpose();  // parallel-axis shift
  m.inertia = about_centroid.trace() * Mat3::Identity() - about_centroid;
  m.inertia = 0.5 * (m.inertia + m.inertia.transpose());
  return m;
}

MassProperties sphere_mass_properties(double radius) {
  MassProperties m;
  m.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  m.inertia = 0.4 * m.volume * radius * radius * Mat3::Identity();
  return m;
}

}  // namespace pegsim
