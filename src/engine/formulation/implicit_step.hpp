// The geometrically implicit time step of Chakraborty, Berard, Akella and Trinkle (seed 001):
// the contact geometry is not frozen at the start of the step. Per pair of smooth convex
// bodies the closest points a1, a2 at the END of the step, the multipliers l1, l2, the normal
// impulse p_n, the friction impulses p_t, p_o and the torsional p_r are unknowns beside the
// bodies' velocities, and the whole step is one mixed NCP, the paper's (21)-(22):
//   M (nu+ - nu) = W_n p_n + W_t p_t + W_o p_o + W_r p_r + h (f_app + f_vp)       Newton-Euler
//   a1 - a2 + l1 grad f(a1) = 0,  grad f(a1) + l2 grad g(a2) = 0              Prop. 1 (15), (16)
//   q = Pi(q - r E W^T nu+), q = (p_t/e_t, p_o/e_o, p_r/e_r), Pi onto |q| <= mu p_n
//                                            the ellipsoidal law (5) with maximal dissipation (7)
//   0 <= l1 _|_ -f(a1) >= 0,  0 <= l2 _|_ -g(a2) >= 0,  0 <= p_n _|_ f(a2) >= 0   (17)-(19)
// The friction rows are (5) and (7) in projection form (the same solutions; the paper's form
// is singular wherever p_n = 0), with r the pair's reduced mass. That form needs no slip
// measure: sigma = |E W^T nu+| of (7) is evaluated at the answer, not solved for (as an unknown,
// its row |E s| has no derivative where a contact sticks, and it slowed Newton there).
// f and g are body a's and body b's functions at their poses at the end of the step,
// x+ = x + h v+, R+ = exp(h [omega+]) R (the paper's q+ = q + h G(q) nu+, with the rotation kept
// a rotation: the bodies end the step exactly where the constraints put them, so the
// end-of-step non-penetration holds to the solver's tolerance). The wrenches W are taken at the
// end-of-step points, the normal is grad f(a1) / |grad f(a1)| (from a onto b), the mass matrix,
// applied and gyroscopic forces at the start of the step, as in the paper's Euler scheme (6).
// Bodies of several functions (§4.3): a body is the union of convex pieces, each the
// intersection of C^2 convex functions (a polytope of its face planes). A pair joins a piece of a
// (functions f_1..f_m) with a piece of b (g_1..g_n). Where a's piece is one function, the
// paper's case (§7), Proposition 3 replaces (16), (18) and (19) by
//   grad f(a1) + sum_j l_j grad g_j(a2) = 0,  0 <= l_j _|_ -g_j(a2) >= 0,      (29), (31)
//   0 <= p_n _|_ f(a2) >= 0.                                                              (32)
// Where both pieces have several functions the paper needs an active function f_k1 of a's whose
// multiplier scales the others ((28)-(29), l_k1 = 1), and calls choosing it when it changes
// within a step a research problem. Here every function of a's piece keeps its own multiplier,
// normalized instead by their sum:
//   a1 - a2 + l1 N = 0,  N + sum_j l_j grad g_j(a2) = 0,  N = sum_i l_i grad f_i(a1),
//   sum_i l_i = 1,  0 <= l_i _|_ -f_i(a1) >= 0,  0 <= l_j _|_ -g_j(a2) >= 0,
//   0 <= p_n _|_ l1 |N| >= 0:
// (28)-(31) with l_i scaled by 1 / sum l_i in place of 1 / l_k1, so that complementarity puts the
// weight on the functions active at a1 and no k1 is chosen, and with the distance l1 |N| =
// |a1 - a2| as the gap of (32). Proposition 3's proof carries over: N lies in a's normal cone at
// a1 (some l_i > 0, so a1 is on a's surface), l1 >= 0 puts a2 on the outer side of N, and a1 = a2
// when p_n > 0, with N a common normal by (29) and (31).
// The quasi-rigid extension (§5, (33)-(38)) gives body b of a pair a compliant shell over a
// rigid core: a2 lies on b's deformed surface g + delta-bar_n = 0, the deflection delta_n along
// b's normal reaches the undeformed surface (35), the shell pushes with the spring-damper
// impulse (p_ns, p_t, p_o) = h K delta + C (delta - delta^l) on delta = (delta_n, delta_t,
// delta_o) (37) and the core's p_nr holds delta_n <= delta_n^max. The tangential deflections
// delta_t, delta_o are unknowns where K or C reach beyond the normal; the friction law (5), (7)
// still bounds p_t, p_o, and delta_t, delta_o follow from them (the paper gives them no other
// equation); through K's and C's coupling entries they change the normal force.
// Solved by the semismooth Newton method of mcp_newton.hpp with the Jacobian from automatic
// differentiation of each pair's equations.
// Planar mode (dimension 2): bodies in the x-y plane, nu = (v_x, v_y, omega_z), points in the
// plane, friction p_t only (the paper's Example 1, (41)-(47)).
#pragma once

#include <vector>

#include <span>
#include "engine/core/body.hpp"
#include "engine/core/math.hpp"

#include "engine/geometry/implicit_convex.hpp"
#include "engine/geometry/implicit_function.hpp"
#include "engine/solvers/mcp_newton.hpp"

