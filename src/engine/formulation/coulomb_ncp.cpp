#include "engine/formulation/coulomb_ncp.hpp"

namespace pegsim {

void assemble_ncp(ContactProblem& p) {
  Ncp& ncp = p.ncp;
  ncp.linear.M = p.lcp.M;
  ncp.linear.S = p.lcp.S;
  ncp.linear.q = p.lcp.q;
  ncp.linear.block_starts = p.lcp.block_starts;
  const int n = p.lcp.size();
  ncp.linear.lower.setZero(n);
  ncp.linear.upper.setConstant(n, INFINITY);
  const int nd = p.directions;
  ncp.cones.resize(p.contacts());
  for (int i = 0; i < p.contacts(); ++i) {
    FrictionCone& c = ncp.cones[i];
    c.normal = i * p.block_size();
    c.tangents = nd;
    c.mu = p.mu[i];
    ncp.linear.lower.segment(c.normal + 1, nd).setConstant(-INFINITY);  // p_t, p_o free
  }
}

}  // namespace pegsim
