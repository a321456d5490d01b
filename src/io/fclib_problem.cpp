#include "io/fclib_problem.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/hdf5_handle.hpp"
#include "io/hdf5_superblock.hpp"
#include "io/siconos_lcp.hpp"

#ifdef PEGSIM_HAVE_FCLIB
extern "C" {  // fclib.h declares C functions without saying so
#include <fclib.h>
}
#endif

namespace pegsim {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw ProblemFileError(file.string() + ": " + what);
}

// Opens the file read-only, or nothing when it is no HDF5 file or when its superblock would
// make HDF5 read past the end of the file (then `defect` says why).
h5::Handle open(const std::filesystem::path& file, std::string& defect) {
  h5::silence_errors();
  if (H5Fis_hdf5(file.c_str()) <= 0) return {};
  defect = h5::superblock_defect(file);
  if (!defect.empty()) return {};
  return h5::file(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
}

bool exists(hid_t file, const std::string& path) {
  // H5Lexists needs every parent to exist: check the path link by link.
  std::size_t at = 1;
  while (true) {
    const std::size_t slash = path.find('/', at);
    const std::string prefix = path.substr(0, slash);
    if (H5Lexists(file, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
    at = slash + 1;
  }
}

// The number of elements of a 1-D (or scalar) dataset, which must exist.
hsize_t elements(const std::filesystem::path& name, hid_t file, const std::string& path) {
  if (!exists(file, path)) fail(name, path + ": expected a dataset, there is none");
  h5::Handle d = h5::dataset(H5Dopen2(file, path.c_str(), H5P_DEFAULT));
  if (!d) fail(name, path + ": expected a dataset, it cannot be opened");
  h5::Handle s = h5::space(H5Dget_space(d.get()));
  const hssize_t n = H5Sget_simple_extent_npoints(s.get());
  if (n < 0) fail(name, path + ": expected a dataset with a size");
  return static_cast<hsize_t>(n);
}

int read_int(const std::filesystem::path& name, hid_t file, const std::string& path) {
  if (elements(name, file, path) != 1) fail(name, path + ": expected one integer");
  h5::Handle d = h5::dataset(H5Dopen2(file, path.c_str(), H5P_DEFAULT));
  int v = 0;
  if (H5Dread(d.get(), H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0)
    fail(name, path + ": expected an integer");
  return v;
}

void expect_size(const std::filesystem::path& name, hid_t file, const std::string& path,
                 hsize_t size) {
  const hsize_t n = elements(name, file, path);
  if (n != size)
    fail(name,
         path + ": expected " + std::to_string(size) + " entries, it has " + std::to_string(n));
}

struct Shape {
  int m = 0, n = 0;
};

// A matrix group as libfclib will read it (nzmax, m, n, nz, p, i, x): sizes consistent, so
// its reads stay within the buffers it allocates.
Shape check_matrix(const std::filesystem::path& name, hid_t file, const std::string& group) {
  const int nzmax = read_int(name, file, group + "/nzmax");
  const int m = read_int(name, file, group + "/m");
  const int n = read_int(name, file, group + "/n");
  const int nz = read_int(name, file, group + "/nz");
  if (m < 1 || n < 1 || nzmax < 0 || nz < -2 || m > 100000 || n > 100000)
    fail(name, group + ": expected m, n >= 1, nzmax >= 0 and nz >= -2 (triplet, -1 CSC, -2 CSR)");
  if (nz >= 0) {
    if (nz > nzmax) fail(name, group + "/nz: expected at most nzmax = " + std::to_string(nzmax));
    expect_size(name, file, group + "/p", static_cast<hsize_t>(nz));
    expect_size(name, file, group + "/i", static_cast<hsize_t>(nz));
  } else {
    expect_size(name, file, group + "/p", static_cast<hsize_t>(nz == -1 ? n + 1 : m + 1));
    expect_size(name, file, group + "/i", static_cast<hsize_t>(nzmax));
  }
  expect_size(name, file, group + "/x", static_cast<hsize_t>(nzmax));
  return {m, n};
}

#ifdef PEGSIM_HAVE_FCLIB
// CSparse conventions, which FCLib follows: triplet i = row, p = column; CSC p = column
// pointers, i = rows; CSR p = row pointers, i = columns.
MatX dense(const std::filesystem::path& name, const fclib_matrix& a, const std::string& what) {
  MatX out = MatX::Zero(a.m, a.n);
  auto put = [&](int row, int col, double v) {
    if (row < 0 || row >= a.m || col < 0 || col >= a.n || !std::isfinite(v))
      fail(name, what + ": expected finite entries with indices inside " + std::to_string(a.m) +
                     " x " + std::to_string(a.n));
    out(row, col) += v;
  };
  if (a.nz >= 0) {
    for (int k = 0; k < a.nz; ++k) put(a.i[k], a.p[k], a.x[k]);
    return out;
  }
  const int outer = a.nz == -1 ? a.n : a.m;
  for (int o = 0; o < outer; ++o) {
    if (a.p[o] < 0 || a.p[o + 1] < a.p[o] || a.p[o + 1] > a.nzmax)
      fail(name, what + "/p: expected non-decreasing pointers within nzmax");
    for (int k = a.p[o]; k < a.p[o + 1]; ++k)
      a.nz == -1 ? put(a.i[k], o, a.x[k]) : put(o, a.i[k], a.x[k]);
  }
  return out;
}
#endif

}  // namespace

bool fclib_supported() {
#ifdef PEGSIM_HAVE_FCLIB
  return true;
#else
  return false;
#endif
}

bool is_fclib_file(const std::filesystem::path& file) {
  std::string defect;  // read_fclib_local says what is wrong
  const h5::Handle f = open(file, defect);
  return f && (exists(f.get(), "/fclib_local") || exists(f.get(), "/fclib_global"));
}

FclibProblem read_fclib_local(const std::filesystem::path& file, int directions) {
  std::string defect;
  const h5::Handle f = open(file, defect);
  if (!defect.empty()) fail(file, "damaged HDF5 file: " + defect);
  if (!f) fail(file, "expected an HDF5 file (FCLib problem), cannot open it as one");
  if (!exists(f.get(), "/fclib_local")) {
    if (exists(f.get(), "/fclib_global"))
      fail(file, "/fclib_global: global FCLib problems are not supported, expected /fclib_local");
    fail(file, "expected the group /fclib_local of an FCLib local problem");
  }
  // libfclib reads the datasets without checks of its own (and HDF5 crashes on some damage).
  if (const std::string bad = h5::first_damaged_object(f.get()); !bad.empty()) fail(file, bad);
  FclibProblem out;
  out.spacedim = read_int(file, f.get(), "/fclib_local/spacedim");
  if (out.spacedim != 2 && out.spacedim != 3)
    fail(file, "/fclib_local/spacedim: expected 2 or 3, got " + std::to_string(out.spacedim));
  const Shape W = check_matrix(file, f.get(), "/fclib_local/W");
  if (W.m != W.n || W.m % out.spacedim != 0)
    fail(file, "/fclib_local/W: expected a square matrix of spacedim x contacts rows, it is " +
                   std::to_string(W.m) + " x " + std::to_string(W.n));
  out.contacts = W.m / out.spacedim;
  const bool has_v = exists(f.get(), "/fclib_local/V"), has_r = exists(f.get(), "/fclib_local/R");
  if (has_v != has_r) fail(file, "/fclib_local: expected V and R together or neither");
  expect_size(file, f.get(), "/fclib_local/vectors/q", W.m);
  expect_size(file, f.get(), "/fclib_local/vectors/mu", out.contacts);
  if (has_r) {
    const Shape V = check_matrix(file, f.get(), "/fclib_local/V");
    const Shape R = check_matrix(file, f.get(), "/fclib_local/R");
    if (V.m != W.m || R.m != R.n || R.n != V.n)
      fail(file, "/fclib_local/V, R: expected V of " + std::to_string(W.m) +
                     " rows and R square with V's columns");
    expect_size(file, f.get(), "/fclib_local/vectors/s", R.m);
    out.free_rows = R.m;
  }
#ifndef PEGSIM_HAVE_FCLIB
  (void)directions;
  fail(file, "this pegsim-cli was built without FCLib support (Debian package libfclib-dev)");
#else
  fclib_local* p = fclib_read_local(file.c_str());
  if (!p) fail(file, "libfclib could not read /fclib_local");
  struct Free {
    fclib_local* p;
    // fclib_delete_local frees what the problem holds, not the problem itself.
    ~Free() {
      fclib_delete_local(p);
      std::free(p);
    }
  } release{p};
  const MatX Wd = dense(file, *p->W, "/fclib_local/W");
  const int nc = out.contacts, sd = out.spacedim, nl = out.free_rows;
  const int nd = sd == 2 ? 2 : directions;
  out.directions = nd;
  // D maps [p_n; p_f] (1 + n_d per contact) to the local (r_N, r_T): d_j at angle 2 pi j / n_d.
  MatX D = MatX::Zero(W.m, nc * (1 + nd));
  for (int c = 0; c < nc; ++c) {
    D(c * sd, c * (1 + nd)) = 1.0;
    for (int j = 0; j < nd; ++j) {
      const double angle = 2.0 * M_PI * j / nd;
      D(c * sd + 1, c * (1 + nd) + 1 + j) = std::cos(angle);
      if (sd == 3) D(c * sd + 2, c * (1 + nd) + 1 + j) = std::sin(angle);
    }
  }
  const Eigen::Map<const VecX> q(p->q, W.m), mu(p->mu, nc);
  if (!q.allFinite() || !mu.allFinite() || mu.minCoeff() < 0.0)
    fail(file, "/fclib_local/vectors: expected finite q and mu >= 0");
  const MatX DWD = D.transpose() * Wd * D;
  const VecX Dq = D.transpose() * q;
  const int block = nd + 2, n = nl + nc * block;
  Lcp& lcp = out.lcp;
  lcp.M.setZero(n, n);
  lcp.q.setZero(n);
  auto row = [&](int col) { return nl + (col / (1 + nd)) * block + col % (1 + nd); };
  for (int a = 0; a < DWD.cols(); ++a) {
    lcp.q(row(a)) = Dq(a);
    for (int b = 0; b < DWD.rows(); ++b) lcp.M(row(b), row(a)) = DWD(b, a);
  }
  for (int c = 0; c < nc; ++c) {  // friction rows + E s, slip row U p_n - E^T p_f (2.21)
    const int base = nl + c * block, s = base + nd + 1;
    for (int k = 1; k <= nd; ++k) {
      lcp.M(base + k, s) = 1.0;
      lcp.M(s, base + k) = -1.0;
    }
    lcp.M(s, base) = mu(c);
    lcp.block_starts.push_back(base);
  }
  if (nl > 0) {
    // V^T r + R lambda + s = 0 and u = W r + V lambda + q: lambda free, first.
    const MatX V = dense(file, *p->V, "/fclib_local/V"), R = dense(file, *p->R, "/fclib_local/R");
    const Eigen::Map<const VecX> s(p->s, nl);
    if (!s.allFinite()) fail(file, "/fclib_local/vectors/s: expected finite entries");
    const MatX VtD = V.transpose() * D;
    lcp.M.topLeftCorner(nl, nl) = R;
    lcp.q.head(nl) = s;
    for (int a = 0; a < VtD.cols(); ++a)
      for (int k = 0; k < nl; ++k) {
        lcp.M(k, row(a)) = VtD(k, a);
        lcp.M(row(a), k) = VtD(k, a);
      }
    lcp.lower.setZero(n);
    lcp.upper.setConstant(n, INFINITY);
    lcp.lower.head(nl).setConstant(-INFINITY);
    std::vector<int> starts(nl);
    for (int k = 0; k < nl; ++k) starts[k] = k;
    lcp.block_starts.insert(lcp.block_starts.begin(), starts.begin(), starts.end());
  }
  return out;
#endif
}

}  // namespace pegsim
