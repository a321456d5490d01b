// `pegsim-cli export --csv`: a run file as CSV files, one trajectory per body and the contacts.
#pragma once

#include <filesystem>
#include <vector>

#include "io/run_reader.hpp"

namespace pegsim::cli {

// Writes DIR/<body>.csv (frame, time, x, y, z, qw, qx, qy, qz per frame) for every body and
// DIR/contacts.csv (one row per contact of every frame) and DIR/sm_traps.csv (one row per
// SM trap of every frame, its facets and contacts as ';'-separated lists). Creates DIR if needed.
// Throws std::runtime_error naming the file if one exists and !overwrite (before writing anything),
// or if it cannot be written. Returns the files written.
std::vector<std::filesystem::path> export_csv(const RunReader& reader,
                                              const std::filesystem::path& dir, bool overwrite);

}  // namespace pegsim::cli
