// Reader for Siconos' LCP test-problem files (.dat), dense and sparse-block storage.
#pragma once

#include <filesystem>
#include <stdexcept>

#include "engine/solvers/lcp.hpp"

namespace pegsim {

struct ProblemFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Reads n, the storage flag and M (column-major!) and q. Throws ProblemFileError naming the file
// and what was expected where it is malformed or truncated.
Lcp read_siconos_lcp(const std::filesystem::path& file);

}  // namespace pegsim
