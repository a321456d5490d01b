// Joint limits (beyond RPIsim, whose joints have none: user guide §4.4.1) as unilateral
// constraints: each finite bound of a joint coordinate is one row of the LCP, complementary
// like a frictionless contact's normal row (2.27):
//   0 <= gap / h + G^T nu^{l+1}  _|_  p >= 0,
// gap = x - lower or upper - x, G^T nu = d gap / dt (joint_rates.hpp).
#pragma once

#include <vector>

#include "engine/core/model.hpp"
#include "engine/core/state.hpp"

namespace pegsim {

struct LimitRow {
  int joint = -1;
  bool angle = true;             // the angle's bound (rad), else the displacement's (m)
  bool upper = false;            // the upper bound, else the lower one
  int body_a = -1, body_b = -1;  // dynamic body index, -1 for world or static
  Vec6 G_a = Vec6::Zero(), G_b = Vec6::Zero();  // [linear; angular]
  double gap = 0.0;                             // distance to the bound, rad or m; < 0 past it
  // The signed impulse on the coordinate per unit of row impulse: +1 (lower bound pushes the
  // coordinate up) or -1.
  double sign() const { return upper ? -1.0 : 1.0; }
};

// Appends a row for every finite bound of every joint with a dynamic body.
void joint_limit_rows(const Model& model, const State& state, std::vector<LimitRow>& rows);

}  // namespace pegsim
