// Planar (2D) bodies for the contact-model tests: polygons placed by centre and angle about z.
#pragma once

#include <memory>
#include <string>

#include "../about_z.hpp"
#include "../dynamics/test_world.hpp"
#include "engine/geometry/polygon.hpp"
#include "engine/geometry/polygon_builders.hpp"

namespace pegsim::test {

inline int add_polygon(World& w, const std::string& name, const Polygon& shape, double mass,
                       const Vec2& position, double angle = 0.0, bool is_static = false) {
  auto p = std::make_shared<const Polygon>(shape);
  const MassProperties mp = polygon_mass_properties(*p);
  Body b;
  b.name = name;
  b.shape = Shape::convex_polygon(p);
  b.mass = mass;
  b.inertia = mp.inertia * (mass / mp.volume);
  b.mu = 0.0;
  b.is_static = is_static;
  return w.add(b, Vec3(position.x(), position.y(), 0), about_z(angle));
}

// A thin wedge standing on its tip, the top edge 1 m above the tip and 0.14 m wide, so that
// both tip edges are 4 degrees off vertical and the tip is applicable (3.3) against a
// horizontal and a vertical edge alike (|eps_theta| = 0.15). Centred on its centroid, which
// lies 2/3 m above the tip.
inline Polygon needle() {
  Polygon p = make_convex_hull_2d({Vec2(0, 0), Vec2(0.07, 1.0), Vec2(-0.07, 1.0)});
  translate(p, Vec2(0, 2.0 / 3.0));  // the centroid to the origin
  return p;
}
constexpr double kNeedleTipBelowCentre = 2.0 / 3.0;

// Settings of planar tests: gravity along -y (or none), the exact 2D friction cone.
inline Settings planar_settings(ContactModel model, double gravity = 0.0) {
  Settings s;
  s.h = 0.01;
  s.gravity = Vec3(0, -gravity, 0);
  s.friction_directions = 2;
  s.contact_model = model;
  return s;
}

}  // namespace pegsim::test