namespace pegsim {

struct ImplicitBody {
  double mass = 1.0;
  Mat3 inertia = Mat3::Identity();  // body frame, about the centre of mass
  bool is_static = false;
  Vec3 position = Vec3::Zero();
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero();                      // world
  Vec3 angular_velocity = Vec3::Zero();              // world
  Vec3 force = Vec3::Zero(), torque = Vec3::Zero();  // applied besides gravity, world
  ImplicitFunction shape;
  // A body that is not one function: the union of convex pieces (a non-convex body, the paper's
  // gear of §6.4), each the intersection of its functions (§4.3). Empty: the body is `shape`.
  std::vector<ImplicitConvex> pieces;
  // Planar: friction against a supporting table (the 2.5D model of §6.4).
  SupportFriction support;
  // A body on a prismatic joint to the world (the paper's gripper fingers, §6.4): it only
  // translates, along this unit axis (world); zero: free.
  Vec3 slide_axis = Vec3::Zero();
};

// The body's convex pieces (`shape` alone when it has no pieces), and piece i's functions.
int piece_count(const ImplicitBody& b);
std::span<const ImplicitFunction> piece_functions(const ImplicitBody& b, int piece);
// A piece as an ImplicitConvex (a copy for a body of one function).
ImplicitConvex piece_convex(const ImplicitBody& b, int piece);

struct ImplicitPair {
  int a = 0, b = 1;  // bodies; the normal points from a onto b
  double mu = 0.0;
  // e_t, e_o, e_r of the ellipsoidal friction law (5); e_r = 0: no torsional friction.
  Vec3 e = Vec3::Ones();
  // Body b's quasi-rigid shell (the paper's flexible body 2, §5.1; body a stays rigid).
  QuasiRigidShell shell;
  int piece_a = 0, piece_b = 0;  // the bodies' convex pieces (piece_count)
  // Anisotropic friction (e_t != e_o): t is this axis (world) projected on the contact plane.
  // Zero: t = k x n / |k x n| with k the axis least aligned with the starting normal.
  Vec3 tangent_axis = Vec3::Zero();
};

// A pair's unknowns at the end of the step (and the start of the next step's solve).
struct ImplicitContact {
  Vec3 a1 = Vec3::Zero(), a2 = Vec3::Zero();  // closest points on a and on b, world
  // l1 the multiplier of a's function in (15) (with several: of N, (28)); l2 the multiplier of
  // b's function in (16) (with several: the largest).
  double l1 = 0.0, l2 = 1.0;
  // Pieces of several functions (Prop. 3): a's multipliers (summing to 1) and b's, one per
  // function; empty on a pair of one function each.
  std::vector<double> l_a, l_b;
  double p_n = 0.0, p_t = 0.0, p_o = 0.0, p_r = 0.0;  // impulses, N s (p_r: N m s)
  double sigma = 0.0;                                 // slip measure |E W^T nu+|, m/s
  // Quasi-rigid pairs: the deflection delta_n (m), the algebraic offset delta-bar_n of the
  // deformed surface g + delta-bar_n = 0, and the core's share p_nr of p_n (p_n = p_ns + p_nr).
  double deflection = 0.0, offset = 0.0, p_core = 0.0;
  // A tangential shell's deflections delta_t, delta_o along tangent and o (m; 0 on the others).
  double deflection_t = 0.0, deflection_o = 0.0;
  Vec3 normal = Vec3::UnitZ();   // grad f(a1) / |grad f(a1)|, from a onto b
  Vec3 tangent = Vec3::UnitX();  // t of p_t (o = normal x tangent)
  // f(a2): body a's function at b's closest point (on a quasi-rigid pair, b's point on its
  // deformed surface).
  double gap = 0.0;
  bool started = false;  // holds a solved step's values (warm start)

  // The tangential deflection delta_t t + delta_o o as a world vector, m.
  Vec3 tangential_deflection() const {
    return deflection_t * tangent + deflection_o * normal.cross(tangent);
  }
};

struct ImplicitStepOptions {
  int dimension = 3;  // 2: planar (x-y plane)
  double h = 0.01;
  Vec3 gravity{0.0, 0.0, -9.81};
  McpNewtonOptions solver;
  // Where Newton finds no answer at h, the step is taken as two of h / 2, each split again, down
  // to h / 2^max_halvings (0: fail at h).
  int max_halvings = 3;
  // Where no answer is found at any of those, end the step at the iterate of least residual of
  // the attempts at h (FailurePolicy::Continue) instead of leaving the bodies where they were.
  bool take_best = false;
};

struct ImplicitStepReport : McpNewtonReport {
  int substeps = 1;        // the step was taken as this many steps (h / 2^k each, in order)
  bool took_best = false;  // unsolved, ended at the best iterate (take_best)
};

// One step: on success the bodies hold their poses and velocities at the end of the step and
// `contacts` (one per pair, resized) the pairs' unknowns; on failure the bodies are unchanged
// (or, with take_best, at the best iterate's end of step) and the report is the attempt at h.
ImplicitStepReport implicit_step(std::vector<ImplicitBody>& bodies,
                                 const std::vector<ImplicitPair>& pairs,
                                 std::vector<ImplicitContact>& contacts,
                                 const ImplicitStepOptions& options);

// Unknowns of the step's mixed NCP: 6 per moving body and 12 per pair (planar: 3 and 8, and 3
// more per body on a supporting table: its friction impulses p_x, p_y, p_z; per body on a
// prismatic joint to the world the impulses that hold it, 5 (planar 2)), one
// more per function beyond the first on each of the pair's pieces, 3 more per quasi-rigid pair
// (delta-bar_n, delta_n, p_nr) and 2 (planar 1) more on a tangential shell (delta_t, delta_o).
int implicit_problem_size(const std::vector<ImplicitBody>& bodies,
                          const std::vector<ImplicitPair>& pairs, int dimension);

// The most functions a pair's two pieces may have together (the size of the derivative vectors
// of its equations).
inline constexpr int kMaxPairFunctions = 96;

// Kinetic energy of the bodies, J.
double implicit_kinetic_energy(const std::vector<ImplicitBody>& bodies);

}  // namespace pegsim
