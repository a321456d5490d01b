// Stage 5 for Formulation::Ncp: the step's NCP with the quadratic (exact) Coulomb cone, thesis
// (2.18)-(2.20), and with a contact model's I- and X-constraints PEG's (4.30)-(4.40).
#pragma once

#include "engine/formulation/stewart_trinkle.hpp"

namespace pegsim {

// Builds problem.ncp from the problem assembled under Formulation::Ncp (assemble_stewart_trinkle
// or assemble_constraint_problem): its LCP then holds the linear part only, the rows being, per
// contact block [p_n ; p_t (; p_o) ; sigma]
//   p_n:    psi/h + G_n^T nu^{l+1}                        (2.27), 0 <= . _|_ p_n >= 0
//   p_t:    u_t = G_t^T nu^{l+1}, F = mu p_n u_t + p_t sigma = 0        (2.18), (2.19)
//   sigma:  F = mu p_n - |p_t| (the cone (2.20), ncp.hpp), 0 <= . _|_ sigma >= 0  (4.39)/(4.40)
// then the joint-limit rows and PEG's slack rows (4.33)-(4.36), linear and on [0, inf) as in
// the LCP; nu^{l+1} has the joints eliminated as in Stewart–Trinkle (4.30), (4.31). The cones
// are those of the primary contacts, as (4.37)-(4.40) augment U.
void assemble_ncp(ContactProblem& problem);

}  // namespace pegsim
