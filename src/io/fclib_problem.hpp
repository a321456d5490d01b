// FCLib local frictional-contact problems (HDF5, read with Debian's libfclib): find r and
// u = W r + q (+ V lambda, with V^T r + R lambda + s = 0 when V and R are given) with
// r_alpha in the Coulomb cone ||r_T|| <= mu r_N of each contact and u in its dual (De Saxce).
// Converted to our complementarity problem with the linearized cone of thesis (2.21): per
// contact the block [p_n; p_f,1 .. p_f,n_d; s] with r_T = sum_j p_f,j d_j, so the problem keeps
// the form of (6.1) and every solver applies (lambda, if any, as free rows first).
#pragma once

#include <filesystem>

#include "engine/solvers/lcp.hpp"

namespace pegsim {

struct FclibProblem {
  Lcp lcp;  // M, q, block structure; bounds when lambda rows are present
  int contacts = 0;
  int spacedim = 3;    // 2 or 3
  int directions = 0;  // n_d of the linearized cone (2 in 2D)
  int free_rows = 0;   // lambda rows, first
};

// False when the program was built without libfclib.
bool fclib_supported();
// An HDF5 file with a /fclib_local or /fclib_global group (no exception on a non-HDF5 file),
// or one on which HDF5 crashes (read_fclib_local then refuses it).
bool is_fclib_file(const std::filesystem::path& file);
// Reads /fclib_local and converts it with `directions` friction directions in 3D. Every dataset
// is checked before libfclib reads it; throws ProblemFileError (siconos_lcp.hpp) naming the
// file, the dataset and what was expected. The file is read in a child process (fork), as
// HDF5 1.10 crashes on some damaged files: a crash refuses the file. Single-threaded callers.
FclibProblem read_fclib_local(const std::filesystem::path& file, int directions = 8);

}  // namespace pegsim
