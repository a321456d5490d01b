// Stage 5 for a ConstraintSet: the Stewart–Trinkle problem with U-, I- and X-constraints and
// a linearized friction cone, thesis (4.41)-(4.49), as one LCP in the single-primary form.
#pragma once

#include <vector>

#include "engine/core/constraint_set.hpp"
#include "engine/formulation/stewart_trinkle.hpp"

namespace pegsim {

// The LCP, rows in this order:
//  * one block [p_n ; p_f,1 .. p_f,n_d ; s] per group, for the group's primary contact,
//    exactly as (6.1): the U-constraints (4.43), the primaries of the I- and X-constraints
//    (4.45)/(4.47) and the friction of every primary (4.48)/(4.49);
//  * then, per I- or X-constraint of k + 1 contacts (primary first), the k slack variables
//    c_2 .. c_{k+1} of (4.10) with the rows (4.44)/(4.46):
//      0 <= (c_2 + .. + c_j) + (psi_1 - psi_j)/h + (G_1 - G_j)^T nu  _|_  c_j >= 0,
//    G_1 - G_j being the Jacobian difference (4.29); and the primary's normal row gains
//    E_I2 c = c_2 + .. + c_{k+1}, so that it reads (4.14): 0 <= max_j psi_j  _|_  p_I >= 0.
// The slack variables carry no force, so contact_velocities applies unchanged. With only
// U-constraints this is exactly assemble_stewart_trinkle over the enforced contacts.
//
// The several-primaries form (4.10)-(4.13) is not an LCP: (4.11), c_sum + psi_1 >= 0, is an
// inequality with no complementary variable (a linear program with complementarity
// constraints); free rows of an MCP do not express it either. Each group therefore has one
// primary (constraint_groups.hpp).
void assemble_constraint_problem(const Model& model, const State& state, const Settings& settings,
                                 const std::vector<Contact>& contacts, const ConstraintSet& set,
                                 std::vector<int>& primaries, ContactProblem& problem);

// Number of slack rows (4.10) the set adds to the problem.
int slack_rows(const ConstraintSet& set);

// A contact's gap at the end of the step to first order, over h, in the units of the
// problem's rows (m/s): psi/h + G^T nu (thesis (2.25)), or G^T nu alone under anitescu-potra,
// which drops the gap term. `velocity` holds [v; w] per body, as contact_velocities fills it.
double end_gap_rate(const Model& model, const State& state, const Settings& settings,
                    const Contact& contact, const VecX& velocity);

}  // namespace pegsim
