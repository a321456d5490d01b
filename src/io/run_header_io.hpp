// Writing and reading the frame-independent groups of a run file (/, /scene, /settings,
// /bodies; docs/run-format.md). Throws h5::Failure naming the object. Private to src/io.
#pragma once

#include "io/hdf5_handle.hpp"
#include "io/run_data.hpp"

namespace pegsim {

void write_run_header(hid_t file, const RunHeader& header);
// Checks the format name and version first, so that a foreign file fails on that.
RunHeader read_run_header(hid_t file);

}  // namespace pegsim
