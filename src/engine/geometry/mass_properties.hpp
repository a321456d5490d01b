// Volume, centroid and inertia of shapes of uniform density.
#pragma once

#include <vector>

#include "engine/core/shape.hpp"

namespace pegsim {

// For planar shapes (laminae in the x-y plane) `volume` is the area and the density areal.
struct MassProperties {
  double volume = 0.0;
  Vec3 centroid = Vec3::Zero();  // in the frame the shape is given in
  Mat3 inertia = Mat3::Zero();   // about the centroid, for unit density (kg m^2 per kg/m^3)
};

// The integrals of 1, x - r and (x - r)(x - r)^T over a closed surface's solid, summed over the
// tetrahedra (r, a, b, c) its triangles make with an apex r (the divergence theorem; each
// signed by its triangle's turn, so a surface facing inwards gives a negative volume). An apex
// on the solid, one of its vertices, loses no digits against the origin.
struct TetrahedralMoments {
  explicit TetrahedralMoments(const Vec3& apex) : r(apex) {}
  void add(const Vec3& a, const Vec3& b, const Vec3& c);  // a triangle, counter-clockwise outside
  MassProperties properties() const;                      // about the centroid, unit density

  Vec3 r;
  double volume = 0.0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();
};

// Exact for a closed polytope (divergence theorem over a tetrahedral fan of each face).
MassProperties polytope_mass_properties(const Polytope& p);
MassProperties sphere_mass_properties(double radius);
// Laminae in the x-y plane: I_xx = int y^2, I_yy = int x^2, I_zz = I_xx + I_yy (the moment
// about the out-of-plane axis, the only one a planar body uses), I_xy = -int x y.
MassProperties polygon_mass_properties(const Polygon& p);  // exact (Green's theorem)
// The same for any simple counter-clockwise outline (at least three vertices).
MassProperties outline_mass_properties(const std::vector<Vec2>& outline);
MassProperties circle_mass_properties(double radius);

}  // namespace pegsim
