// The nonlinear complementarity problem of frictional contact with the quadratic (exact)
// Coulomb cone, thesis (2.18)-(2.20) (and, for PEG's primaries, (4.37)-(4.40)): find z with
//   l_i = 0:   0 <= z_i  _|_  F_i(z) >= 0        l_i = -inf (free):   F_i(z) = 0
// where F is a linear map w = M z + q everywhere except on the rows of a friction cone, which
// read, with u_t = w on the cone's tangent rows (the tangential velocities at the end of the
// step) and sigma its slip speed:
//   F_t   = mu p_n u_t + p_t sigma                 (2.18), (2.19)  p_t free
//   F_sig = mu p_n - |p_t|                         (2.20)          0 <= sigma _|_ F_sig >= 0
// (2.20) writes the cone row as mu^2 p_n^2 - |p_t|^2; mu p_n - |p_t| is the same cone with the
// same complementarity (the ratio of the two, mu p_n + |p_t|, is >= 0), but in impulse units and
// linear along rays: squared, a Newton step only halves |p_t| at a contact without load
// (p_n = 0, where the derivative -2 p_t vanishes), and a residual tolerance t accepts
// |p_t| ~ sqrt(t) there (measured: friction off mu p_n by 2e-5 on a sliding block whose one
// corner lifts).
// At a solution either sigma = 0 and u_t = 0 (stick, |p_t| <= mu p_n), or p_t = -mu p_n u_t /
// |u_t| with sigma = |u_t| (slide): maximal dissipation on the round cone.
// A frictionless cone (mu = 0) is the point p_t = 0: (2.20) forces it and (2.18) reads
// p_t sigma = 0, so its tangent rows are written F_t = p_t, the same solutions with a Jacobian
// that does not vanish at the kink p_t = 0 (the p_t are eliminated: identically zero).
#pragma once

#include <vector>

#include "engine/core/math.hpp"
#include "engine/solvers/jacobian_rows.hpp"
#include "engine/solvers/lcp.hpp"

namespace pegsim {

// One contact's cone over rows normal, normal + 1 .. normal + tangents, normal + tangents + 1.
struct FrictionCone {
  int normal = 0;    // row of p_n
  int tangents = 2;  // 2 in 3D (p_t, p_o), 1 in 2D
  double mu = 0.0;
  int slip() const { return normal + tangents + 1; }  // row of sigma
};

struct Ncp {
  // The linear part w = M z + q: gap rates psi/h + G^T nu on the normal, joint-limit and PEG
  // slack rows, tangential velocities on the tangent rows, zero on the slip rows. Its bounds
  // are the NCP's: every row on [0, inf) except the tangent rows, free. block_starts as in Lcp.
  Lcp linear;
  std::vector<FrictionCone> cones;

  int size() const { return linear.size(); }
  // w = M z + q and F(z) (both resized).
  void evaluate(const VecX& z, VecX& w, VecX& F) const;
  // The Jacobian dF/dz into J, given w = M z + q; J's pattern is ncp_jacobian_pattern's.
  void jacobian(const VecX& z, const VecX& w, JacobianRows& J) const;
};

// The pattern of dF/dz and of the Newton methods' Jacobians built on it (newton_ncp.cpp,
// alart_curnier.hpp), for M by rows `m` (kept by J): M's nonzeros, the diagonal and, per cone,
// the tangent rows' entries in the normal, tangent and slip columns, the slip row's in the
// normal and tangent columns, and M's tangent rows on every tangent row and on the slip row
// (the slip speed's gradient, Alart-Curnier's projection on the disc).
void ncp_jacobian_pattern(const Ncp& ncp, const SparseRowsX& m, JacobianRows& J);

// Why the NCP cannot be solved as given (the linear part's defects, bounds other than [0, inf)
// and free, a cone outside the rows or with free rows other than its tangents), or nullptr.
const char* ncp_defect(const Ncp& ncp);

// The start of a solve: z as given when warm-started (right size, finite), else 0; on a defect
// z = 0 and the defect is returned (else nullptr).
const char* start_ncp_solve(const Ncp& ncp, bool warm_start, VecX& z);

// Natural residual ||z - mid(l, u, z - F(z))||_inf: zero exactly at a solution.
double natural_residual(const Ncp& ncp, const VecX& z);
// The same for a known F = F(z) (no evaluation).
double natural_residual_at(const Ncp& ncp, const VecX& z, const VecX& F);

// sigma = |u_t| on every cone, u_t = w on its tangent rows: the slip speed. At a solution sigma
// is |u_t| (sliding: (2.18)-(2.20) give sigma = |u_t|; sticking: u_t = 0 = sigma) or arbitrary
// (no load, or mu = 0: p_t = 0 and any sigma >= 0 solves), so this is always a valid choice,
// and a start at which (2.18)'s rows depend on p_t.
void set_slip_speeds(const Ncp& ncp, const VecX& w, VecX& z);

// The Newton methods' partner of F on each row (a = z_i, except a cone's slip row, where
// a = sigma - |u_t|): they solve min(a_i, F_i) = 0 (or phi(a_i, F_i) = 0) on the rows on
// [0, inf). On the slip row 0 <= sigma - |u_t| _|_ mu p_n - |p_t| >= 0 has exactly the solutions
// of (2.18)-(2.20) with sigma = |u_t| (if mu p_n - |p_t| > 0 then sigma = |u_t| and (2.18) gives
// u_t = 0), so sigma stays determined where (2.20) leaves it free: at a contact without load
// (p_n = p_t = 0 solve for any sigma, and sigma's column of dF/dz vanishes).
void complementarity_partners(const Ncp& ncp, const VecX& z, const VecX& w, VecX& a);
// Adds scale * d|u_t|/dz = scale * (u_t / |u_t|)^T M_t to J's row `row` (zero at u_t = 0, an
// element of the generalized gradient): the slip partner's gradient is e_sigma minus this.
void add_slip_speed_gradient(const FrictionCone& cone, const VecX& w, double scale, int row,
                             JacobianRows& J);
// For each row, the index of the cone whose slip row it is, or -1 (resized to ncp.size()).
void slip_rows(const Ncp& ncp, std::vector<int>& cone_of_row);

// z with every row clamped to its bounds.
void clamp_to_bounds(const Ncp& ncp, VecX& z);

}  // namespace pegsim
