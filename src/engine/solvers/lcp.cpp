// Natural-map residual of the LCP and MCP (the measure every solver reports), the input check,
// and the elimination of an MCP's free rows.
#include "engine/solvers/lcp.hpp"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseQR>
#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/solvers/jacobian_rows.hpp"
#include "engine/solvers/lcp_matrix.hpp"
#include "engine/solvers/sparse_direction.hpp"

namespace pegsim {

int Lcp::free_rows() const {
  int count = 0;
  for (Eigen::Index i = 0; i < lower.size() && i < upper.size(); ++i)
    count += std::isinf(lower(i)) && lower(i) < 0 && std::isinf(upper(i)) && upper(i) > 0;
  return count;
}

namespace {
// The input check of lcp_defect; `dense_m` = false skips the pass over M's entries (solvers
// that read the body form check what they read), `blocks_only` allows Lcp::blocks_only.
const char* defect(const Lcp& lcp, bool bounds_allowed, bool dense_m, bool blocks_only = false) {
  const Eigen::Index n = lcp.q.size();
  if (m_rows(lcp) != n || m_cols(lcp) != n) return "M is not square of the size of q";
  if (lcp.blocks_only && !blocks_only)
    return "M holds only its diagonal blocks (the couplings are in the body form): this solver "
           "reads all of M; use pgs-contact";
  if ((dense_m && !m_all_finite(lcp)) || !lcp.q.allFinite()) return "M or q has a non-finite entry";
  if (!lcp.has_bounds()) return nullptr;
  if (lcp.lower.size() != n || lcp.upper.size() != n)
    return "the bounds l, u are not both of the size of q";
  for (Eigen::Index i = 0; i < n; ++i)
    if (std::isnan(lcp.lower(i)) || std::isnan(lcp.upper(i)) || !(lcp.lower(i) <= lcp.upper(i)) ||
        lcp.lower(i) == INFINITY || lcp.upper(i) == -INFINITY)
      return "a bound is NaN, infinite on the wrong side, or l > u";
  if (!bounds_allowed)
    return "this solver takes only the pure LCP (every row on [0, inf)), and the problem has "
           "free or bounded rows: use path, or a formulation without free rows";
  return nullptr;
}
}  // namespace

const char* lcp_defect(const Lcp& lcp, bool bounds_allowed) {
  return defect(lcp, bounds_allowed, true);
}

const char* lcp_shape_defect(const Lcp& lcp) {
  return defect(lcp, false, false);
}

const char* body_form_defect(const Lcp& lcp) {
  const LcpBodyForm& f = lcp.body_form;
  auto finite = [](const std::vector<Vec6>& v) {
    return v.empty() || all_finite(v.front().data(), 6 * static_cast<Eigen::Index>(v.size()));
  };
  if (!finite(f.J_a) || !finite(f.J_b) || !finite(f.WJ_a) || !finite(f.WJ_b))
    return "M or q has a non-finite entry";
  return defect(lcp, false, false, true);
}

double block_residual(const Eigen::Ref<const VecX>& z, const Eigen::Ref<const VecX>& w) {
  double r = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) r = std::max(r, std::abs(std::min(z(i), w(i))));
  return r;
}

double natural_residual(const Lcp& lcp, const VecX& z) {
  const Eigen::Index n = lcp.q.size();
  if (z.size() != n || m_rows(lcp) != n || m_cols(lcp) != n) return INFINITY;
  if (z.size() == 0) return 0.0;
  // Every solver computes this after every solve: a thread's buffer, grown once, spares the
  // allocation that dominates tiny problems.
  thread_local VecX w;
  multiply_m(lcp, z, w);
  w += lcp.q;
  // min(z, w) vanishes exactly when z >= 0, w >= 0 and z_i w_i = 0 for every i.
  if (!lcp.has_bounds()) return z.cwiseMin(w).cwiseAbs().maxCoeff();
  if (lcp.lower.size() != n || lcp.upper.size() != n) return INFINITY;
  // z - mid(l, u, z - w), case by case so that a free row's residual is w itself.
  double r = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double step = z(i) - w(i);
    double ri = w(i);
    if (step <= lcp.lower(i))
      ri = z(i) - lcp.lower(i);
    else if (step >= lcp.upper(i))
      ri = z(i) - lcp.upper(i);
    r = std::max(r, std::abs(ri));
  }
  return std::isnan(r) ? INFINITY : r;
}

VecX FreeRowReduction::expand(const VecX& zc) const {
  VecX z(free.size() + complementary.size());
  const VecX zf = -(inverse_ff_fc * zc + inverse_ff_q);
  for (std::size_t k = 0; k < free.size(); ++k) z(free[k]) = zf(static_cast<Eigen::Index>(k));
  for (std::size_t k = 0; k < complementary.size(); ++k)
    z(complementary[k]) = zc(static_cast<Eigen::Index>(k));
  return z;
}

