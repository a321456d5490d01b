// The immutable description of a mechanical system.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/core/body.hpp"
#include "engine/core/controller_spec.hpp"
#include "engine/core/joint.hpp"

namespace pegsim {

struct Model {
  std::vector<Body> bodies;
  std::vector<Joint> joints;
  // Built-in controllers, run at the start of every step (the Simulator makes them).
  ControllerSpecs controllers;

  int body_index(const std::string& name) const {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      if (bodies[i].name == name) return static_cast<int>(i);
    return -1;
  }
  int joint_index(const std::string& name) const {
    for (std::size_t i = 0; i < joints.size(); ++i)
      if (joints[i].name == name) return static_cast<int>(i);
    return -1;
  }
  // True when the pair may collide (not both static, not excluded by either body).
  bool may_collide(int a, int b) const;
  // A planar (2D) model: every body has a planar shape, so every body moves in the x-y plane.
  bool planar() const;
};

}  // namespace pegsim
