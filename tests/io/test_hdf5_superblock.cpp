// The superblock check every HDF5 reader makes before H5Fopen (io/hdf5_superblock.hpp): a
// version-0 superblock whose driver information block lies past the end of the file made
// HDF5 1.10 reserve and zero-fill 4 GB before refusing it.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/fclib_problem.hpp"
#include "io/hdf5_superblock.hpp"
#include "io/run_file_error.hpp"
#include "io/run_reader.hpp"
#include "io/sds_reader.hpp"
#include "io/siconos_lcp.hpp"

namespace pegsim {
namespace {

namespace fs = std::filesystem;

fs::path temp_file(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("pegsim-superblock-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d / name;
}

// A small HDF5 file as libhdf5 writes it by default: a version-0 superblock with 8-byte
// offsets and no driver information block.
fs::path plain_hdf5(const std::string& name) {
  const fs::path p = temp_file(name);
  const hid_t f = H5Fcreate(p.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t n = 4;
  const hid_t s = H5Screate_simple(1, &n, nullptr);
  const hid_t d = H5Dcreate2(f, "x", H5T_NATIVE_DOUBLE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const double x[4] = {1, 2, 3, 4};
  H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
  H5Dclose(d);
  H5Sclose(s);
  H5Fclose(f);
  return p;
}

void write_le(const fs::path& p, std::uint64_t at, std::uint64_t value, int bytes) {
  std::fstream io(p, std::ios::binary | std::ios::in | std::ios::out);
  io.seekp(static_cast<std::streamoff>(at));
  for (int i = 0; i < bytes; ++i) io.put(static_cast<char>((value >> (8 * i)) & 0xff));
}

// Superblock version 0, 8-byte offsets: the driver information block address is the fourth
// address after the 24 fixed bytes.
constexpr std::uint64_t kDriverAddress = 24 + 3 * 8;

TEST(Hdf5Superblock, AFileAsHdf5WritesItPasses) {
  const fs::path p = plain_hdf5("plain.h5");
  EXPECT_EQ(h5::superblock_defect(p), "");
}

TEST(Hdf5Superblock, NotAnHdf5FilePasses) {  // H5Fis_hdf5 refuses it, with its own words
  const fs::path p = temp_file("text.h5");
  std::ofstream(p) << "not hdf5\n";
  EXPECT_EQ(h5::superblock_defect(p), "");
}

TEST(Hdf5Superblock, ADriverBlockLargerThanTheFileIsRefused) {
  const fs::path p = plain_hdf5("driver_size.h5");
  const std::uint64_t size = fs::file_size(p);
  write_le(p, kDriverAddress, 255, 8);   // the block at byte 255 ...
  write_le(p, 255 + 4, 0xfffffff0u, 4);  // ... of 4 GB
  const std::string defect = h5::superblock_defect(p);
  EXPECT_EQ(defect,
            "the superblock's driver information block (4294967280 bytes at byte 255) "
            "lies past the end of the file (" +
                std::to_string(size) + " bytes)");
}

TEST(Hdf5Superblock, ADriverBlockAddressPastTheEndIsRefused) {
  const fs::path p = plain_hdf5("driver_address.h5");
  write_le(p, kDriverAddress, 1u << 30, 8);
  EXPECT_NE(h5::superblock_defect(p).find("lies past the end of the file"), std::string::npos);
  write_le(p, kDriverAddress, ~std::uint64_t{0} - 4, 8);  // base + address wraps around
  EXPECT_NE(h5::superblock_defect(p).find("lies past the end of the file"), std::string::npos);
}

TEST(Hdf5Superblock, ADriverBlockInsideTheFilePasses) {  // HDF5 then judges its contents
  const fs::path p = plain_hdf5("driver_inside.h5");
  write_le(p, kDriverAddress, 255, 8);
  write_le(p, 255 + 4, 16, 4);
  EXPECT_EQ(h5::superblock_defect(p), "");
}

// Every reader refuses such a file with its own error, naming the file, before HDF5 reads it.
TEST(Hdf5Superblock, EveryReaderRefusesTheFileFoundByTheFuzzer) {
  const fs::path p =
      fs::path(PEGSIM_SOURCE_DIR) / "tests/io/data/fuzz/fclib/driver_block_of_4_gb.hdf5";
  ASSERT_TRUE(fs::exists(p));
  const std::string damaged = p.string() + ": damaged HDF5 file: the superblock's driver";
  try {
    read_fclib_local(p);
    ADD_FAILURE() << "read_fclib_local accepted it";
  } catch (const ProblemFileError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(damaged, 0), 0u) << e.what();
  }
  EXPECT_FALSE(is_fclib_file(p));
  try {
    const RunReader reader(p);
    ADD_FAILURE() << "RunReader accepted it";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find("damaged HDF5 file: the superblock's driver"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(is_sds_file(p));
  try {
    const SdsReader reader(p);
    ADD_FAILURE() << "SdsReader accepted it";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find("damaged HDF5 file: the superblock's driver"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace pegsim
