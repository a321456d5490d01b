#include "cli/experiments/volumetric_scenes.hpp"

#include <cmath>
#include <memory>
#include <numbers>

#include "engine/geometry/builders.hpp"
#include "engine/geometry/mass_properties.hpp"

namespace pegsim::cli {
namespace {

constexpr double kG = 9.81, kH = 1e-3;

// A uniform convex body of 1 kg.
Body solid(const char* name, const Polytope& shape, double mu) {
  auto p = std::make_shared<Polytope>(shape);
  const MassProperties mp = polytope_mass_properties(*p);
  Body b;
  b.name = name;
  b.shape = Shape::convex(p);
  b.mass = 1.0;
  b.inertia = mp.inertia / mp.volume;
  b.mu = mu;
  return b;
}

Body floor_body(bool planar, double mu) {
  Body floor;
  floor.name = "floor";
  floor.shape = planar ? Shape::half_plane() : Shape::plane();
  floor.is_static = true;
  floor.mu = mu;
  return floor;
}

Settings volumetric_settings(const Vec3& gravity) {
  Settings settings;
  settings.h = kH;
  settings.contact_model = ContactModel::Volumetric;
  settings.gravity = gravity;
  return settings;
}

double pair_stiffness(const Body& a, const Body& b) {
  return 1.0 / (1.0 / a.layer.stiffness + 1.0 / b.layer.stiffness);
}

}  // namespace

Simulator volumetric_block_on_slope(double degrees) {
  Model model;
  State state;
  model.bodies.push_back(floor_body(false, 0.5));
  model.bodies.push_back(solid("block", make_box(1.0, 0.5, 0.5), 0.5));
  state.bodies.resize(2);
  // Started sunk to where the layers carry the weight, k_v A d = m g cos t: from a touching
  // start the first step has no contact yet and the block falls and slides freely for it (the
  // thesis' settling transient), which at the break-away angle alone keeps it moving for 1 s.
  const double t = degrees * std::numbers::pi / 180.0;
  const double k = pair_stiffness(model.bodies[0], model.bodies[1]);
  state.bodies[1].position = Vec3(0, 0, 0.25 - kG * std::cos(t) / (k * 0.5));
  return Simulator(model, state, volumetric_settings(kG * Vec3(std::sin(t), 0.0, -std::cos(t))));
}

Simulator volumetric_spinning_disc(double spin_speed) {
  constexpr double R = 0.25, H = 0.05;
  Model model;
  State state;
  model.bodies.push_back(floor_body(false, 0.6));
  model.bodies[0].layer.spin_speed = spin_speed;
  const Polytope prism = make_cylinder(128, R, H);
  model.bodies.push_back(solid("disc", prism, 0.6));
  state.bodies.resize(2);
  const double area = polytope_mass_properties(prism).volume / H;
  const double k = pair_stiffness(model.bodies[0], model.bodies[1]);
  state.bodies[1].position = Vec3(0, 0, H / 2 - kG / (k * area));
  state.bodies[1].angular_velocity = Vec3(0, 0, 5.0 * std::numbers::pi);
  return Simulator(model, state, volumetric_settings(Vec3(0, 0, -kG)));
}

Simulator volumetric_cylinder_on_slope(int facets, double stiffness) {
  constexpr double R = 0.25, mu = 0.6;
  const double slope = 15.0 * std::numbers::pi / 180.0;
  Model model;
  State state;
  state.bodies.resize(2);
  if (facets == 0) {
    model.bodies.push_back(floor_body(true, mu));
    Body disc;
    disc.name = "disc";
    disc.shape = Shape::circle(R);
    disc.mass = 1.0;
    const MassProperties mp = circle_mass_properties(R);
    disc.inertia = mp.inertia / mp.volume;
    disc.mu = mu;
    model.bodies.push_back(disc);
    for (Body& b : model.bodies) b.layer.stiffness = 2.0 * kPlanarLayerStiffness;
    state.bodies[1].position = Vec3(0, R, 0);
    Settings settings = volumetric_settings(kG * Vec3(std::sin(slope), -std::cos(slope), 0.0));
    settings.friction_directions = 2;
    return Simulator(model, state, settings);
  }
  model.bodies.push_back(floor_body(false, mu));
  model.bodies.push_back(solid("cylinder", make_cylinder(facets, R, 1.0), mu));
  for (Body& b : model.bodies) b.layer.stiffness = stiffness;
  // Body z (the axis) onto world y; a facet's middle (between vertices at -pi/2 +- pi/n) down.
  state.bodies[1].orientation = Quat(Eigen::AngleAxisd(-std::numbers::pi / 2, Vec3::UnitX())) *
                                Quat(Eigen::AngleAxisd(std::numbers::pi / facets, Vec3::UnitZ()));
  state.bodies[1].position = Vec3(0, 0, R * std::cos(std::numbers::pi / facets));
  return Simulator(model, state,
                   volumetric_settings(kG * Vec3(std::sin(slope), 0.0, -std::cos(slope))));
}

}  // namespace pegsim::cli
