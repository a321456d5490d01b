// The covering vector d of Lemke's cold start (Cottle, Pang & Stone §4.4: any d > 0), shared by
// the tableau (lemke_tableau.hpp) and the fast path (lemke_revised.hpp) so both take one path.
#pragma once

#include "engine/solvers/lcp_matrix.hpp"

namespace pegsim {

// Lemke's cold start runs from B = I with any d > 0 (the secondary-ray argument holds for each);
// different d take different paths, and a path the fast path's rounding spoils (an end whose
// basis misses the answer by far) is often clean along another:
//  Slip:     d_i = 1, except kSlipCover on a row whose diagonal entry of M is zero: the slip
//            rows of the Stewart–Trinkle LCP (6.1) (q_i = 0, w_i = mu p_n - the friction
//            impulses). With d_i = 1 there the path first lifts every slip row's w with z0 and
//            later pivots to take it back. On pile40's cold starts of 567, 1458 and 1908 rows:
//            194, 709 and 1446 pivots, against 328, 1181 and > 9540 (5 n) with d = e.
//  Unit:     d = e, the classical start.
//  Diagonal: d_i = M_ii, kSlipCover where M_ii = 0 (1 where M_ii < 0, which contact problems do
//            not have, so that d stays positive): each row covered in its own scale. It
//            answered both pile40 problems (2187 and 2259 rows) on which Slip and Unit ended on
//            bases missing the answer by 0.1 to 2600.
enum class Cover { Slip, Unit, Diagonal };
constexpr double kSlipCover = 1e-3;

template <typename Vec>
void cold_covering_vector(const Lcp& lcp, Cover cover, Vec& d) {
  const int n = lcp.size();
  d.resize(n);
  for (int i = 0; i < n; ++i) {
    const double diagonal = m_entry(lcp, i, i);
    if (cover == Cover::Unit)
      d(i) = 1.0;
    else if (diagonal == 0.0)
      d(i) = kSlipCover;
    else
      d(i) = cover == Cover::Slip || diagonal < 0.0 ? 1.0 : diagonal;
  }
}

}  // namespace pegsim
