// The polygonal LCP of an NCP (ncp_linearized.hpp).
#include "engine/solvers/ncp_linearized.hpp"

#include <cmath>
#include <vector>

namespace pegsim {

void linearize_ncp(const Ncp& ncp, int directions, LinearizedNcp& out, double rotation) {
  const int n = ncp.size();
  std::vector<int> cone_at(static_cast<std::size_t>(n), -1);  // the cone whose normal row it is
  for (std::size_t k = 0; k < ncp.cones.size(); ++k)
    cone_at[static_cast<std::size_t>(ncp.cones[k].normal)] = static_cast<int>(k);
  std::vector<Eigen::Triplet<double>> p, constants;
  Lcp& lcp = out.lcp;
  lcp = Lcp{};
  int row = 0;
  for (int i = 0; i < n;) {
    lcp.block_starts.push_back(row);
    const int k = cone_at[static_cast<std::size_t>(i)];
    if (k < 0) {  // a row without a cone (joint limit, PEG slack): as it is
      p.emplace_back(i, row++, 1.0);
      ++i;
      continue;
    }
    const FrictionCone& c = ncp.cones[static_cast<std::size_t>(k)];
    const int nd = c.tangents == 1 ? 2 : directions;
    const int s = row + 1 + nd;  // the slip row
    p.emplace_back(c.normal, row, 1.0);
    for (int d = 0; d < nd; ++d) {
      const double angle = 2.0 * M_PI * d / nd + rotation;
      if (c.tangents == 1) {
        p.emplace_back(c.normal + 1, row + 1 + d, d == 0 ? 1.0 : -1.0);
      } else {
        p.emplace_back(c.normal + 1, row + 1 + d, std::cos(angle));
        p.emplace_back(c.normal + 2, row + 1 + d, std::sin(angle));
      }
      constants.emplace_back(row + 1 + d, s, 1.0);   // E
      constants.emplace_back(s, row + 1 + d, -1.0);  // -E^T
    }
    constants.emplace_back(s, row, c.mu);  // U
    row = s + 1;
    i = c.slip() + 1;
  }
  const int m = row;
  out.P.resize(n, m);
  out.P.setFromTriplets(p.begin(), p.end());
  const SparseMatX M =
      ncp.linear.M.size() > 0 ? SparseMatX(ncp.linear.M.sparseView()) : ncp.linear.S;
  SparseMatX E(m, m);
  E.setFromTriplets(constants.begin(), constants.end());
  // P has no entry in a slip column, so P^T M P is zero where E, -E^T and U go.
  lcp.S = SparseMatX(out.P.transpose() * M * out.P) + E;
  lcp.S.prune([](const int&, const int&, const double& v) { return v != 0.0; });
  lcp.q = out.P.transpose() * ncp.linear.q;
}

void ncp_point(const Ncp& ncp, const LinearizedNcp& linearized, const VecX& z_lcp, VecX& z) {
  z = linearized.P * z_lcp;
  VecX w, F;
  ncp.evaluate(z, w, F);
  set_slip_speeds(ncp, w, z);
}

}  // namespace pegsim
