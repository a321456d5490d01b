// Small scenes built in code for the dynamics tests.
#pragma once

#include <memory>
#include <string>

#include "engine/core/contact.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"
#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"

namespace pegsim::test {

// Standard gravity of the tests' scenes, m/s^2.
constexpr double kG = 9.81;

// The default settings with step h and `gravity` (none unless given).
inline Settings step_settings(double h, const Vec3& gravity = Vec3::Zero()) {
  Settings s;
  s.h = h;
  s.gravity = gravity;
  return s;
}

// The same under formulation geometrically-implicit (seed 001).
inline Settings implicit_settings(double h, const Vec3& gravity) {
  Settings s = step_settings(h, gravity);
  s.formulation = Formulation::GeometricallyImplicit;
  return s;
}

struct World {
  Model model;
  State state;

  int add(Body body, const Vec3& position, const Quat& orientation = Quat::Identity()) {
    model.bodies.push_back(std::move(body));
    BodyState s;
    s.position = position;
    s.orientation = orientation;
    state.bodies.push_back(s);
    return static_cast<int>(model.bodies.size()) - 1;
  }
  // Static ground half-space whose outward normal is orientation * z, through `point`.
  int add_plane(const std::string& name, const Vec3& point, const Quat& orientation, double mu) {
    Body b;
    b.name = name;
    b.shape = Shape::plane();
    b.is_static = true;
    b.mu = mu;
    return add(b, point, orientation);
  }
  // Static 2D ground: the half-plane y <= 0.
  int add_half_plane(const std::string& name, double mu) {
    Body b;
    b.name = name;
    b.shape = Shape::half_plane();
    b.is_static = true;
    b.mu = mu;
    return add(b, Vec3::Zero());
  }
  int add_box(const std::string& name, const Vec3& size, double mass, const Vec3& position,
              const Quat& orientation = Quat::Identity(), double mu = 0.5) {
    return add_polytope(name, make_box(size.x(), size.y(), size.z()), mass, position, orientation,
                        mu);
  }
  // A uniform convex polytope (its vertices about its centre of mass).
  int add_polytope(const std::string& name, const Polytope& shape, double mass,
                   const Vec3& position, const Quat& orientation = Quat::Identity(),
                   double mu = 0.5) {
    auto poly = std::make_shared<Polytope>(shape);
    const MassProperties mp = polytope_mass_properties(*poly);
    Body b;
    b.name = name;
    b.shape = Shape::convex(poly);
    b.mass = mass;
    b.inertia = mp.inertia * (mass / mp.volume);
    b.mu = mu;
    return add(b, position, orientation);
  }
  // A contact of `face_body` (A) with `body` (B) at B's centre of mass (no lever arm on B),
  // normal n from A onto B, gap psi.
  Contact at_centre(int face_body, int body, const Vec3& n, double gap) const {
    Contact c;
    c.body_a = face_body;
    c.body_b = body;
    c.normal = n;
    c.gap = gap;
    c.point_a = state.bodies[body].position - gap * n;  // p_b is the centre of mass
    return c;
  }
  int add_sphere(const std::string& name, double radius, double mass, const Vec3& position,
                 double mu = 0.5) {
    Body b;
    b.name = name;
    b.shape = Shape::sphere(radius);
    b.mass = mass;
    b.inertia = Mat3::Identity() * (0.4 * mass * radius * radius);
    b.mu = mu;
    return add(b, position);
  }
};

// `count` 1 m cubes of 1 kg on a ground plane (mu 0.5), the lowest resting on it and each `gap`
// above the one below (the peers' stack scenes: gap 0).
inline World cube_stack(int count, double gap = 0.0) {
  World w;
  w.add_plane("ground", Vec3::Zero(), Quat::Identity(), 0.5);
  for (int k = 0; k < count; ++k)
    w.add_box("cube" + std::to_string(k), Vec3::Ones(), 1.0, Vec3(0.0, 0.0, 0.5 + (1.0 + gap) * k));
  return w;
}

}  // namespace pegsim::test
