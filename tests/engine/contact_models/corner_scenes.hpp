// Scenes of thesis §5.1 built in code: a static block whose top face (z = 0) meets its side
// face (x = 0) at an edge along y, and bodies near that edge.
#pragma once

#include <memory>

#include "../dynamics/test_world.hpp"
#include "engine/geometry/polytope.hpp"

namespace pegsim::test {

// The block: 2 m cube occupying x in [-2, 0], z in [-2, 0], frictionless, static.
inline int add_corner_block(World& w) {
  const int b = w.add_box("block", Vec3(2, 2, 2), 1.0, Vec3(-1, 0, -1), Quat::Identity(), 0.0);
  w.model.bodies[b].is_static = true;
  return b;
}

// A square pyramid standing on its apex: the apex `tip` below the base of half-width w at
// height `height` above it. Its four apex edges are 5.7 degrees off vertical, so the apex
// is applicable (3.4) against both the top and the side face of the block, and the SM
// enforces both contacts.
inline int add_inverted_pyramid(World& w, const Vec3& tip, double mass = 1.0) {
  const double h = 1.0, half = 0.07;
  std::vector<Vec3> points{Vec3(0, 0, 0), Vec3(half, half, h), Vec3(-half, half, h),
                           Vec3(-half, -half, h), Vec3(half, -half, h)};
  Polytope hull = make_convex_hull(points);
  const MassProperties mp = polytope_mass_properties(hull);
  translate(hull, mp.centroid);
  Body b;
  b.name = "pyramid";
  b.shape = Shape::convex(std::make_shared<Polytope>(std::move(hull)));
  b.mass = mass;
  b.inertia = mp.inertia * (mass / mp.volume);
  b.mu = 0.0;
  return w.add(b, tip + mp.centroid);
}

}  // namespace pegsim::test
