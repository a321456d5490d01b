#include "io/fclib_local.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

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

// Entries of p and i as stored (FclibMatrix's conventions).
long long pointers(const FclibMatrix& a) {
  return a.nz >= 0 ? a.nz : a.nz == -1 ? a.n + 1 : a.m + 1;
}
long long indices(const FclibMatrix& a) {
  return a.nz >= 0 ? a.nz : a.nzmax;
}

// A matrix group as libfclib will read it (nzmax, m, n, nz, p, i, x): sizes consistent, so
// its reads stay within the buffers it allocates.
FclibMatrix check_matrix(const std::filesystem::path& name, hid_t file, const std::string& group) {
  FclibMatrix a;
  a.nzmax = read_int(name, file, group + "/nzmax");
  a.m = read_int(name, file, group + "/m");
  a.n = read_int(name, file, group + "/n");
  a.nz = read_int(name, file, group + "/nz");
  if (a.m < 1 || a.n < 1 || a.nzmax < 0 || a.nz < -2 || a.m > 100000 || a.n > 100000)
    fail(name, group + ": expected m, n >= 1, nzmax >= 0 and nz >= -2 (triplet, -1 CSC, -2 CSR)");
  if (a.nz > a.nzmax)
    fail(name, group + "/nz: expected at most nzmax = " + std::to_string(a.nzmax));
  expect_size(name, file, group + "/p", static_cast<hsize_t>(pointers(a)));
  expect_size(name, file, group + "/i", static_cast<hsize_t>(indices(a)));
  expect_size(name, file, group + "/x", static_cast<hsize_t>(a.nzmax));
  return a;
}

#ifdef PEGSIM_HAVE_FCLIB
void copy(const fclib_matrix* from, FclibMatrix& to) {
  to.p.assign(from->p, from->p + pointers(to));
  to.i.assign(from->i, from->i + indices(to));
  to.x.assign(from->x, from->x + to.nzmax);
}
#endif

// The byte form: ints and doubles in this machine's representation (parent and child are one
// program), each vector preceded by its length.
class Bytes {
 public:
  explicit Bytes(const std::string& text = {}) : text_(text) {}
  const std::string& text() const { return text_; }

  template <typename T>
  void put(const T& v) {
    text_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <typename T>
  void put(const std::vector<T>& v) {
    put(static_cast<long long>(v.size()));
    text_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  template <typename T>
  void get(T& v) {
    take(&v, sizeof v);
  }
  template <typename T>
  void get(std::vector<T>& v) {
    long long n = 0;
    get(n);
    if (n < 0 || static_cast<unsigned long long>(n) > (text_.size() - at_) / sizeof(T))
      throw std::runtime_error("FCLib problem bytes: a vector longer than the bytes left");
    v.resize(static_cast<std::size_t>(n));
    take(v.data(), v.size() * sizeof(T));
  }
  bool done() const { return at_ == text_.size(); }

 private:
  void take(void* to, std::size_t size) {
    if (size > text_.size() - at_) throw std::runtime_error("FCLib problem bytes: cut short");
    if (size > 0) std::memcpy(to, text_.data() + at_, size);
    at_ += size;
  }
  std::string text_;
  std::size_t at_ = 0;
};

// The fields in their byte order, once for writing and reading: `op` is called on each.
template <typename Matrix, typename Op>
void each_field(Matrix& a, Op op) {
  op(a.m);
  op(a.n);
  op(a.nz);
  op(a.nzmax);
  op(a.p);
  op(a.i);
  op(a.x);
}
template <typename Problem, typename Op>
void each_field_of_problem(Problem& p, Op op) {
  op(p.spacedim);
  for (auto* a : {&p.W, &p.V, &p.R}) each_field(*a, op);
  op(p.q);
  op(p.mu);
  op(p.s);
}

}  // namespace

bool has_fclib_group(const std::filesystem::path& file) {
  std::string defect;  // read_stored_fclib_local says what is wrong
  const h5::Handle f = open(file, defect);
  return f && (exists(f.get(), "/fclib_local") || exists(f.get(), "/fclib_global"));
}

FclibLocal read_stored_fclib_local(const std::filesystem::path& file) {
  std::string defect;
  const h5::Handle f = open(file, defect);
  if (!defect.empty()) fail(file, "damaged HDF5 file: " + defect);
  if (!f) fail(file, "expected an HDF5 file (FCLib problem), cannot open it as one");
  if (!exists(f.get(), "/fclib_local")) {
    if (exists(f.get(), "/fclib_global"))
      fail(file, "/fclib_global: global FCLib problems are not supported, expected /fclib_local");
    fail(file, "expected the group /fclib_local of an FCLib local problem");
  }
  // libfclib reads the datasets without checks of its own and ends the process when one fails.
  if (const std::string bad = h5::first_damaged_object(f.get()); !bad.empty()) fail(file, bad);
  FclibLocal out;
  out.spacedim = read_int(file, f.get(), "/fclib_local/spacedim");
  if (out.spacedim != 2 && out.spacedim != 3)
    fail(file, "/fclib_local/spacedim: expected 2 or 3, got " + std::to_string(out.spacedim));
  out.W = check_matrix(file, f.get(), "/fclib_local/W");
  const int m = out.W.m;
  if (m != out.W.n || m % out.spacedim != 0)
    fail(file, "/fclib_local/W: expected a square matrix of spacedim x contacts rows, it is " +
                   std::to_string(m) + " x " + std::to_string(out.W.n));
  const bool has_v = exists(f.get(), "/fclib_local/V"), has_r = exists(f.get(), "/fclib_local/R");
  if (has_v != has_r) fail(file, "/fclib_local: expected V and R together or neither");
  expect_size(file, f.get(), "/fclib_local/vectors/q", static_cast<hsize_t>(m));
  expect_size(file, f.get(), "/fclib_local/vectors/mu", static_cast<hsize_t>(m / out.spacedim));
  if (has_r) {
    out.V = check_matrix(file, f.get(), "/fclib_local/V");
    out.R = check_matrix(file, f.get(), "/fclib_local/R");
    if (out.V.m != m || out.R.m != out.R.n || out.R.n != out.V.n)
      fail(file, "/fclib_local/V, R: expected V of " + std::to_string(m) +
                     " rows and R square with V's columns");
    expect_size(file, f.get(), "/fclib_local/vectors/s", static_cast<hsize_t>(out.R.m));
  }
#ifndef PEGSIM_HAVE_FCLIB
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
  copy(p->W, out.W);
  out.q.assign(p->q, p->q + m);
  out.mu.assign(p->mu, p->mu + m / out.spacedim);
  if (has_r) {
    copy(p->V, out.V);
    copy(p->R, out.R);
    out.s.assign(p->s, p->s + out.R.m);
  }
  return out;
#endif
}

std::string to_bytes(const FclibLocal& problem) {
  Bytes b;
  each_field_of_problem(problem, [&](const auto& v) { b.put(v); });
  return b.text();
}

FclibLocal from_bytes(const std::string& bytes) {
  Bytes b(bytes);
  FclibLocal out;
  each_field_of_problem(out, [&](auto& v) { b.get(v); });
  if (!b.done()) throw std::runtime_error("FCLib problem bytes: more than a problem");
  return out;
}

}  // namespace pegsim
