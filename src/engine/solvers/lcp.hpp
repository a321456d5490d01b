// The linear complementarity problem 0 <= z  _|_  w = M z + q >= 0.
#pragma once

#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

struct Lcp {
  MatX M;
  VecX q;
  // Optional block structure: the first row of each block, ascending, starting at 0 (e.g. one
  // block per contact: normal, friction directions, slip speed). Empty = every row its own block.
  // Block solvers (PGS) solve each block exactly; rows with a zero diagonal need a block.
  std::vector<int> block_starts;
  int size() const { return static_cast<int>(q.size()); }
};

// Why the LCP cannot be solved as given (M not n x n for q of size n, or a non-finite entry),
// or nullptr when it is well-formed. Every solver checks this first.
const char* lcp_defect(const Lcp& lcp);

// Natural-map residual ||min(z, M z + q)||_inf: zero exactly at a solution.
double natural_residual(const Lcp& lcp, const VecX& z);

// Purification of an approximate solution z (with w = M z + q): on the active set
// A = {i : z_i > w_i} solves M_AA z_A = -q_A (z = 0 elsewhere; minimum norm if M_AA is singular) and writes it to `out` if that
// is a solution within `tolerance`. Ends an iterative method with a pivoting method's accuracy
// once the active set is right.
bool active_set_solution(const Lcp& lcp, const VecX& z, const VecX& w, double tolerance,
                         VecX& out);

}  // namespace pegsim
