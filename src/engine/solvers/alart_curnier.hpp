// Alart & Curnier's equations of frictional contact ("A mixed formulation for frictional contact
// problems prone to Newton like solution methods", CMAME 92, 1991): the NCP with the quadratic
// cone (ncp.hpp, thesis (2.18)-(2.20)) written as a system G(z) = 0 of projections, with w = M z +
// q and per-row scales r > 0 (r = 1 / M_ii, so that z and r w are of one size):
//   row on [0, inf):   G_i = min(z_i, r_i w_i)                   p_n = max(0, p_n - r w_n)
//   free row:          G_i = r_i w_i
//   a cone's tangents: G_t = p_t - proj_{|.| <= mu p_n}(p_t - r_t u_t)
//   a cone's slip row: G_s = sigma - |u_t|
// Each zero solves (2.18)-(2.20): inside the disc u_t = 0 (stick, sigma = 0); on its edge
// p_t = -mu p_n u_t / |u_t| (maximal dissipation), so mu p_n u_t + p_t sigma = 0 with
// sigma = |u_t| and mu p_n - |p_t| = 0. Unlike F's rows (2.18), (2.19), which vanish for any p_t
// at a contact without load (p_n = sigma = 0), G_t pins p_t to the disc there, and sigma's
// column is never empty: no false minima from unloaded contacts (pour20; docs/solvers.md).
#pragma once

#include <vector>

#include "engine/core/math.hpp"
#include "engine/solvers/ncp.hpp"

namespace pegsim {

class AlartCurnier {
 public:
  // The scales r of `ncp` (the cone's tangents share one, tangents / trace M_tt).
  void prepare(const Ncp& ncp);
  // G(z) into G (resized), given w = M z + q.
  void residual(const Ncp& ncp, const VecX& z, const VecX& w, VecX& G) const;
  // An element of G's generalized Jacobian at z into J, given w = M z + q; J's pattern is
  // ncp_jacobian_pattern's (ncp.hpp) for this NCP's M.
  void jacobian(const Ncp& ncp, const VecX& z, const VecX& w, JacobianRows& J) const;

 private:
  VecX r_;
  std::vector<char> cone_row_;  // 1 on a cone's tangent and slip rows (written per cone)
};

}  // namespace pegsim
