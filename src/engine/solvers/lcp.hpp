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

// Natural-map residual ||min(z, M z + q)||_inf: zero exactly at a solution.
double natural_residual(const Lcp& lcp, const VecX& z);

}  // namespace pegsim
