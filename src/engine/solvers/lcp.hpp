// The linear complementarity problem 0 <= z  _|_  w = M z + q >= 0.
#pragma once

#include "engine/core/math.hpp"

namespace pegsim {

struct Lcp {
  MatX M;
  VecX q;
  int size() const { return static_cast<int>(q.size()); }
};

// Natural-map residual ||min(z, M z + q)||_inf: zero exactly at a solution.
double natural_residual(const Lcp& lcp, const VecX& z);

}  // namespace pegsim
