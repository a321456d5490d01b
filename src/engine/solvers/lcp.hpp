// The linear complementarity problem 0 <= z  _|_  w = M z + q >= 0, and its mixed (box-bounded)
// form, the MCP: l <= z <= u with, row by row,
//   z_i = l_i  =>  w_i >= 0,    l_i < z_i < u_i  =>  w_i = 0,    z_i = u_i  =>  w_i <= 0.
// A free row (l = -inf, u = +inf) is an equation w_i = 0, e.g. a joint's bilateral row of thesis
// (2.34); a row on [0, inf) is the LCP's. The pure LCP (no bounds) stays the common case.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "engine/core/math.hpp"

namespace pegsim {

// Optional body form of M (the Box2D / ODE QuickStep way, J W^-1 J^T): per row, the velocity
// Jacobian J on at most two bodies (6-vectors [linear; angular]) and W J (W = M^-1, the inverse
// mass), such that for rows i, j of DIFFERENT blocks
//   M_ij = sum over the bodies both rows act on of J_i^T (W J)_j,
// i.e. contacts couple only through shared bodies. M's diagonal blocks stay in M (they hold
// the in-block terms E, U of (6.1) too). A row acting on no body (a slip row) has body -1 on
// both ends, a static end -1 as well. Empty when M has no such form (joints eliminated by their
// Schur complement, PEG's slack rows); a solver may use it to sweep in O(nnz(J)).
struct LcpBodyForm {
  std::vector<int> body_a, body_b;         // per row: body index or -1
  std::vector<Vec6> J_a, J_b, WJ_a, WJ_b;  // per row and end
  int bodies = 0;                          // body indices lie in [0, bodies)
  bool empty() const { return body_a.empty(); }
  void clear() {
    body_a.clear();
    body_b.clear();
    J_a.clear();
    J_b.clear();
    WJ_a.clear();
    WJ_b.clear();
    bodies = 0;
  }
};

// M by its nonzeros: compressed columns, rows ascending, no stored zero.
using SparseMatX = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

struct Lcp {
  // M, either dense (problems written by hand or read from files) or by its nonzeros (S: what
  // the simulator assembles, so that a pile of hundreds of contacts, ~5 % nonzero, needs no n x n
  // array). Exactly one holds the matrix: M is 0 x 0 when S does. Read M through
  // lcp_matrix.hpp, which takes either.
  MatX M;
  SparseMatX S;
  VecX q;
  // Optional block structure: the first row of each block, ascending, starting at 0 (e.g. one
  // block per contact: normal, friction directions, slip speed). Empty = every row its own block.
  // Block solvers (PGS) solve each block exactly; rows with a zero diagonal need a block.
  std::vector<int> block_starts;
  // MCP bounds, both empty for the pure LCP (every row on [0, inf)); otherwise both of size n,
  // lower <= upper, entries may be -inf / +inf. Only solvers whose supports_bounds() is true
  // take a problem with bounds; the others refuse it (lcp_defect) with a message saying so.
  VecX lower, upper;
  // Optional body form of M's coupling between blocks (see LcpBodyForm); empty if none.
  LcpBodyForm body_form;
  // M holds its diagonal blocks alone and the body form every coupling between blocks (the
  // assembly of the interactive preset, whose solver reads nothing else): a solver that reads
  // M elsewhere refuses the problem (lcp_defect), only Solver::takes_blocks_only() takes it.
  bool blocks_only = false;

  int size() const { return static_cast<int>(q.size()); }
  bool has_bounds() const { return lower.size() > 0 || upper.size() > 0; }
  // Rows free in both directions (equations), counted.
  int free_rows() const;
};

// Why the problem cannot be solved as given (M not n x n for q of size n, a non-finite entry,
// bounds of the wrong size or crossed, or bounds given to a solver that takes only [0, inf)
// rows), or nullptr when it is well-formed. Every solver checks this first.
const char* lcp_defect(const Lcp& lcp, bool bounds_allowed = false);

// lcp_defect without the pass over M's entries, for a solver that checks each entry as it reads
// it (Lemke's sparse fast path): nullptr when the sizes, q and the bounds are well-formed.
const char* lcp_shape_defect(const Lcp& lcp);

// lcp_defect for a solver that reads M only in its diagonal blocks and couples them through
// the body form (PGS in the body form): the sizes, q and the body form's vectors are checked
// here, the diagonal blocks by the solver as it copies them; nullptr when well-formed. It
// allows Lcp::blocks_only: a solver that merges blocks must refuse that itself.
const char* body_form_defect(const Lcp& lcp);

// max_i |min(z_i, w_i)| over a block's rows (segments of z and w, read in place): its part of
// an LCP's natural residual, for solvers that have w block by block.
double block_residual(const Eigen::Ref<const VecX>& z, const Eigen::Ref<const VecX>& w);

// Natural-map residual ||z - mid(l, u, z - w)||_inf with w = M z + q: zero exactly at a solution.
// Without bounds it is ||min(z, w)||_inf.
double natural_residual(const Lcp& lcp, const VecX& z);

// The pure LCP left when the free rows F of an MCP (every other row on [0, inf)) are eliminated
// by their Schur complement (thesis (2.37)/(2.38) for the joints):
//   z_F = -M_FF^-1 (M_FC z_C + q_F),   LCP (M_CC - M_CF M_FF^-1 M_FC, q_C - M_CF M_FF^-1 q_F).
// Sparse throughout (a sparse QR of M_FF; the reduced M by its nonzeros, Lcp::S): no n x n array.
// Returns false (with `why`) when a row is bounded otherwise or M_FF is singular.
struct FreeRowReduction {
  std::vector<int> free, complementary;  // row indices of the MCP
  SparseMatX inverse_ff_fc;              // M_FF^-1 M_FC
  VecX inverse_ff_q;                     // M_FF^-1 q_F
  Lcp lcp;                               // the reduced pure LCP on the complementary rows
  // The MCP's z from the reduced LCP's answer.
  VecX expand(const VecX& z_complementary) const;
};
bool reduce_free_rows(const Lcp& mcp, FreeRowReduction& out, const char*& why);

// Purification of an approximate solution z (with w = M z + q): on the active set
// A = {i : z_i > w_i} solves M_AA z_A = -q_A by a sparse LU (z = 0 elsewhere; least squares of
// nearly minimum norm if M_AA is singular); where that misses, up to four single exchanges of
// the most violated row (z_i < 0 or w_i > 0 on A, w_i < 0 off it) mend the set. Writes the
// answer to `out` if it is a solution within `tolerance`. Ends an iterative method with a
// pivoting method's accuracy once the active set is (nearly) right.
bool active_set_solution(const Lcp& lcp, const VecX& z, const VecX& w, double tolerance, VecX& out);

}  // namespace pegsim
