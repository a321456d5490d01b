// A rigid body of the model: immutable properties (its state lives in State).
#pragma once

#include <cmath>

#include <array>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/math.hpp"
#include "engine/core/shape.hpp"
#include "engine/core/visual_mesh.hpp"

namespace pegsim {

// Whether every entry of m but its (0, 0) is zero (a shell's matrix on the normal alone).
inline bool only_normal_entry(const Mat3& m) {
  Mat3 beyond = m.cwiseAbs();
  beyond(0, 0) = 0.0;
  return beyond.maxCoeff() == 0.0;
}

// A quasi-rigid body's compliant shell over its rigid core (seed 001 §5): the lumped linear
// Kelvin-Voigt model lambda = K delta + C d(delta)/dt of (33) and (37) on the contact's
// deflections delta = (delta_n, delta_t, delta_o) along the normal and the friction directions
// t, o; at delta_n = max_deflection the rigid core takes over (36). A shell with K and C zero
// beyond their (n, n) entries deflects along the normal only. Acts under the geometrically
// implicit formulation; the others treat the body as rigid.
struct QuasiRigidShell {
  Mat3 stiffness = Mat3::Zero();  // K, N/m, rows and columns (n, t, o); K_nn = 0: no shell
  Mat3 damping = Mat3::Zero();    // C, N s/m
  double max_deflection = std::numeric_limits<double>::infinity();  // delta_n^max, m

  // A shell along the normal alone: K_nn = k, C_nn = c.
  static QuasiRigidShell normal(double k, double c = 0.0,
                                double max_deflection = std::numeric_limits<double>::infinity()) {
    QuasiRigidShell s;
    s.stiffness(0, 0) = k;
    s.damping(0, 0) = c;
    s.max_deflection = max_deflection;
    return s;
  }
  bool compliant() const { return stiffness(0, 0) > 0.0; }
  // K or C has an entry beyond (n, n): the shell deflects along t and o too.
  bool tangential() const { return !only_normal_entry(stiffness) || !only_normal_entry(damping); }
};

// Anisotropic friction under the geometrically implicit formulation (seed 001's ellipsoidal law
// (5)): friction along `axis` (body frame, projected on the contact plane) up to e_t mu p_n,
// across it up to e_o mu p_n, within the ellipse |(p_t / e_t, p_o / e_o)| <= mu p_n. A zero
// axis: Coulomb's isotropic law (e_t = e_o = 1).
struct FrictionEllipse {
  Vec3 axis = Vec3::Zero();
  double e_t = 1.0, e_o = 1.0;
  bool anisotropic() const { return !axis.isZero(0.0); }
};

// A planar body sliding on a supporting table, the 2.5D model the paper's grasp uses (seed 001
// §6.4, after Berard et al.): friction against the table up to mu N in the plane and
// torsion_radius mu N about the out-of-plane axis (the ellipsoidal law (5)), N = m g the body's
// weight on the table, the pressure centred under the centre of mass. Under the geometrically
// implicit formulation; mu = 0: none.
struct SupportFriction {
  double mu = 0.0;
  double torsion_radius = 0.0;  // m
  double gravity = 9.81;        // m/s^2, out of the plane
  bool active() const { return mu > 0.0; }
};

// The elastic layer of the volumetric contact model (seed 002 (3.1)): over the common volume V
// of a pair (planar bodies: the common area) the force is F = k_v V (1 + a v_n), v_n the rate
// of approach. A pair's k_v is its bodies' layers in series, 1 / (1 / k_A + 1 / k_B), its a the
// compliance-weighted mean k_v (a_A / k_A + a_B / k_B) (volume_contacts.hpp).
struct VolumetricLayer {
  double stiffness = 1e9;  // k_v, N/m^3 (planar bodies: N/m^2, kPlanarLayerStiffness in scenes)
  double damping = 0.0;    // a, s/m
  // Friction about the normal (3D): 0 for Coulomb's, mu F_n at the patch's spin radius, in the
  // friction cone; v_s > 0 (m/s) for the viscous law of (3.8) in Gonthier's consistent form,
  // tau = -mu (F_n / V) J_n omega_n / v_s (volumetric_rows.hpp). A pair takes the larger v_s.
  double spin_speed = 0.0;
  // Stiction bristles (seed 002 (3.4)-(3.6), (5.2), after Dopico et al. 2011): a spring k_s
  // (N/m) and damper c_s (N s/m) anchored where the contact sticks; 0: rigid stiction (the
  // friction cone alone). A pair takes the stiff sides in series (formulation/bristles.hpp).
  double stick_stiffness = 0.0;
  double stick_damping = 0.0;
};
// The scene files' k_v of a planar body: a unit square resting on a side sinks 1e-6 m per
// 10 N, as a unit cube on the 3D default 1e9 N/m^3 sinks 1e-8 m.
constexpr double kPlanarLayerStiffness = 1e7;

struct Body {
  std::string name;
  Shape shape;
  double mass = 1.0;                // kg; ignored when is_static
  Mat3 inertia = Mat3::Identity();  // body-frame inertia about the CoM, kg m^2
  bool is_static = false;
  double mu = 0.5;  // Coulomb friction coefficient
  // e_r of seed 001's ellipsoidal friction law (5), m: torsional friction about the normal up
  // to e_r mu p_n, the contact patch's effective radius. Under the geometrically implicit
  // formulation; a pair takes the larger of its bodies'. 0: no torsional friction.
  double torsion_radius = 0.0;
  FrictionEllipse friction_ellipse;  // a pair takes its first body's, else its second's
  SupportFriction support;           // planar bodies
  std::array<float, 4> color{0.7f, 0.7f, 0.7f, 1.0f};  // RGBA in [0, 1]
  bool visible = true;
  std::shared_ptr<const VisualMesh> visual;  // drawn in place of the shape; null: the shape
  std::vector<int> no_collide;               // indices of bodies this one never collides with
  // Time at which the body enters the run (thesis §5.2.3-5.2.4: one body poured every 0.25 s).
  // Before it the body is absent: it keeps its initial pose and twist without moving and takes
  // part in no broad phase, contact or overlap.
  double appear_time = 0.0;  // s
  QuasiRigidShell shell;
  VolumetricLayer layer;  // under the volumetric contact model

  // Present in the step (or frame) starting at `time`. The 1 ns slack lets the rounded sum of
  // the steps before appear_time count as reaching it.
  bool present_at(double time) const { return time >= appear_time - 1e-9; }

  double inv_mass() const { return is_static ? 0.0 : 1.0 / mass; }
};

// Friction coefficient of a pair: the geometric mean, so two bodies of equal mu give that mu.
inline double pair_friction(const Body& a, const Body& b) {
  return std::sqrt(a.mu * b.mu);
}

}  // namespace pegsim
