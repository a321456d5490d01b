#include "io/fclib_problem.hpp"

#include <cmath>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/child_process.hpp"
#include "io/fclib_local.hpp"
#include "io/siconos_lcp.hpp"
#include "io/siconos_reader.hpp"

namespace pegsim {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw ProblemFileError(file.string() + ": " + what);
}

MatX dense(const std::filesystem::path& name, const FclibMatrix& a, const std::string& what) {
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

// D maps [p_n; p_f] (1 + n_d per contact) to the local (r_N, r_T): d_j at angle 2 pi j / n_d.
MatX cone_edges(int contacts, int spacedim, int directions) {
  const int nd = directions;
  MatX D = MatX::Zero(contacts * spacedim, contacts * (1 + nd));
  for (int c = 0; c < contacts; ++c) {
    D(c * spacedim, c * (1 + nd)) = 1.0;
    for (int j = 0; j < nd; ++j) {
      const double angle = 2.0 * M_PI * j / nd;
      D(c * spacedim + 1, c * (1 + nd) + 1 + j) = std::cos(angle);
      if (spacedim == 3) D(c * spacedim + 2, c * (1 + nd) + 1 + j) = std::sin(angle);
    }
  }
  return D;
}

// V^T r + R lambda + s = 0 and u = W r + V lambda + q: lambda free, first.
void add_free_rows(const std::filesystem::path& file, const FclibLocal& p, const MatX& D,
                   FclibProblem& out) {
  const int nl = out.free_rows, nd = out.directions, block = nd + 2, n = out.lcp.size();
  const MatX V = dense(file, p.V, "/fclib_local/V"), R = dense(file, p.R, "/fclib_local/R");
  const Eigen::Map<const VecX> s(p.s.data(), nl);
  if (!s.allFinite()) fail(file, "/fclib_local/vectors/s: expected finite entries");
  const MatX VtD = V.transpose() * D;
  Lcp& lcp = out.lcp;
  lcp.M.topLeftCorner(nl, nl) = R;
  lcp.q.head(nl) = s;
  for (int a = 0; a < VtD.cols(); ++a) {
    const int row = nl + (a / (1 + nd)) * block + a % (1 + nd);
    for (int k = 0; k < nl; ++k) {
      lcp.M(k, row) = VtD(k, a);
      lcp.M(row, k) = VtD(k, a);
    }
  }
  lcp.lower.setZero(n);
  lcp.upper.setConstant(n, INFINITY);
  lcp.lower.head(nl).setConstant(-INFINITY);
  std::vector<int> starts(nl);
  for (int k = 0; k < nl; ++k) starts[k] = k;
  lcp.block_starts.insert(lcp.block_starts.begin(), starts.begin(), starts.end());
}

// The problem of (2.21) for the stored one: per contact [p_n; p_f; s], lambda rows first.
FclibProblem convert(const std::filesystem::path& file, const FclibLocal& p, int directions) {
  FclibProblem out;
  out.spacedim = p.spacedim;
  out.contacts = p.W.m / p.spacedim;
  out.free_rows = p.R.m;
  out.directions = p.spacedim == 2 ? 2 : directions;
  const int nc = out.contacts, nl = out.free_rows, nd = out.directions, block = nd + 2;
  const long long n = nl + static_cast<long long>(nc) * block;
  if (n > siconos::kMaxSize)
    fail(file, "/fclib_local/W: " + std::to_string(nc) + " contacts give a problem of " +
                   std::to_string(n) + " rows with " + std::to_string(nd) +
                   " friction directions, more than pegsim's dense solvers take (" +
                   std::to_string(siconos::kMaxSize) + ")");
  const MatX W = dense(file, p.W, "/fclib_local/W");
  const Eigen::Map<const VecX> q(p.q.data(), p.W.m), mu(p.mu.data(), nc);
  if (!q.allFinite() || !mu.allFinite() || mu.minCoeff() < 0.0)
    fail(file, "/fclib_local/vectors: expected finite q and mu >= 0");
  const MatX D = cone_edges(nc, p.spacedim, nd);
  const MatX DWD = D.transpose() * W * D;
  const VecX Dq = D.transpose() * q;
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
  if (nl > 0) add_free_rows(file, p, D, out);
  return out;
}

}  // namespace

bool fclib_supported() {
#ifdef PEGSIM_HAVE_FCLIB
  return true;
#else
  return false;
#endif
}

// Both run in a child process: HDF5 1.10 crashes on some damaged files (docs/robustness.md).
// Reading a problem pegsim can solve takes milliseconds; a damaged file may loop in HDF5.
constexpr unsigned kReadSeconds = 5;

bool is_fclib_file(const std::filesystem::path& file) {
  const ChildOutcome got =
      run_in_child([&] { return std::string(has_fclib_group(file) ? "1" : "0"); }, kReadSeconds);
  // A file HDF5 crashes on is taken for one, so that read_fclib_local refuses it by name.
  return got.end != ChildOutcome::End::answered || got.text == "1";
}

FclibProblem read_fclib_local(const std::filesystem::path& file, int directions) {
  const ChildOutcome got = run_in_child(
      [&] {
        try {
          return "p" + to_bytes(read_stored_fclib_local(file));
        } catch (const ProblemFileError& e) {
          return "e" + std::string(e.what());
        }
      },
      kReadSeconds);
  if (got.end == ChildOutcome::End::died)
    fail(file, "damaged HDF5 file: the process reading it " + got.text);
  if (got.end == ChildOutcome::End::threw) {
    if (got.text == std::bad_alloc().what()) throw std::bad_alloc();
    throw std::runtime_error(file.string() + ": " + got.text);
  }
  if (got.text.rfind('e', 0) == 0) throw ProblemFileError(got.text.substr(1));
  return convert(file, from_bytes(got.text.substr(1)), directions);
}

}  // namespace pegsim
