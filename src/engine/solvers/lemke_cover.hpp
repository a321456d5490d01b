// The covering vector d of Lemke's cold start (Cottle, Pang & Stone §4.4: any d > 0), shared by
// the tableau (lemke_tableau.hpp) and the fast path (lemke_revised.hpp) so both take one path.
#pragma once

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

// d_i = 1, except kSlipCover on a row whose diagonal entry of M is zero: the slip rows of the
// Stewart–Trinkle LCP (6.1) (q_i = 0, w_i = mu p_n - sum of the friction impulses). With d_i = 1
// there the path first lifts every slip row's w with z0 and later pivots to take it back; a
// small entry keeps d > 0, so Lemke's secondary-ray argument still holds. On pile40's cold
// starts (567, 1458 and 1908 rows): 328 -> 194, 1181 -> 709 pivots, and one that ran past 5 n
// pivots with d = e answered in 1446.
constexpr double kSlipCover = 1e-3;

template <typename Vec>
void cold_covering_vector(const Lcp& lcp, Vec& d) {
  const int n = lcp.size();
  d.resize(n);
  for (int i = 0; i < n; ++i) d(i) = m_entry(lcp, i, i) != 0.0 ? 1.0 : kSlipCover;
}

}  // namespace pegsim
