// Checks of an HDF5 file's superblock that HDF5 1.10 does not make before it trusts it.
// Private to src/io.
#pragma once

#include <filesystem>
#include <string>

namespace pegsim::h5 {

// "" when the superblock (version 0 or 1, File Format Specification §II.A) holds nothing HDF5
// would read past the end of the file, else what is wrong. A version 0/1 superblock may point
// to a driver information block (§II.B) whose 4-byte size HDF5 trusts: a damaged address or
// size makes H5Fopen reserve and zero-fill up to 4 GB before refusing the file (a defect found
// by fuzz_fclib). Files that are no HDF5 files, or whose superblock is of version 2 or 3, pass:
// HDF5 itself refuses what is wrong with them. Call it before H5Fopen on a file not trusted.
std::string superblock_defect(const std::filesystem::path& file);

}  // namespace pegsim::h5