bool reduce_free_rows(const Lcp& mcp, FreeRowReduction& out, const char*& why) {
  why = lcp_defect(mcp, true);
  if (why) return false;
  out.free.clear();
  out.complementary.clear();
  for (int i = 0; i < mcp.size(); ++i) {
    const double l = mcp.has_bounds() ? mcp.lower(i) : 0.0;
    const double u = mcp.has_bounds() ? mcp.upper(i) : INFINITY;
    if (l == -INFINITY && u == INFINITY)
      out.free.push_back(i);
    else if (l == 0.0 && u == INFINITY)
      out.complementary.push_back(i);
    else {
      why =
          "a row is bounded other than free or [0, inf), which no Schur reduction to an LCP "
          "keeps";
      return false;
    }
  }
  const int n = mcp.size();
  const int nf = static_cast<int>(out.free.size());
  const int nc = static_cast<int>(out.complementary.size());
  // The blocks by selection: M_XY = P_X^T M P_Y, P_X's column k the unit vector of row X[k].
  auto selection = [n](const std::vector<int>& rows) {
    SparseMatX P(n, static_cast<Eigen::Index>(rows.size()));
    std::vector<Eigen::Triplet<double>> ones;
    for (std::size_t k = 0; k < rows.size(); ++k)
      ones.emplace_back(rows[k], static_cast<int>(k), 1.0);
    P.setFromTriplets(ones.begin(), ones.end());
    return P;
  };
  const SparseMatX M = m_is_sparse(mcp) ? mcp.S : SparseMatX(mcp.M.sparseView());
  const SparseMatX PF = selection(out.free), PC = selection(out.complementary);
  const SparseMatX M_c = M * PC;  // M's complementary columns
  const SparseMatX M_cc = PC.transpose() * M_c;
  out.lcp = Lcp{};
  out.lcp.q = PC.transpose() * mcp.q;
  if (nf == 0) {
    out.inverse_ff_fc.resize(0, nc);
    out.inverse_ff_q.resize(0);
    out.lcp.S = M_cc;
    return true;
  }
  const SparseMatX M_f = M * PF;  // M's free columns
  const SparseMatX M_ff = PF.transpose() * M_f;
  const SparseMatX M_fc = PF.transpose() * M_c;
  const SparseMatX M_cf = PC.transpose() * M_f;
  // A rank-revealing sparse QR: M_FF is J_F W J_F^T for joints (nonsingular when the joint rows
  // are independent) but any square block in a file; a singular one is refused, not inverted.
  Eigen::SparseQR<SparseMatX, Eigen::COLAMDOrdering<int>> qr(M_ff);
  if (qr.info() != Eigen::Success || qr.rank() < nf) {
    why = "the free rows' block M_FF is singular, so they cannot be eliminated";
    return false;
  }
  out.inverse_ff_fc = qr.solve(M_fc);
  out.inverse_ff_fc.prune([](const int&, const int&, const double& v) { return v != 0.0; });
  out.inverse_ff_q = qr.solve(VecX(PF.transpose() * mcp.q));
  out.lcp.S = M_cc - M_cf * out.inverse_ff_fc;
  out.lcp.S.prune([](const int&, const int&, const double& v) { return v != 0.0; });
  out.lcp.q -= M_cf * out.inverse_ff_q;
  if (!m_all_finite(out.lcp) || !out.lcp.q.allFinite() || !out.inverse_ff_q.allFinite()) {
    why = "the Schur complement of the free rows is not finite";
    return false;
  }
  return true;
}

namespace {
constexpr int kExchanges = 4;  // active_set_solution's single exchanges after the first set
}  // namespace

bool active_set_solution(const Lcp& lcp, const VecX& z, const VecX& w, double tolerance,
                         VecX& out) {
  const Eigen::Index n = z.size();
  std::vector<char> in(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = z(i) > w(i);
  std::vector<int> active;
  SparseRowsX MAA;
  SparseDirection block;
  VecX qA, zA, wout;
  for (int exchange = 0;; ++exchange) {
    active.clear();
    for (Eigen::Index i = 0; i < n; ++i)
      if (in[static_cast<std::size_t>(i)]) active.push_back(static_cast<int>(i));
    out.setZero(n);
    if (!active.empty()) {
      const int m = static_cast<int>(active.size());
      m_block_by_rows(lcp, active, MAA);
      qA.resize(m);
      for (int j = 0; j < m; ++j) qA(j) = -lcp.q(active[j]);
      // Contact problems make M_AA singular (coplanar contacts, friction directions spanning a
      // plane) but consistent: a least-squares step of nearly minimum norm is then a solution
      // where LU would divide by a rounding error (sparse_direction.hpp).
      block.reset();
      if (!block.solve_or_least_squares(MAA, qA, zA)) return false;
      for (int j = 0; j < m; ++j) out(active[j]) = zA(j);
    }
    multiply_m(lcp, out, wout);
    wout += lcp.q;
    // The most violated row: on the set z_i < 0, or w_i > 0 where M_AA z_A = -q_A is
    // inconsistent (redundant contacts the solution leaves unloaded, which must leave the set);
    // off it w_i < 0.
    int worst = -1;
    double violation = tolerance;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double v = in[static_cast<std::size_t>(i)] ? std::max(-out(i), wout(i)) : -wout(i);
      if (v > violation) {
        violation = v;
        worst = static_cast<int>(i);
      }
    }
    if (worst < 0) {
      out = out.cwiseMax(0.0);
      return natural_residual(lcp, out) <= tolerance;
    }
    // A set wrong in a row or two (a redundant contact loaded that the solution leaves
    // unloaded) is mended by single exchanges of the most violated row, Murty's principal
    // pivoting ("Note on a Bard-type scheme for solving the complementarity problem", 1974)
    // with the largest violation in place of the least index; a few at most, as a polish.
    if (exchange == kExchanges) return false;
    in[static_cast<std::size_t>(worst)] ^= 1;
  }
}

}  // namespace pegsim
