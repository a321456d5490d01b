// Reader for Siconos' MLCP test-problem files (.dat): A u + C v + a = 0, 0 <= D u + B v + b _|_ v
// >= 0, returned as our MCP (lcp.hpp) with free rows (l = -inf, u = +inf) for the equalities.
#pragma once

#include <filesystem>

#include "engine/solvers/lcp.hpp"
#include "io/siconos_lcp.hpp"

namespace pegsim {

// Reads the block form (M, q with blocksRows / blocksIsComp) when it is present and square,
// else the A, B, C, D form (unknowns [u; v]); when both are there they must agree. Throws
// ProblemFileError naming the file, the line and what was expected.
Lcp read_siconos_mlcp(const std::filesystem::path& file);

}  // namespace pegsim
