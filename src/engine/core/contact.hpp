// A contact: the 5-tuple {A, B, p_a, n, psi} of thesis §2.1.2 plus the features that made it.
#pragma once

#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// Vertex and Edge index a polytope's or a polygon's vertices and edges (Polygon: edge e joins
// vertices e and e + 1); Circle and HalfPlane are the 2D smooth features.
enum class FeatureKind { Vertex, Edge, Face, Sphere, Plane, Circle, HalfPlane };

struct Feature {
  FeatureKind kind = FeatureKind::Vertex;
  int index = -1;  // vertex / edge / face index in the body's polytope or polygon; else -1
};

struct Contact {
  int body_a = -1, body_b = -1;
  Feature feature_a, feature_b;
  // The convex part of a compound body whose feature this is (thesis §4.5); -1 otherwise.
  // Feature indices count within that part's polytope.
  int part_a = -1, part_b = -1;
  Vec3 point_a = Vec3::Zero();  // world point on A
  Vec3 normal = Vec3::UnitZ();  // unit, from A onto B
  double gap = 0.0;             // psi: positive when separated; p_b = p_a + gap * normal
  double applicability = 1.0;   // APPL value of (3.3)-(3.5) (1 for smooth shapes)
  bool applicable = true;       // APPL >= eps_theta
  bool feasible = true;         // feasibility test of §3.3
  // A volumetric contact (contact model volumetric, seed 002): the pair's common volume (planar:
  // area), the rate -dV/dd at which separating the pair shrinks it (m^2; planar: m), and the
  // pair's layer (VolumetricLayer). The gap is -V / rate, the mean depth. stiffness 0: rigid.
  double volume = 0.0;
  double volume_rate = 0.0;
  double stiffness = 0.0;  // k_v, N/m^3 (planar: N/m^2)
  double damping = 0.0;    // a, s/m
  // The common volume's inertia about its centroid at unit density (m^5; planar m^4), and the
  // layer's tilt stiffness per unit k_v (m^4; planar m^3, about z): turning B by theta about an
  // axis across the normal, relative to A, gives the force k_v V the moment -k_v tilt theta
  // (IntersectionProperties::tilt_a; for a flat patch tr P - P, for a round body 0).
  Mat3 volume_inertia = Mat3::Zero();
  Mat3 tilt = Mat3::Zero();
  // The patch's mean distance from the centroid's axis (m), the lever of Coulomb friction about
  // the normal, and the pair's VolumetricLayer::spin_speed (m/s; 0: Coulomb's law).
  double spin_radius = 0.0;
  double spin_speed = 0.0;
  // The pair's stiction bristle (k_s N/m, c_s N s/m; k_s 0: rigid stiction) and its stretch at
  // the start of the step, B's contact point from its anchor, across the normal (m).
  double stick_stiffness = 0.0;
  double stick_damping = 0.0;
  Vec3 anchor = Vec3::Zero();

  bool primary() const { return applicable && feasible; }
  Vec3 point_b() const { return point_a + gap * normal; }
};

const char* to_string(FeatureKind k);

}  // namespace pegsim
