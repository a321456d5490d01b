// Volume, centroid and inertia of shapes of uniform density.
#pragma once

#include "engine/core/shape.hpp"

namespace pegsim {

struct MassProperties {
  double volume = 0.0;
  Vec3 centroid = Vec3::Zero();       // in the frame the shape is given in
  Mat3 inertia = Mat3::Zero();        // about the centroid, for unit density (kg m^2 per kg/m^3)
};

// Exact for a closed polytope (divergence theorem over a tetrahedral fan of each face).
MassProperties polytope_mass_properties(const Polytope& p);
MassProperties sphere_mass_properties(double radius);

}  // namespace pegsim
