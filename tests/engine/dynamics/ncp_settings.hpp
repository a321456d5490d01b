// The solvers that take formulation ncp (thesis (2.18)-(2.20)) and the settings the NCP tests
// run them with: no fallback, so the named solver answers every step.
#pragma once

#include <string>
#include <vector>

#include "engine/core/settings.hpp"

namespace pegsim::test {

inline const std::vector<std::string> kNcpSolvers{"fischer-newton", "minmap-newton", "fixed-point",
                                                  "path"};

inline Settings ncp_settings(const std::string& solver) {
  Settings s;
  s.formulation = Formulation::Ncp;
  s.solver = solver;
  s.fallbacks = {};
  s.tolerance = 1e-12;
  s.max_iterations = 100000;  // the fixed point's sweeps
  return s;
}

}  // namespace pegsim::test
