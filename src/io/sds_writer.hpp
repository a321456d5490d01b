// Export of a run file to the RPIsim Simulation Data Standard (user guide §8, Table 8.1):
// one group /mbs_frame%06d/{bodies, joints, contacts, solutions} per step (docs/sds.md).
#pragma once

#include <cstdint>
#include <filesystem>

#include "io/run_reader.hpp"

namespace pegsim {

struct SdsExport {
  std::int64_t frames = 0;    // mbs_frame groups written (one per step)
  std::int64_t problems = 0;  // of which hold M, q and the solution
};

// Writes `out` from `reader`. Throws RunFileError naming `out` if it exists and !overwrite,
// or if it cannot be written (a half-written file is removed).
SdsExport export_sds(const RunReader& reader, const std::filesystem::path& out, bool overwrite);

}  // namespace pegsim
