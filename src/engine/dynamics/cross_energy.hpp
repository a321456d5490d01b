// The kinetic energy a step's impulses add, against what removing the step's overlaps needs: a
// check on an answer of PEG's LCP with X-constraints (thesis §4.2.3).
//
// The bound. With nu+ = nu_free + W G lambda (W = M^-1, G every column the answer loads), the
// impulses change the kinetic energy by
//   dKE = lambda^T G^T nu+ - 1/2 |W G lambda|_M^2.
// Each term of lambda^T G^T nu+ is a row of the LCP times its complementary variable:
//  * friction (6.1): beta^T D^T nu+ = -sigma e^T beta = -sigma mu p_n <= 0 (the NCP's maximal
//    dissipation likewise), so friction only removes energy;
//  * a loaded primary's normal row (4.43)/(4.45)/(4.47), as assembled (constraint_problem.hpp):
//    psi_i / h + G_i^T nu+ + (E_I2 c)_i = w_i with |w_i| <= the solver's tolerance tol (the
//    natural-map residual) and c >= 0, so G_i^T nu+ <= d_i / h + tol, d_i = max(0, -psi_i) the
//    primary's depth at the start of the step; the slack variables c carry no force.
// Take any velocity t that opens every loaded primary at G_i^T t >= d_i / h + tol and slides
// none of the loaded contacts (D_i^T t = 0). Then lambda^T G^T nu+ <= lambda^T G^T t =
// (W G lambda)^T M t, and with u = W G lambda,
//   dKE <= u^T M t - 1/2 |u|_M^2 <= 1/2 |t|_M^2:
// the impulses add at most the kinetic energy of the cheapest such motion. Without overlap
// (d = 0) that is the residual's ~ 1/2 M tol^2; the energy comes from the gap terms psi / h of
// primaries that start penetrated. When loaded primaries ask one pair to separate along nearly
// opposite normals — two X-constraints written as I-constraints (§4.2.3: "there is no argument
// for incorporating contact forces directly into a X-constraint") — every such t is a fast
// rotation, unbounded as the normals become opposite, and so can lambda and dKE be
// (tests/data/polyhedra_pour_thrown.json: 1.7e4 J where the overlaps need 62 J, a body thrown
// out at 30 m/s).
// Joints (bilateral rows with their own right-hand side, joint limits) are not in the bound.
//
// `need` is an estimate of min 1/2 |t|_M^2, not a bound: solving that QP per step is what the
// check avoids. Per set of dynamic bodies joined by loaded primaries (or joints), every body of
// the set moves at D / h + |g| h + tol: D sums over the set's pairs of bodies their deepest
// loaded primary, which is what a chain of bodies each pushed straight out of the one below
// needs by translations alone; |g| h, one step of gravity's speed, is a floor for sets without
// overlap, where rounding and the residual (tol times the impulses) are all the gain. A rotation
// can remove an overlap more cheaply, and normals that are not aligned can need more. Nor does
// the estimate tell the X-constraints' own demands from the rest: deep (edge-line) X primaries
// raise D, and a pile whose opposed X primaries are themselves deep can hide a thrown body.
//
// Measured on the full pours: docs/contact-models.md, "The energy check measured".
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/core/contact.hpp"
#include "engine/core/math.hpp"
#include "engine/core/model.hpp"
#include "engine/core/settings.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

// The factor over `need` an answer with X-constraints may add (Simulator: beyond it the step is
// solved again without its X-constraints). Chosen from the pours (docs/contact-models.md): above
// every 2D step (<= 3.9), below every 3D step that throws a body above 30 m/s (24 to 3.9e6); 2D's
// one such step, at 2.8, is out of its reach.
inline constexpr double kCrossEnergyMargin = 10.0;

// Of the set with the largest gain / need.
struct CrossEnergy {
  double gain = 0.0;  // J: KE(velocity) - KE(free_velocity), the work of the step's impulses
  double need = 0.0;  // J: 1/2 M (D / h + |g| h + tolerance)^2, see above
};

// Reused from step to step (no allocation once sized).
struct CrossEnergyWorkspace {
  struct Pair {
    int a, b;
    double depth;
  };
  std::vector<int> parent;
  std::vector<double> gain, mass, depth;
  std::vector<Pair> pairs;
};

// `set` holds the solved groups with their impulses (Simulator::fill_impulses); `free_velocity`
// and `velocity` hold [v; w] per body (ContactProblem::free_velocity, contact_velocities). The
// kinetic energy uses the world inertia at `state`, as the step's M does. {0, 0} if no primary
// is loaded.
CrossEnergy cross_energy(const Model& model, const State& state, const Settings& settings,
                         const std::vector<Contact>& contacts, const ConstraintSet& set,
                         const VecX& free_velocity, const VecX& velocity,
                         CrossEnergyWorkspace& work);

}  // namespace pegsim
