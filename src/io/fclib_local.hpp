// An FCLib local problem as stored (internal to src/io): its CSparse matrices and vectors, read
// from HDF5 by libfclib after every dataset it reads has been checked, and a byte form in which
// a child process hands it to its parent (fclib_problem.cpp reads FCLib files in a child).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pegsim {

// CSparse conventions, which FCLib follows: nz >= 0 triplet (i = row, p = column, nz entries);
// nz = -1 compressed columns (p: n + 1 pointers, i: rows); nz = -2 compressed rows
// (p: m + 1 pointers, i: columns); x holds nzmax values.
struct FclibMatrix {
  int m = 0, n = 0, nz = 0, nzmax = 0;
  std::vector<int> p, i;
  std::vector<double> x;
};

struct FclibLocal {
  int spacedim = 3;
  FclibMatrix W, V, R;  // V and R empty (m = 0) when the problem has no lambda
  std::vector<double> q, mu, s;
};

// Whether the HDF5 file has an /fclib_local or /fclib_global group (false for a non-HDF5 file).
bool has_fclib_group(const std::filesystem::path& file);
// Reads /fclib_local; throws ProblemFileError naming the file, the dataset and what was
// expected. HDF5 itself may still crash on some damaged files: call it in a child process.
FclibLocal read_stored_fclib_local(const std::filesystem::path& file);

std::string to_bytes(const FclibLocal& problem);
// Throws std::runtime_error when `bytes` is not what to_bytes wrote.
FclibLocal from_bytes(const std::string& bytes);

}  // namespace pegsim
