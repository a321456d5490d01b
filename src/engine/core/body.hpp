// A rigid body of the model: immutable properties (its state lives in State).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "engine/core/math.hpp"
#include "engine/core/shape.hpp"

namespace pegsim {

struct Body {
  std::string name;
  Shape shape;
  double mass = 1.0;                         // kg; ignored when is_static
  Mat3 inertia = Mat3::Identity();           // body-frame inertia about the CoM, kg m^2
  bool is_static = false;
  double mu = 0.5;                           // Coulomb friction coefficient
  std::array<float, 4> color{0.7f, 0.7f, 0.7f, 1.0f};  // RGBA in [0, 1]
  bool visible = true;
  std::vector<int> no_collide;               // indices of bodies this one never collides with

  double inv_mass() const { return is_static ? 0.0 : 1.0 / mass; }
};

}  // namespace pegsim
