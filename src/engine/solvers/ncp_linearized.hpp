// The NCP's contacts with the round Coulomb cone replaced by a polygon: the LCP of thesis (6.1)
// ((2.21)-(2.27) with n_d directions d_k = cos(2 pi k / n_d) t + sin(2 pi k / n_d) o, 2D: +-t),
// built from the NCP itself. Lemke settles its combinatorics (which contacts carry load, stick or
// slide) where the Newton methods on the NCP stall on a pile's degenerate contact sets; its
// answer mapped back to the round cone is a start from which Newton finishes (pour20's pile,
// docs/solvers.md). With z_ncp = P z_lcp on the impulses (p_n, and p_t, p_o = sum_k beta_k d_k),
//   M_lcp = P^T M P + [E, -E^T, U of each cone's slip row],   q_lcp = P^T q.
#pragma once

#include "engine/solvers/lcp.hpp"
#include "engine/solvers/ncp.hpp"

namespace pegsim {

struct LinearizedNcp {
  Lcp lcp;       // blocks [p_n, beta_1 .. beta_nd, s] per cone, one row per other NCP row
  SparseMatX P;  // NCP impulses from the LCP's unknowns (the slip speeds map to nothing)
};

// The polygonal LCP of `ncp` with `directions` friction directions per 3D cone (a 2D cone, one
// tangent, always has the two, +-t), the polygon turned by `rotation` (rad) in each tangent
// plane: d_k at angle 2 pi k / n_d + rotation from t.
void linearize_ncp(const Ncp& ncp, int directions, LinearizedNcp& out, double rotation = 0.0);

// The NCP point of an LCP answer: z = P z_lcp, each cone's sigma = |u_t| (set_slip_speeds).
void ncp_point(const Ncp& ncp, const LinearizedNcp& linearized, const VecX& z_lcp, VecX& z);

}  // namespace pegsim
